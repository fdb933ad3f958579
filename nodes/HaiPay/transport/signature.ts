import { constants, sign as rsaSign, verify as rsaVerify, type KeyObject } from 'crypto';

import { canonicalString, type CanonicalOptions } from './canonical';

/** SHA256withRSA, PKCS#1 v1.5 padding: what HaiPay's Java side calls `Signature.getInstance("SHA256WithRSA")`. */
const PADDING = { padding: constants.RSA_PKCS1_PADDING };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function signBody(
	body: object,
	secretKey: string,
	privateKey: KeyObject,
	options: CanonicalOptions = {},
): string {
	const message = Buffer.from(canonicalString(body, secretKey, options), 'utf8');
	return rsaSign('sha256', message, { key: privateKey, ...PADDING }).toString('base64');
}

/**
 * True only when `signature` is a well-formed base64 RSA signature of the body. Never throws: a malformed
 * signature is simply not valid. The check itself is OpenSSL's RSA verification, which compares the recovered
 * digest without leaking where it differs.
 */
export function verifyBody(
	body: object,
	signature: unknown,
	secretKey: string,
	publicKey: KeyObject,
	options: CanonicalOptions = {},
): boolean {
	if (typeof signature !== 'string') return false;
	const compact = signature.replace(/\s+/g, '');
	if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) return false;
	const bytes = Buffer.from(compact, 'base64');
	const modulusBytes = Math.ceil((publicKey.asymmetricKeyDetails?.modulusLength ?? 0) / 8);
	if (modulusBytes > 0 && bytes.length !== modulusBytes) return false;
	try {
		const message = Buffer.from(canonicalString(body, secretKey, options), 'utf8');
		return rsaVerify('sha256', message, { key: publicKey, ...PADDING }, bytes);
	} catch {
		return false;
	}
}

/** A body with `sign` set over every other field; the object that is signed is the object that is sent. */
export function withSignature<T extends object>(
	body: T,
	secretKey: string,
	privateKey: KeyObject,
	options: CanonicalOptions = {},
): T & { sign: string } {
	const unsigned = { ...body } as T & { sign?: string };
	delete unsigned.sign;
	return { ...unsigned, sign: signBody(unsigned, secretKey, privateKey, options) };
}
