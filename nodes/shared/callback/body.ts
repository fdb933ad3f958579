/*
 * Reading a callback body as exactly the text HaiPay signed. `JSON.parse` loses digits (an orderNo above 2^53),
 * rewrites numbers (`1.50` becomes 1.5) and keeps only the last of two members with the same name, and a body of a
 * million members costs seconds before anything can be checked. This reader caps the body's size and member count
 * before any other work, refuses a name that appears twice, and keeps each top-level number as the text received,
 * with where each value sits in the text so that the signature can be redacted whatever the spelling of its name.
 * It reads in two steps: the members' names and places (scanCallback), then their values (ScannedBody.decode), so
 * that a forged signature can be refused before a 64 KB body is decoded.
 */

/** A genuine callback is well under 1 KB with about ten fields; anything past these caps is refused unread. */
export const MAX_BODY_BYTES = 65_536;
export const MAX_FIELDS = 200;
/** Objects and arrays nested inside a top-level value; HaiPay's callbacks are flat. */
const MAX_DEPTH = 16;

interface Member {
	/** The member's name, decoded (`"\u0073ign"` is `sign`). */
	name: string;
	/** The decoded value; a number is kept as its text, in `numberText`, and here as that text too. */
	value: unknown;
	/** The number exactly as written, when the value is a JSON number. */
	numberText?: string;
	/** Where the value's text starts and ends in the body. */
	start: number;
	end: number;
	/** Set for a string, object or array: its value is decoded with the whole body's (ScannedBody.decode). */
	later?: true;
}

export interface ExactBody {
	text: string;
	members: Member[];
}

export type BodyProblem = 'notJson' | 'tooLarge' | 'tooManyFields' | 'duplicateField';

type Problem = { ok: false; problem: BodyProblem; log: string };

export type ReadResult = { ok: true; body: ExactBody } | Problem;

export type ScanResult = { ok: true; body: ScannedBody } | Problem;

const NOT_JSON: Problem = { ok: false, problem: 'notJson', log: 'the body is not a JSON object' };

