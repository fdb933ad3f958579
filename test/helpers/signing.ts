import { constants, sign as rsaSign, verify as rsaVerify, type KeyObject } from 'crypto';

import { canonicalString, type CanonicalOptions } from '../../nodes/shared/signing/canonical';

/*
 * Signing on the calling thread, for tests that build signed bodies and callbacks inline. The package signs and
 * verifies only on the thread pool (nodes/shared/signing/signature.ts); the vectors in test/unit/signing.test.ts
 * check that both agree with the openssl command line.
 */

const PADDING = { padding: constants.RSA_PKCS1_PADDING };

export function signBody(body: object, secretKey: string, privateKey: KeyObject, options: CanonicalOptions = {}): string {
	return rsaSign('sha256', Buffer.from(canonicalString(body, secretKey, options), 'utf8'), { key: privateKey, ...PADDING }).toString('base64');
}

export function verifyBody(body: object, signature: unknown, secretKey: string, publicKey: KeyObject, options: CanonicalOptions = {}): boolean {
	if (typeof signature !== 'string' || !/^[A-Za-z0-9+/\s]+={0,2}$/.test(signature)) return false;
	try {
		const message = Buffer.from(canonicalString(body, secretKey, options), 'utf8');
		return rsaVerify('sha256', message, { key: publicKey, ...PADDING }, Buffer.from(signature.replace(/\s+/g, ''), 'base64'));
	} catch {
		return false;
	}
}

/** A body with `sign` set over every other field; the object that is signed is the object returned. */
export function withSignature<T extends object>(body: T, secretKey: string, privateKey: KeyObject, options: CanonicalOptions = {}): T & { sign: string } {
	const unsigned = { ...body } as T & { sign?: string };
	delete unsigned.sign;
	return { ...unsigned, sign: signBody(unsigned, secretKey, privateKey, options) };
}
