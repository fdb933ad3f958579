import { constants, sign as rsaSign, verify as rsaVerify, type KeyObject } from 'crypto';

import { canonicalString, type CanonicalOptions } from './canonical';

/** SHA256withRSA, PKCS#1 v1.5 padding: what HaiPay's Java side calls `Signature.getInstance("SHA256WithRSA")`. */
const PADDING = { padding: constants.RSA_PKCS1_PADDING };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The signature's bytes when it is well-formed base64 of the key's size; undefined otherwise. */
function signatureBytes(signature: unknown, publicKey: KeyObject): Buffer | undefined {
	if (typeof signature !== 'string') return undefined;
	const compact = signature.replace(/\s+/g, '');
	if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) return undefined;
	const bytes = Buffer.from(compact, 'base64');
	const modulusBytes = Math.ceil((publicKey.asymmetricKeyDetails?.modulusLength ?? 0) / 8);
	return modulusBytes > 0 && bytes.length !== modulusBytes ? undefined : bytes;
}

/*
 * Signing and verifying run on libuv's thread pool: in a bulk run n8n's main thread does everything else for every
 * item, and moving the RSA work off it lets a second core carry it, so more requests stay in flight.
 */

/** The base64 signature of a body's string to sign. */
export async function sign(
	body: object,
	secretKey: string,
	privateKey: KeyObject,
	options: CanonicalOptions = {},
): Promise<string> {
	const message = Buffer.from(canonicalString(body, secretKey, options), 'utf8');
	return await new Promise((resolve, reject) => {
		rsaSign('sha256', message, { key: privateKey, ...PADDING }, (error, signature) => {
			if (error) reject(error);
			else resolve(signature.toString('base64'));
		});
	});
}

/**
 * True only when `signature` is a well-formed base64 RSA signature of the body. Never rejects: a malformed
 * signature is simply not valid. The check itself is OpenSSL's RSA verification, which compares the recovered
 * digest without leaking where it differs.
 */
export async function verify(
	body: object,
	signature: unknown,
	secretKey: string,
	publicKey: KeyObject,
	options: CanonicalOptions = {},
): Promise<boolean> {
	const bytes = signatureBytes(signature, publicKey);
	if (bytes === undefined) return false;
	let message: Buffer;
	try {
		message = Buffer.from(canonicalString(body, secretKey, options), 'utf8');
	} catch {
		return false;
	}
	return await new Promise((resolve) => {
		rsaVerify('sha256', message, { key: publicKey, ...PADDING }, bytes, (error, valid) =>
			resolve(!error && valid === true),
		);
	});
}
