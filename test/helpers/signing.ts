import type { KeyObject } from 'crypto';

import { signBody as sandboxSign, verifyBody as sandboxVerify } from '../../sandbox/signing';

/*
 * Signing on the calling thread, for tests that build signed bodies and callbacks inline and check what the package
 * signed. It is the sandbox's signer (sandbox/signing.ts), written apart from the package's
 * nodes/shared/signing/: a fault in the package's string to sign then fails a test instead of signing and verifying
 * the same wrong text on both sides. test/unit/independent-signing.test.ts checks it against the openssl command
 * line over canonical strings written out by hand.
 */

/** The credential's array format, named as the package names it, so callers pass the same options to both. */
export interface SigningOptions {
	arrayStyle?: 'json' | 'list';
}

export function signBody(body: object, secretKey: string, privateKey: KeyObject, options: SigningOptions = {}): string {
	return sandboxSign(body as Record<string, unknown>, secretKey, privateKey, options.arrayStyle ?? 'json');
}

/**
 * True only for a string signature of the body. Line breaks and spaces inside the base64 are ignored, as a PEM-like
 * wrapped signature carries them; anything else malformed is simply not valid.
 */
export function verifyBody(
	body: object,
	signature: unknown,
	secretKey: string,
	publicKey: KeyObject,
	options: SigningOptions = {},
): boolean {
	if (typeof signature !== 'string') return false;
	return sandboxVerify(
		body as Record<string, unknown>,
		signature.replace(/\s+/g, ''),
		secretKey,
		publicKey,
		options.arrayStyle ?? 'json',
	);
}

/** A body with `sign` set over every other field; the object that is signed is the object returned. */
export function withSignature<T extends object>(
	body: T,
	secretKey: string,
	privateKey: KeyObject,
	options: SigningOptions = {},
): T & { sign: string } {
	const unsigned = { ...body } as T & { sign?: string };
	delete unsigned.sign;
	return { ...unsigned, sign: signBody(unsigned, secretKey, privateKey, options) };
}
