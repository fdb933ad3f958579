/**
 * The credential's secret key out of what a gateway says. A gateway that echoes its string to sign
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

/** Every stretch of the text that is part of an occurrence of the secret, overlapping ones merged. */
function secretStretches(text: string, secret: string): Array<[number, number]> {
	const stretches: Array<[number, number]> = [];
	for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
		const last = stretches[stretches.length - 1];
		if (last !== undefined && at <= last[1]) last[1] = at + secret.length;
		else stretches.push([at, at + secret.length]);
	}
	return stretches;
}

function withoutSecret(text: string, secret: string): string {
	if (secret === '' || !text.includes(secret)) return text;
	let out = '';
	let from = 0;
	for (const [start, end] of secretStretches(text, secret)) {
		out += `${text.slice(from, start)}${REDACTED}`;
		from = end;
	}
	return out + text.slice(from);
}

/**
 * A gateway's text without the secret (every occurrence, when the credential has one) and without any `key=`
 * tail. Should what is left still hold the secret (one so short that the text around a replacement spells it
 * again), nothing of the text is kept.
 */
export function redactText(text: string, secretKey: string): string {
	const redacted = withoutSecret(text, secretKey).replace(KEY_TAIL, (tail) => `${tail.slice(0, 4)}${REDACTED}`);
	if (secretKey === '' || !redacted.includes(secretKey)) return redacted;
	return REDACTED.includes(secretKey) ? '' : REDACTED;
}

/** A gateway's value with every text in it redacted, member names included, at any depth (up to MAX_DEPTH). */
export function redactValue(value: unknown, secretKey: string, depth = 0): unknown {
	if (typeof value === 'string') return redactText(value, secretKey);
	if (value === null || typeof value !== 'object') return value;
	if (depth >= MAX_DEPTH) return REDACTED;
	if (Array.isArray(value)) return value.map((item) => redactValue(item, secretKey, depth + 1));
	return Object.fromEntries(
		Object.entries(value).map(([name, member]) => [redactText(name, secretKey), redactValue(member, secretKey, depth + 1)]),
	);
}
