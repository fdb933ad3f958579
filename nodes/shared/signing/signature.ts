import { constants, publicDecrypt, sign as rsaSign, verify as rsaVerify, type KeyObject } from 'crypto';

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

/** What PKCS#1 v1.5 signs for SHA-256 before the digest: the DER DigestInfo prefix (RFC 8017, section 9.2, note 1). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * Whether the signature, opened with the public key, holds a SHA-256 digest in PKCS#1 v1.5 form: what every
 * signature made with the private key holds, and what no other value of the key's size can be made to hold without
 * it. One public-key operation whatever the size of the body, so that a forged signature is refused before the
 * body's string to sign is built or hashed; OpenSSL's verification below still decides every other one.
 */
function opensToDigest(bytes: Buffer, publicKey: KeyObject): boolean {
	try {
		const block = publicDecrypt({ key: publicKey, ...PADDING }, bytes);
		return (
			block.length === SHA256_DIGEST_INFO.length + 32 &&
			block.subarray(0, SHA256_DIGEST_INFO.length).equals(SHA256_DIGEST_INFO)
		);
	} catch {
		return false;
	}
}

/**
 * False for a signature the private key did not make (a forged one), at the cost of one public-key operation
 * whatever the body; true for every signature it made, whichever body it was made for.
 */
export function mayBeSigned(signature: unknown, publicKey: KeyObject): boolean {
	const bytes = signatureBytes(signature, publicKey);
	return bytes !== undefined && opensToDigest(bytes, publicKey);
}

/*
 * Signing and verifying run on libuv's thread pool: in a bulk run n8n's main thread does everything else for every
 * item, and moving the RSA work off it lets a second core carry it, so more requests stay in flight. Only the
 * opening of a signature (opensToDigest: the public exponent, cheap) runs first on the main thread.
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
	if (bytes === undefined || !opensToDigest(bytes, publicKey)) return false;
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
