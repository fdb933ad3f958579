/**
 * The string HaiPay signs: every top-level field but `sign`, empty ones left out, keys in byte order,
 * `key=value` joined by `&`, then `&key=<secret>`. No URL-encoding: the gateway signs the raw values.
 */

/** How an array value is written into the signed string; the gateway's choice is not documented. */
export type ArrayStyle = 'json' | 'list';

export interface CanonicalOptions {
	arrayStyle?: ArrayStyle;
}

type Json = string | number | boolean | null | undefined | Json[] | { [key: string]: Json };

/** Byte-order comparison of two keys, as a Java `TreeMap` would sort ASCII names (no locale). */
function byteOrder(a: string, b: string): number {
	const left = Buffer.from(a, 'utf8');
	const right = Buffer.from(b, 'utf8');
	return Buffer.compare(left, right);
}

/** Objects nested inside a value print as JSON with their keys sorted, so key order never changes a signature. */
function sortedJson(value: Json): string {
	if (Array.isArray(value)) return `[${value.map((item) => sortedJson(item ?? null)).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const keys = Object.keys(value).sort(byteOrder);
		return `{${keys.map((key) => `${JSON.stringify(key)}:${sortedJson(value[key] ?? null)}`).join(',')}}`;
	}
	return JSON.stringify(value ?? null);
}

/** `[a, b]`: what Java's `List.toString()` prints for a list of strings. */
function listStyle(value: Json[]): string {
	return `[${value.map((item) => (typeof item === 'string' ? item : sortedJson(item))).join(', ')}]`;
}

function isSkipped(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

function render(value: Json, options: CanonicalOptions): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
	if (Array.isArray(value)) return options.arrayStyle === 'list' ? listStyle(value) : sortedJson(value);
	return sortedJson(value);
}

/** The signed fields of a body, joined, without the secret: shared by signing and the error hints. */
export function canonicalFields(body: object, options: CanonicalOptions = {}): string {
	const record = body as Record<string, Json>;
	return Object.keys(record)
		.filter((key) => key !== 'sign' && !isSkipped(record[key]))
		.sort(byteOrder)
		.map((key) => `${key}=${render(record[key], options)}`)
		.join('&');
}

export function canonicalString(body: object, secretKey: string, options: CanonicalOptions = {}): string {
	const fields = canonicalFields(body, options);
	return fields === '' ? `key=${secretKey}` : `${fields}&key=${secretKey}`;
}
