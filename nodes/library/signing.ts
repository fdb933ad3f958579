import { readCallback } from '../shared/callback/body';
import { CALLBACK_SHAPE } from '../shared/contract/callback';
import { ambiguityOf, type ArrayStyle } from '../shared/signing/canonical';
import { badNameOf, decidingDoubt } from '../shared/signing/readings';
import { inexactNumber, reservedUse } from '../shared/signing/signable';
import { sign, verify } from '../shared/signing/signature';
import {
	appIdFrom,
	arrayStyleFrom,
	isPlainObject,
	parsedJson,
	privateKeyFrom,
	secretFrom,
	SigningError,
	verifyingFrom,
	type KeyInput,
} from './inputs';

/**
 * HaiPay signing for a merchant's own code, outside n8n (docs/library.md): the same canonical string, signature and
 * key reading as the node and the trigger use, behind three calls. Configuration mistakes throw; an answer or a
 * callback that does not prove itself is `false`, never an exception, so a handler cannot fail open by accident.
 */

export interface SignOptions {
	/** The App ID (a whole number, or its digits as text) the secret key and the currency belong to. */
	appId: number | string;
	secretKey: string;
	/** The merchant's RSA private key: PEM (PKCS#8 or PKCS#1), bare base64, or a KeyObject. */
	privateKey: KeyInput;
	/** How an array value is written into the signed string; "json" unless HaiPay told you otherwise. */
	arrayStyle?: ArrayStyle;
}

export interface VerifyOptions {
	secretKey: string;
	/** HaiPay's RSA public key from the merchant backend: PEM, bare base64, or a KeyObject. */
	haipayPublicKey: KeyInput;
	arrayStyle?: ArrayStyle;
}

/** A body as sent: every field of the input (as JSON writes it), the App ID, and `sign`. */
export type SignedBody<T extends object> = Omit<T, 'appId' | 'sign'> & { appId: number; sign: string };

/**
 * The body to POST, with `appId` set and `sign` over every other field. The result is a JSON copy of the input, so
 * what was signed is exactly what `JSON.stringify` sends (a Date is signed as the text JSON gives it, not as `{}`).
 */
export async function signBody<T extends object>(body: T, options: SignOptions): Promise<SignedBody<T>> {
	if (!isPlainObject(body)) throw new SigningError('The body to sign must be a JSON object.');
	if (!isPlainObject(options)) throw new SigningError('Pass the options { appId, secretKey, privateKey }.');
	const appId = appIdFrom(options.appId);
	const secretKey = secretFrom(options.secretKey);
	const arrayStyle = arrayStyleFrom(options.arrayStyle);
	const privateKey = privateKeyFrom(options.privateKey);
	const signed = { ...jsonCopy(body), appId } as Record<string, unknown>;
	delete signed.sign;
	refuseReserved(signed);
	refuseAmbiguity(signed, arrayStyle);
	signed.sign = await sign(signed, secretKey, privateKey, { arrayStyle });
	return signed as SignedBody<T>;
}

/** The signed string escapes nothing: "a&b=c" in one field would sign exactly like two fields, so it is refused. */
function refuseAmbiguity(body: Record<string, unknown>, arrayStyle: ArrayStyle): void {
	const ambiguity = ambiguityOf(body, { arrayStyle });
	if (ambiguity === undefined) return;
	const element = ambiguity.inListElement ? ' (in an element of its array)' : '';
	throw new SigningError(
		`The ${ambiguity.part} of "${ambiguity.field}" holds "${ambiguity.character}"${element}, which would let the signature stand for other fields: nothing was signed.`,
	);
}

/**
 * A field the signing uses may not be the body's own (the node refuses it alike: shared/signing/signable.ts). The
 * body's `appId` and `sign` themselves are replaced, as documented; a name that reads as one of them, or as `key`,
 * where the signed text holds the secret, is refused.
 */
