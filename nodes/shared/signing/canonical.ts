/**
 * The string HaiPay signs: every top-level field but `sign`, empty ones left out, keys in byte order,
 * `key=value` joined by `&`, then `&key=<secret>`. No URL-encoding: the gateway signs the raw values.
 */

/** How an array value is written into the signed string; the gateway's choice is not documented. */
export type ArrayStyle = 'json' | 'list';

export interface CanonicalOptions {
	arrayStyle?: ArrayStyle;
}

/** A value of a body to sign, as JSON holds it. */
export type Json = string | number | boolean | null | undefined | Json[] | { [key: string]: Json };

/**
 * Byte-order comparison of two keys, as a Java `TreeMap` would sort ASCII names (no locale). UTF-8 byte order is
 * code point order; UTF-16 code units agree with it except that surrogates (U+D800-DFFF, which stand for code
 * points above U+FFFF) must sort after U+E000-FFFF. Compared in place: a body of many keys is sorted in
 * O(n log n) without allocating per comparison.
 */
export function byteOrder(a: string, b: string): number {
	const length = Math.min(a.length, b.length);
	for (let index = 0; index < length; index++) {
		let left = a.charCodeAt(index);
		let right = b.charCodeAt(index);
		if (left === right) continue;
		if (left >= 0xd800 && right >= 0xd800) {
			left = left >= 0xe000 ? left - 0x800 : left + 0x2000;
			right = right >= 0xe000 ? right - 0x800 : right + 0x2000;
		}
		return left - right;
	}
	return a.length - b.length;
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

/** A value as the string to sign writes it. */
export function render(value: Json, options: CanonicalOptions): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
	if (Array.isArray(value)) return options.arrayStyle === 'list' ? listStyle(value) : sortedJson(value);
	return sortedJson(value);
}

/*
 * The joined string has no escaping, so "a=1&b=2" could be one field or two. A name or value that holds `&` or `=`
 * lets one signature stand for another set of fields; a control character can hide either from a reader.
 */
function isSeparatorOrControl(code: number): boolean {
	return code === 0x26 || code === 0x3d || code < 0x20 || code === 0x7f;
}

/** The first separator or control character of a text, or undefined. */
function firstSeparatorOrControl(text: string): string | undefined {
	for (let index = 0; index < text.length; index++) {
		if (isSeparatorOrControl(text.charCodeAt(index))) return text[index];
	}
	return undefined;
}

/*
 * In the Java-list style an array is written `[a, b]`, its elements unquoted: an element holding `,`, `[`, `]` or
 * whitespace could be read as other elements (`["HP1, HP2"]` signs exactly like `["HP1", "HP2"]`). The JSON style
 * quotes every element, so there the same element is unambiguous.
 */
function isListBreaker(character: string): boolean {
	return character === ',' || character === '[' || character === ']' || /\s/u.test(character);
}

/** The first character of a list-style array's elements that could split or join them, or undefined. */
function firstListBreaker(value: Json[]): string | undefined {
	for (const item of value) {
		const text = typeof item === 'string' ? item : sortedJson(item ?? null);
		const found = [...text].find(isListBreaker);
		if (found !== undefined) return found;
	}
	return undefined;
}

/** Why one signed field is ambiguous in the string to sign, or undefined when it is not. */
interface Ambiguity {
	field: string;
	/** `name` when the field's name is at fault, `value` when its value is. */
	part: 'name' | 'value';
	/** The first offending character, spelled so it can be shown (`&`, `=`, `,`, `U+000A`). */
	character: string;
	/** Set when the character sits inside an element of an array written in the Java-list style. */
	inListElement?: true;
}

function spelled(character: string): string {
	if ('&=,[]'.includes(character)) return character;
	return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The first field whose name or rendered value could be read as a separator in the string to sign, or (in the
 * Java-list array style) whose array elements could be read as other elements. A body with none parses back from
 * its string into exactly its own fields and elements; one with any must never be signed or trusted.
 */
export function ambiguityOf(body: object, options: CanonicalOptions = {}): Ambiguity | undefined {
	const record = body as Record<string, Json>;
	for (const key of Object.keys(record)) {
		if (key === 'sign' || isSkipped(record[key])) continue;
		const inName = firstSeparatorOrControl(key);
		if (inName !== undefined) return { field: key, part: 'name', character: spelled(inName) };
		const inValue = firstSeparatorOrControl(render(record[key], options));
		if (inValue !== undefined) return { field: key, part: 'value', character: spelled(inValue) };
		const value = record[key];
		const inElement = options.arrayStyle === 'list' && Array.isArray(value) ? firstListBreaker(value) : undefined;
		if (inElement !== undefined)
			return { field: key, part: 'value', character: spelled(inElement), inListElement: true };
	}
	return undefined;
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
