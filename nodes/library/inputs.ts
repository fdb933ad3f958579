import { createHash, KeyObject } from 'crypto';

import type { ArrayStyle } from '../shared/signing/canonical';
import { parsePrivateKey, parsePublicKey } from '../shared/signing/keys';
import { trimmedText } from '../shared/text';

/**
 * What a merchant hands the signing library, checked before anything is signed or verified. A mistake here is the
 * caller's configuration, so it throws; only what arrives from the outside (an answer, a callback) ends in `false`.
 */

/** A key as a merchant holds it: PEM, HaiPay's bare base64 (with or without line breaks), or a `crypto` KeyObject. */
export type KeyInput = string | KeyObject;

/** A mistake in what the caller passed: a missing secret, an App ID that is not a whole number, a body that would sign ambiguously. */
export class SigningError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'SigningError';
	}
}

/*
 * Parsing an RSA key costs far more than a signature, and a server signs every request with the same key: each key
 * text is parsed once and kept. The memo is keyed by a digest, so the key text itself is never a map key, and it is
 * bounded, so a caller that passes a new key each time cannot grow it.
 */
const parsed = new Map<string, KeyObject>();
const MEMO_LIMIT = 16;

function memoised(kind: 'private' | 'public', text: string, parse: (text: string) => KeyObject): KeyObject {
	const id = createHash('sha256').update(`${kind}\n${text}`).digest('hex');
	const known = parsed.get(id);
	if (known !== undefined) return known;
	const key = parse(text);
	if (parsed.size >= MEMO_LIMIT) parsed.delete(parsed.keys().next().value as string);
	parsed.set(id, key);
	return key;
}

/** A KeyObject passed as it is must already be the RSA key of the kind asked for. */
function checkedKeyObject(key: KeyObject, kind: 'private' | 'public', option: string): KeyObject {
	if (key.type !== kind || key.asymmetricKeyType !== 'rsa') {
		const algorithm = key.asymmetricKeyType === undefined ? '' : ` (${key.asymmetricKeyType})`;
		throw new SigningError(`${option} is a KeyObject of type ${key.type}${algorithm}; an RSA ${kind} key is needed.`);
	}
	return key;
}

/** The merchant's RSA private key; a text that is no key throws KeyFormatError naming the formats tried. */
export function privateKeyFrom(input: unknown): KeyObject {
	if (input instanceof KeyObject) return checkedKeyObject(input, 'private', 'privateKey');
	if (typeof input !== 'string')
		throw new SigningError('privateKey is missing: pass the merchant private key as PEM, base64 or a KeyObject.');
	return memoised('private', input, (text) => parsePrivateKey(text));
}

/** HaiPay's RSA public key; a text that is no key throws KeyFormatError naming the formats tried. */
export function publicKeyFrom(input: unknown): KeyObject {
	if (input instanceof KeyObject) return checkedKeyObject(input, 'public', 'haipayPublicKey');
	if (typeof input !== 'string')
		throw new SigningError("haipayPublicKey is missing: pass HaiPay's public key as PEM, base64 or a KeyObject.");
	return memoised('public', input, (text) => parsePublicKey(text));
}

/** Trimmed, as the n8n credential trims it: a secret copied with a trailing line break still signs. */
export function secretFrom(input: unknown): string {
	const secret = trimmedText(input);
	if (secret === '') throw new SigningError('secretKey is missing: pass the secret key HaiPay issued with the App ID.');
	return secret;
}

/** The App ID as the number the gateway expects; digits in a string (from an environment variable) are accepted. */
export function appIdFrom(input: unknown): number {
	const appId = typeof input === 'string' && /^\s*\d+\s*$/.test(input) ? Number(input) : input;
	if (typeof appId !== 'number' || !Number.isSafeInteger(appId) || appId <= 0) {
		throw new SigningError('appId must be the whole number shown in the HaiPay merchant backend.');
	}
	return appId;
}

export function arrayStyleFrom(input: unknown): ArrayStyle {
	if (input === undefined || input === 'json' || input === 'list') return input ?? 'json';
	throw new SigningError('arrayStyle must be "json" or "list".');
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** Every verifying option checked and its key parsed before anything received is looked at. */
export function verifyingFrom(options: unknown): { secretKey: string; arrayStyle: ArrayStyle; publicKey: KeyObject } {
	if (!isPlainObject(options)) throw new SigningError('Pass the options { secretKey, haipayPublicKey }.');
	return {
		secretKey: secretFrom(options.secretKey),
		arrayStyle: arrayStyleFrom(options.arrayStyle),
		publicKey: publicKeyFrom(options.haipayPublicKey),
	};
}

/** An answer's text as JSON, as the node reads it (JSON.parse of its UTF-8), or undefined when it is none. */
export function parsedJson(text: string | Buffer): unknown {
	try {
		return JSON.parse(text.toString('utf8'));
	} catch {
		return undefined;
	}
}