function refuseReserved(body: Record<string, unknown>): void {
	for (const name of Object.keys(body)) {
		if (name === 'appId' || name === 'sign') continue;
		const why = reservedUse(name);
		if (why !== undefined) throw new SigningError(`The field ${JSON.stringify(name)} ${why}: nothing was signed.`);
	}
}

/**
 * The body as JSON sends it, and every number in it checked as the node checks one (`inexactNumber`): JSON writes
 * Infinity as null and 2^53 + 1 as 2^53, so what would be signed and sent is not what the caller meant. Numbers are
 * met as JSON.stringify writes them, after any toJSON, at any depth; a refusal names the top-level field.
 */
function jsonCopy(body: object): Record<string, unknown> {
	let text: string | undefined;
	let why = 'JSON writes it as something other than an object';
	let root: unknown;
	let field = '';
	let inexact: string | undefined;
	const check = function (this: unknown, name: string, value: unknown): unknown {
		if (name === '' && root === undefined) root = value;
		else if (this === root) field = name;
		if (inexact === undefined && typeof value === 'number') {
			const problem = inexactNumber(value);
			if (problem !== undefined)
				inexact = `The value of ${JSON.stringify(field)} holds ${problem}: send it as a string; nothing was signed.`;
		}
		return value;
	};
	try {
		text = JSON.stringify(body, check);
	} catch (error) {
		why = (error as Error).message;
	}
	if (inexact !== undefined) throw new SigningError(inexact);
	const copy: unknown = text === undefined ? undefined : JSON.parse(text);
	if (!isPlainObject(copy)) throw new SigningError(`The body cannot be sent as a JSON object: ${why}.`);
	return copy;
}

/**
 * True when a gateway answer's `data` carries HaiPay's signature over all its members but `sign`. Takes the answer
 * envelope (`{ status, error, msg, data }`), its `data` alone, or the answer's text. Only `data` is signed: the
 * envelope's `status`, `error` and `msg` are not covered by a `true`.
 */
export async function verifyAnswer(answer: unknown, options: VerifyOptions): Promise<boolean> {
	const { secretKey, publicKey, arrayStyle } = verifyingFrom(options);
	const data = signedDataOf(typeof answer === 'string' || Buffer.isBuffer(answer) ? parsedJson(answer) : answer);
	if (data === undefined) return false;
	return await verify(data, data.sign, secretKey, publicKey, { arrayStyle });
}

/**
 * True when a notify callback carries HaiPay's signature over every member it holds but `sign`, and no other reading
 * of its signed string could change what it says of the order (orderId, orderNo, status, amount, currency, appId,
 * a refund number or a card token); free text that could end in other fields, and fields HaiPay adds, are
 * accepted, as HaiPay's callback page asks. Pass the raw body (string or Buffer) when you have it: it is read as the
 * trigger reads it, numbers kept as the digits received (`1.50` stays `1.50`), which a parsed object has lost.
 * A body over 64 KiB or 200 fields, or with a name sent twice, is `false` unread.
 */
export async function verifyCallback(body: unknown, options: VerifyOptions): Promise<boolean> {
	const { secretKey, publicKey, arrayStyle } = verifyingFrom(options);
	const read = Buffer.isBuffer(body) ? readCallback(body, undefined) : readCallback(undefined, body);
	if (!read.ok || read.body.members.length === 0) return false;
	const signed = Object.fromEntries(
		read.body.members.map((member) => [member.name, member.numberText ?? member.value]),
	);
	if (badNameOf(signed) !== undefined || decidingDoubt(signed, CALLBACK_SHAPE, { arrayStyle }) !== undefined)
		return false;
	return await verify(signed, signed.sign, secretKey, publicKey, { arrayStyle });
}

/** The object that carries the signature: the answer itself when it has `sign`, else its `data`. */
function signedDataOf(answer: unknown): Record<string, unknown> | undefined {
	if (!isPlainObject(answer)) return undefined;
	if (Object.prototype.hasOwnProperty.call(answer, 'sign')) return answer;
	return isPlainObject(answer.data) ? answer.data : undefined;
}
