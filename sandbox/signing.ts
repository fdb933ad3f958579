import { createPrivateKey, createPublicKey, sign as rsaSign, verify as rsaVerify, type KeyObject } from 'crypto';

/**
 * The gateway's own view of HaiPay signing, written apart from the node's transport code so that a test in which
 * both sides agree says something: every top-level field but `sign`, empty ones (null, absent, "") left out,
 * keys in byte order, `key=value` joined by `&`, then `&key=<secret>`, RSA PKCS#1 v1.5 over SHA-256, base64.
 */

export type ArrayStyle = 'json' | 'list';

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

const SURROGATE_OR_ABOVE = /[\ud800-\uffff]/;

function byteOrder(a: string, b: string): number {
	// UTF-16 code-unit order is UTF-8 byte order except where surrogates meet U+E000-U+FFFF: only such keys
	// pay for the byte view.
	if (SURROGATE_OR_ABOVE.test(a) || SURROGATE_OR_ABOVE.test(b))
		return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
	return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with object keys sorted at every depth, so that member order never changes a signature. */
export function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map((item) => stableJson(item ?? null)).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const record = value as Record<string, unknown>;
		const keys = Object.keys(record).sort(byteOrder);
		return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(record[key] ?? null)}`).join(',')}}`;
	}
	return JSON.stringify(value ?? null);
}

function valueText(value: unknown, arrayStyle: ArrayStyle): string {
	if (typeof value === 'string') return value;
	if (Array.isArray(value) && arrayStyle === 'list') {
		// Java's List.toString(): elements unquoted, separated by ", ".
		return `[${value.map((item) => (typeof item === 'string' ? item : stableJson(item))).join(', ')}]`;
	}
	return stableJson(value);
}

export function canonicalString(
	body: Record<string, unknown>,
	secret: string,
	arrayStyle: ArrayStyle = 'json',
): string {
	const parts: string[] = [];
	for (const key of Object.keys(body).sort(byteOrder)) {
		if (key === 'sign') continue;
		const value = body[key];
		if (isEmpty(value)) continue;
		parts.push(`${key}=${valueText(value, arrayStyle)}`);
	}
	parts.push(`key=${secret}`);
	return parts.join('&');
}

export function signBody(
	body: Record<string, unknown>,
	secret: string,
	privateKey: KeyObject,
	arrayStyle: ArrayStyle = 'json',
): string {
	return rsaSign('sha256', Buffer.from(canonicalString(body, secret, arrayStyle), 'utf8'), privateKey).toString(
		'base64',
	);
}

/**
 * The same signature computed on libuv's thread pool: an RSA signature is the largest cost of an answer, and
 * off the event loop it no longer holds up the requests queued behind it.
 */
export function signBodyAsync(
	body: Record<string, unknown>,
	secret: string,
	privateKey: KeyObject,
	arrayStyle: ArrayStyle = 'json',
): Promise<string> {
	const data = Buffer.from(canonicalString(body, secret, arrayStyle), 'utf8');
	return new Promise((resolve, reject) => {
		rsaSign('sha256', data, privateKey, (error, signature) =>
			error ? reject(error) : resolve(signature.toString('base64')),
		);
	});
}

export function verifyBody(
	body: Record<string, unknown>,
	signature: string,
	secret: string,
	publicKey: KeyObject,
	arrayStyle: ArrayStyle = 'json',
): boolean {
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
	try {
		return rsaVerify(
			'sha256',
			Buffer.from(canonicalString(body, secret, arrayStyle), 'utf8'),
			publicKey,
			Buffer.from(signature, 'base64'),
		);
	} catch {
		return false;
	}
}

const ARMOUR = /-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END [A-Z0-9 ]+-----/;

/** Keys arrive as PEM or as HaiPay's bare base64 (armour and line breaks stripped); both load. */
function derOrPem(text: string): { pem?: string; der?: Buffer } {
	const trimmed = text.replace(/\\n/g, '\n').trim();
	if (ARMOUR.test(trimmed)) return { pem: trimmed };
	const bare = trimmed.replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(bare)) throw new Error('key is neither PEM nor base64');
	return { der: Buffer.from(bare, 'base64') };
}

export function loadPrivateKey(text: string | KeyObject): KeyObject {
	if (typeof text !== 'string') return text;
	const { pem, der } = derOrPem(text);
	if (pem !== undefined) return createPrivateKey(pem);
	try {
		return createPrivateKey({ key: der as Buffer, format: 'der', type: 'pkcs8' });
	} catch {
		return createPrivateKey({ key: der as Buffer, format: 'der', type: 'pkcs1' });
	}
}

export function loadPublicKey(text: string | KeyObject): KeyObject {
	if (typeof text !== 'string') return text.type === 'private' ? createPublicKey(text) : text;
	const { pem, der } = derOrPem(text);
	if (pem !== undefined) return createPublicKey(pem);
	try {
		return createPublicKey({ key: der as Buffer, format: 'der', type: 'spki' });
	} catch {
		return createPublicKey({ key: der as Buffer, format: 'der', type: 'pkcs1' });
	}
}

export function publicPem(key: KeyObject): string {
	return (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'pem' }).toString();
}