class Refusal extends Error {
	constructor(
		readonly problem: BodyProblem,
		readonly log: string,
	) {
		super(log);
	}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A JSON string's text as far as its closing quote, each escape a backslash and the character after it. */
const STRING = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"/y;
/** A run of a composite value up to its next bracket, strings whole (a bracket in one is text): skipped in one pass. */
const BETWEEN_BRACKETS = /(?:[^"[\]{}]+|"[^"\\]*(?:\\[\s\S][^"\\]*)*")+/y;

function isSpace(code: number): boolean {
	return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** One pass over a top-level JSON object; nothing is decoded twice, and it stops at the first cap passed. */
class Reader {
	private at = 0;

	constructor(private readonly text: string) {}

	private notJson(): never {
		throw new Refusal('notJson', 'the body is not a JSON object');
	}

	private skipSpace(): void {
		while (this.at < this.text.length && isSpace(this.text.charCodeAt(this.at))) this.at++;
	}

	/** Where the next backslash at or after the last place asked about is: places are asked in order, so one pass finds all. */
	private backslash = -1;

	private nextBackslash(from: number): number {
		if (this.backslash < from) this.backslash = this.findBackslash(from);
		return this.backslash;
	}

	private findBackslash(from: number): number {
		const found = this.text.indexOf('\\', from);
		return found < 0 ? this.text.length : found;
	}

	/**
	 * The end (exclusive) of the string that starts at `from` (its opening quote): the next quote when no backslash
	 * comes before it (most strings), else as STRING reads it, in one native pass however many escapes it holds.
	 */
	private stringEnd(from: number): number {
		const quote = this.text.indexOf('"', from + 1);
		if (quote < 0) this.notJson();
		if (this.nextBackslash(from) > quote) return quote + 1;
		STRING.lastIndex = from;
		if (!STRING.test(this.text)) this.notJson();
		return STRING.lastIndex;
	}

	/** A member's name, decoded: its own text when it holds no escape (most do), else JSON's reading of it. */
	private name(start: number, end: number): string {
		if (this.nextBackslash(start) >= end) return this.text.slice(start + 1, end - 1);
		try {
			return JSON.parse(this.text.slice(start, end)) as string;
		} catch {
			return this.notJson();
		}
	}

	/** The end of an object or array starting at `from`, counting depth and skipping strings. */
	private compositeEnd(from: number): number {
		let depth = 0;
		let index = from;
		while (index < this.text.length) {
			const code = this.text.charCodeAt(index);
			if (code === 0x7b || code === 0x5b) {
				depth++;
				if (depth > MAX_DEPTH) throw new Refusal('tooManyFields', `a value nests deeper than ${MAX_DEPTH} levels`);
			} else if (code === 0x7d || code === 0x5d) {
				depth--;
				if (depth === 0) return index + 1;
			} else {
				// Not a bracket: a run without one, or a string that does not end (then not JSON).
				BETWEEN_BRACKETS.lastIndex = index;
				if (!BETWEEN_BRACKETS.test(this.text)) this.notJson();
				index = BETWEEN_BRACKETS.lastIndex;
				continue;
			}
			index++;
		}
		return this.notJson();
	}

	private value(name: string): Member {
		this.skipSpace();
		const start = this.at;
		const code = this.text.charCodeAt(start);
		// A string, object or array is only delimited here; its value is read from the parse of the whole text (read()).
		if (code === 0x22 || code === 0x7b || code === 0x5b) {
			this.at = code === 0x22 ? this.stringEnd(start) : this.compositeEnd(start);
			return { name, value: undefined, start, end: this.at, later: true };
		}
		for (const [word, value] of [
			['true', true],
			['false', false],
			['null', null],
		] as const) {
			if (this.text.startsWith(word, start)) {
				this.at = start + word.length;
				return { name, value, start, end: this.at };
			}
		}
		NUMBER.lastIndex = start;
		const number = NUMBER.exec(this.text);
		if (number === null) this.notJson();
		this.at = start + number[0].length;
		return { name, value: number[0], numberText: number[0], start, end: this.at };
	}

	read(): ScannedBody {
		if (this.text.charCodeAt(0) === 0xfeff) this.at = 1;
		this.skipSpace();
		if (this.text.charCodeAt(this.at) !== 0x7b) this.notJson();
		this.at++;
		const members: Member[] = [];
		const byName = new Map<string, Member>();
		this.skipSpace();
		if (this.text.charCodeAt(this.at) === 0x7d) {
			this.at++;
		} else {
			for (;;) {
				this.skipSpace();
				if (this.text.charCodeAt(this.at) !== 0x22) this.notJson();
				const nameEnd = this.stringEnd(this.at);
				const name = this.name(this.at, nameEnd);
				this.at = nameEnd;
				this.skipSpace();
				if (this.text.charCodeAt(this.at) !== 0x3a) this.notJson();
				this.at++;
				if (byName.has(name)) {
					throw new Refusal('duplicateField', `the field ${JSON.stringify(name.slice(0, 40))} appears more than once`);
				}
				if (byName.size >= MAX_FIELDS)
					throw new Refusal('tooManyFields', `the body has more than ${MAX_FIELDS} fields`);
				const member = this.value(name);
				byName.set(name, member);
				members.push(member);
				this.skipSpace();
				const next = this.text.charCodeAt(this.at);
				this.at++;
				if (next === 0x2c) continue;
				if (next === 0x7d) break;
				this.notJson();
			}
		}
		this.skipSpace();
		if (this.at !== this.text.length) this.notJson();
		return new ScannedBody(this.text, members, byName);
	}
}

/**
 * A body whose members' names and places are read, within the caps, and whose strings, objects and arrays are not
 * decoded yet: a signature check needs only `sign` and `appId` before it knows whether the rest is worth reading.
 */
export class ScannedBody {
	private decoded?: ReadResult;

	constructor(
		readonly text: string,
		private readonly members: Member[],
		private readonly byName: ReadonlyMap<string, Member>,
	) {}

	get size(): number {
		return this.members.length;
	}

	/** The names of the first `count` members. */
	names(count: number): string[] {
		return this.members.slice(0, count).map((member) => member.name);
	}

	/** One member's value as HaiPay signed it (a number as its digits), decoded alone; undefined when absent or not JSON. */
	signedValue(name: string): unknown {
		const member = this.byName.get(name);
		if (member?.later !== true) return member?.numberText ?? member?.value;
		try {
			return JSON.parse(this.text.slice(member.start, member.end)) as unknown;
		} catch {
			return undefined;
		}
	}

	/**
	 * Every value, decoded by one native parse of the whole text (faster than a parse per value, and it checks every
	 * string's escapes and characters), or why the text is not JSON after all. The names are distinct, so each is
	 * its member's own.
	 */
	decode(): ReadResult {
		if (this.decoded !== undefined) return this.decoded;
		let whole: Record<string, unknown>;
		try {
			whole = JSON.parse(this.text.slice(this.text.charCodeAt(0) === 0xfeff ? 1 : 0)) as Record<string, unknown>;
		} catch {
			return (this.decoded = NOT_JSON);
		}
		for (const member of this.members) if (member.later === true) member.value = whole[member.name];
		return (this.decoded = { ok: true, body: { text: this.text, members: this.members } });
	}
}

/** Reads the members' names and places from text already known to be within the size cap. */
function scanExact(text: string): ScanResult {
	try {
		return { ok: true, body: new Reader(text).read() };
	} catch (error) {
		if (error instanceof Refusal) return { ok: false, problem: error.problem, log: error.log };
		return NOT_JSON;
	}
}

function tooLarge(bytes: number): Problem {
	return {
		ok: false,
		problem: 'tooLarge',
		log: `the body has ${bytes} bytes, more than the ${MAX_BODY_BYTES} a callback may have`,
	};
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** More than `limit` own enumerable names, counted without listing them all. */
function hasMoreFieldsThan(value: object, limit: number): boolean {
	let count = 0;
	for (const name in value) {
		if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
		if (++count > limit) return true;
	}
	return false;
}

/**
 * The callback from n8n's request, its names and places read (scanExact): the raw bytes when n8n kept them (always,
 * for a webhook), else n8n's parse. The raw bytes are preferred because n8n parses by Content-Type and its parse has
 * already lost what was signed. Size and field count are checked first, in constant time for the bytes, so a huge
 * body costs nothing more here.
 */
export function scanCallback(rawBody: unknown, parsed: unknown): ScanResult {
	if (Buffer.isBuffer(rawBody) && rawBody.length > 0) {
		if (rawBody.length > MAX_BODY_BYTES) return tooLarge(rawBody.length);
		return scanExact(rawBody.toString('utf8'));
	}
	if (typeof parsed === 'string') {
		if (parsed.length > MAX_BODY_BYTES) return tooLarge(Buffer.byteLength(parsed, 'utf8'));
		return parsed === '' ? scanExact('') : scanCallback(Buffer.from(parsed, 'utf8'), undefined);
	}
	if (isPlainObject(parsed) && !hasMoreFieldsThan(parsed, 0)) return scanExact('');
	if (isPlainObject(parsed)) {
		if (hasMoreFieldsThan(parsed, MAX_FIELDS)) {
			return { ok: false, problem: 'tooManyFields', log: `the body has more than ${MAX_FIELDS} fields` };
		}
		const text = JSON.stringify(parsed);
		if (text.length > MAX_BODY_BYTES) return tooLarge(Buffer.byteLength(text, 'utf8'));
		return scanExact(text);
	}
	return scanExact('');
}

/** The callback from n8n's request, read whole: its members and their values (scanCallback, then decode). */
export function readCallback(rawBody: unknown, parsed: unknown): ReadResult {
	const scanned = scanCallback(rawBody, parsed);
	return scanned.ok ? scanned.body.decode() : scanned;
}

/** The body text with the value of the `sign` member (however its name was spelled) replaced. */
export function redactedText(body: ExactBody): string {
	const sign = body.members.find((member) => member.name === 'sign');
	if (sign === undefined) return body.text;
	return `${body.text.slice(0, sign.start)}"[redacted]"${body.text.slice(sign.end)}`;
}
