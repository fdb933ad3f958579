/**
 * The credential's secret keys out of what a gateway says. A gateway that echoes its string to sign
 * (`…&key=<secret>`) in a message, a code or a data member would otherwise put the secret into an error, a log
 * line or an output item. Applied once, where an answer is read (`request.ts` `interpret`), before any text is
 * cut short: a cut could otherwise keep part of the secret and hide the rest from an exact match.
 */

/** What stands where a secret was. */
export const REDACTED = '[redacted]';

/*
 * `key=` and the rest of its `&`-separated part: where HaiPay's string to sign holds the secret, also when a
 * gateway echoes only part of it. Not right after a letter, a digit, `+` or `/`, so that base64 text (a voucher
 * sent as a string), which may end in "key=" padding, stays whole.
 */
const KEY_TAIL = /(?<![A-Za-z0-9+/])key=[^&]*/gi;

/** Deeper than any answer HaiPay gives: a value nested further is withheld whole rather than walked. */
const MAX_DEPTH = 32;

/*
 * A gateway may echo a secret as it is, percent-encoded by any encoder (JavaScript's, Java's URLEncoder with `+`
 * for a space and `%21` for `!`, either hex case), JSON-escaped (`\"`, `\u00df`, `\u0061`), and in another case,
 * including full case mapping (`ß` upper-cased is `SS`). Rather than guess each encoder's output, the text is read
 * back the ways a reader would decode it (as it is, JSON escapes undone, and percent-encoding undone on top, with
 * `+` read as a space or as itself), each view folded (every character lower-, upper-, then lower-cased: `ẞ`, `ß`
 * and `SS` meet), and the folded secret looked for in each; a match is mapped back to the characters received.
 * Text encoded twice over (`%2541`) is not read back: one decoding, as a gateway's echo of its own string does.
 */

/** A view of a text: its units, each with the span of the received text it was read from (none: the unit's own). */
interface View {
	text: string;
	start?: number[];
	end?: number[];
}

const startOf = (view: View, unit: number): number => (view.start === undefined ? unit : view.start[unit]);
const endOf = (view: View, unit: number): number => (view.end === undefined ? unit + 1 : view.end[unit]);

const JSON_ESCAPES: Record<string, string> = {
	'"': '"',
	'\\': '\\',
	'/': '/',
	b: '\b',
	f: '\f',
	n: '\n',
	r: '\r',
	t: '\t',
};

/** The number written by `digits` hex digits at `at`, either case, or -1. */
function hexAt(text: string, at: number, digits: number): number {
	let value = 0;
	for (let index = at; index < at + digits; index++) {
		const [code, letter] = [text.charCodeAt(index), text.charCodeAt(index) | 0x20];
		const digit = code >= 0x30 && code <= 0x39 ? code - 0x30 : letter >= 0x61 && letter <= 0x66 ? letter - 0x57 : -1;
		if (digit < 0) return -1;
		value = value * 16 + digit;
	}
	return value;
}

/** The UTF-8 character percent-encoded at `at` (`%C3%9F`), and how many characters of the text it takes. */
function percentCharacter(text: string, at: number): { character: string; length: number } | undefined {
	const lead = text[at] === '%' ? hexAt(text, at + 1, 2) : -1;
	if (lead < 0) return undefined;
	const bytes =
		lead < 0x80
			? 1
			: lead >= 0xc2 && lead <= 0xdf
				? 2
				: lead >= 0xe0 && lead <= 0xef
					? 3
					: lead >= 0xf0 && lead <= 0xf4
						? 4
						: 0;
	if (bytes === 0) return undefined;
	let point = bytes === 1 ? lead : lead & (0xff >> (bytes + 1));
	for (let index = 1; index < bytes; index++) {
		const next = text[at + 3 * index] === '%' ? hexAt(text, at + 3 * index + 1, 2) : -1;
		if (next < 0x80 || next > 0xbf) return undefined;
		point = (point << 6) | (next & 0x3f);
	}
	if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return undefined;
	return { character: String.fromCodePoint(point), length: 3 * bytes };
}

/** The JSON escape at `at` (`\"`, `\u00df`, in either case), and how many characters of the text it takes. */
function jsonCharacter(text: string, at: number): { character: string; length: number } | undefined {
	if (text[at] !== '\\') return undefined;
	const letter = text[at + 1]?.toLowerCase() ?? '';
	if (letter === 'u') {
		const unit = hexAt(text, at + 2, 4);
		return unit < 0 ? undefined : { character: String.fromCharCode(unit), length: 6 };
	}
	const character = JSON_ESCAPES[text[at + 1] ?? ''] ?? JSON_ESCAPES[letter];
	return character === undefined ? undefined : { character, length: 2 };
}

type Decoding = { json: boolean; percent: boolean; plus: boolean };

