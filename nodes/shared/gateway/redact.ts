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

/** Every stretch of the text that is part of an occurrence of the secret, in any case, overlapping ones merged. */
function secretStretches(text: string, secret: string): Array<[number, number]> {
	const escaped = secret.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
	const stretches: Array<[number, number]> = [];
	for (const match of text.matchAll(new RegExp(`(?=(${escaped}))`, 'giu'))) {
		const start = match.index ?? 0;
		const end = start + match[1].length;
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

/** Whether the text holds the secret, in any case. */
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
	const redacted = list.reduce((kept, secret) => withoutSecret(kept, secret), text).replace(KEY_TAIL, (tail) => `${tail.slice(0, 4)}${REDACTED}`);
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
