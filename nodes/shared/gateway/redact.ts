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
 * A gateway may echo a secret as it is, URL-encoded (a query string: `%C3%9F`, `+` for a space), JSON-escaped (`\"`,
 * `\u00df`), and in another case, including full case mapping (`ß` upper-cased is `SS`). Each form is looked for in a
 * folded copy of the text (every character lower-, upper-, then lower-cased: `ẞ`, `ß` and `SS` meet), mapped back to the characters received.
 */

/** Each character of the text folded, with the index in the text where each folded unit came from. */
function folded(text: string): { text: string; from: number[] } {
	let out = '';
	const from: number[] = [];
	let index = 0;
	for (const character of text) {
		const fold = character.toLowerCase().toUpperCase().toLowerCase();
		out += fold;
		for (let unit = 0; unit < fold.length; unit++) from.push(index);
		index += character.length;
	}
	from.push(index);
	return { text: out, from };
}

function jsonEscaped(secret: string, asciiOnly: boolean): string {
	const escaped = JSON.stringify(secret).slice(1, -1);
	return asciiOnly
		? escaped.replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
		: escaped;
}

/** The forms in which a gateway may echo the secret, folded, each once. */
function echoedForms(secret: string): string[] {
	const component = encodeURIComponent(secret);
	const forms = [
		secret,
		component,
		component.replace(/%20/g, '+'),
		jsonEscaped(secret, false),
		jsonEscaped(secret, true),
	];
	return [...new Set(forms.map((form) => folded(form).text))];
}

/** Every stretch of the text that is part of an echo of the secret, in any form and case, overlapping ones merged. */
function secretStretches(text: string, secret: string): Array<[number, number]> {
	const fold = folded(text);
	const found: Array<[number, number]> = [];
	for (const form of echoedForms(secret)) {
		for (let at = fold.text.indexOf(form); at >= 0; at = fold.text.indexOf(form, at + 1)) {
			// A match that starts or ends inside a character's folding (`S` of `ß`) takes the whole character.
			const end = fold.from[at + form.length - 1];
			found.push([fold.from[at], end + ((text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1)]);
		}
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

function withoutSecret(text: string, secret: string): string {
	if (secret === '') return text;
	let out = '';
	let from = 0;
	for (const [start, end] of secretStretches(text, secret)) {
		out += `${text.slice(from, start)}${REDACTED}`;
		from = end;
	}
	return out + text.slice(from);
}

/** Whether the text holds the secret, in any form and case. */
function holds(text: string, secret: string): boolean {
	return secret !== '' && secretStretches(text, secret).length > 0;
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
	const redacted = list
		.reduce((kept, secret) => withoutSecret(kept, secret), text)
		.replace(KEY_TAIL, (tail) => `${tail.slice(0, 4)}${REDACTED}`);
	if (!list.some((secret) => holds(redacted, secret))) return redacted;
	return list.some((secret) => holds(REDACTED, secret)) ? '' : REDACTED;
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