/** The text read back as `how` decodes it, each unit mapped to the span it came from (a decoded view's spans compose). */
function decoded(view: View, how: Decoding): View {
	const out = { text: '', start: [] as number[], end: [] as number[] };
	const { text } = view;
	for (let at = 0; at < text.length;) {
		const read =
			(how.json ? jsonCharacter(text, at) : undefined) ??
			(how.percent ? percentCharacter(text, at) : undefined) ??
			(how.plus && text[at] === '+' ? { character: ' ', length: 1 } : { character: text[at], length: 1 });
		for (let unit = 0; unit < read.character.length; unit++) {
			out.start.push(startOf(view, at));
			out.end.push(endOf(view, at + read.length - 1));
		}
		out.text += read.character;
		at += read.length;
	}
	return out;
}

/** A character beyond ASCII: text without one folds unit for unit, as toLowerCase() writes it. */
const NOT_ASCII = /[\u0080-\uffff]/;

/**
 * Each character folded, each folded unit keeping the span of the character it came from. ASCII text is folded
 * whole, unit for unit: folding it character by character made a log line of a forged body's field names cost
 * more than checking its signature.
 */
function folded(view: View): View {
	if (!NOT_ASCII.test(view.text)) return { ...view, text: view.text.toLowerCase() };
	const out = { text: '', start: [] as number[], end: [] as number[] };
	let index = 0;
	for (const character of view.text) {
		const fold = character.toLowerCase().toUpperCase().toLowerCase();
		const [start, end] = [startOf(view, index), endOf(view, index + character.length - 1)];
		for (let unit = 0; unit < fold.length; unit++) {
			out.start.push(start);
			out.end.push(end);
		}
		out.text += fold;
		index += character.length;
	}
	return out;
}

/** The folded views of a text a secret is looked for in: as received, and decoded each way a reader could. */
function viewsOf(text: string): View[] {
	const raw: View = { text };
	const views = [raw];
	const json = text.includes('\\');
	if (json) views.push(decoded(raw, { json, percent: false, plus: false }));
	if (text.includes('%') || text.includes('+')) {
		views.push(decoded(raw, { json, percent: true, plus: true }));
		if (text.includes('+')) views.push(decoded(raw, { json, percent: true, plus: false }));
	}
	return views.map(folded);
}

/**
 * Each secret folded once, not once per text: a log line redacts each value it shows apart, and folding 19 secrets
 * for each field name of a forged body cost more than the rest of its refusal. Bounded, as credentials change.
 */
const forms = new Map<string, string>();
function formOf(secret: string): string {
	let form = forms.get(secret);
	if (form !== undefined) return form;
	if (forms.size >= 256) forms.clear();
	form = folded({ text: secret }).text;
	forms.set(secret, form);
	return form;
}

/** Every stretch of the text that is part of an echo of one of the secrets, in any form and case, overlapping ones merged. */
function secretStretches(text: string, secrets: readonly string[]): Array<[number, number]> {
	const found: Array<[number, number]> = [];
	const views = viewsOf(text);
	for (const secret of secrets) {
		const form = formOf(secret);
		for (const view of views)
			for (let at = view.text.indexOf(form); at >= 0; at = view.text.indexOf(form, at + 1))
				found.push([startOf(view, at), endOf(view, at + form.length - 1)]);
	}
	found.sort((a, b) => a[0] - b[0]);
	const stretches: Array<[number, number]> = [];
	for (const [start, end] of found) {
		const last = stretches[stretches.length - 1];
		if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
		else stretches.push([start, end]);
	}
	return stretches;
}

function withoutSecrets(text: string, secrets: readonly string[]): string {
	let out = '';
	let from = 0;
	for (const [start, end] of secretStretches(text, secrets)) {
		out += `${text.slice(from, start)}${REDACTED}`;
		from = end;
	}
	return out + text.slice(from);
}

/** The credential's secrets, longest first, so that a secret holding another is removed whole. */
function secretList(secrets: string | readonly string[]): string[] {
	const list = typeof secrets === 'string' ? [secrets] : [...secrets];
	return list.filter((secret) => secret !== '').sort((a, b) => b.length - a.length);
}

/**
 * A gateway's text without the credential's secrets (every occurrence of each, in any case; a credential with
 * several App IDs has one per App ID) and without any `key=` tail. Should what is left still hold a secret (one
 * so short that the text around a replacement spells it again), nothing of the text is kept.
 */
export function redactText(text: string, secrets: string | readonly string[]): string {
	const list = secretList(secrets);
	const redacted = (list.length > 0 ? withoutSecrets(text, list) : text).replace(
		KEY_TAIL,
		(tail) => `${tail.slice(0, 4)}${REDACTED}`,
	);
	if (list.length === 0 || secretStretches(redacted, list).length === 0) return redacted;
	return secretStretches(REDACTED, list).length > 0 ? '' : REDACTED;
}

/** A gateway's value with every text in it redacted, member names included, at any depth (up to MAX_DEPTH). */
export function redactValue(value: unknown, secrets: string | readonly string[], depth = 0): unknown {
	if (typeof value === 'string') return redactText(value, secrets);
	if (value === null || typeof value !== 'object') return value;
	if (depth >= MAX_DEPTH) return REDACTED;
	if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
	return Object.fromEntries(
		Object.entries(value).map(([name, member]) => [redactText(name, secrets), redactValue(member, secrets, depth + 1)]),
	);
}
