/**
 * Secrets in every form a gateway echoes them (nodes/shared/gateway/redact.ts): as they are, in another case
 * (full Unicode case mapping: `ß` upper-cased is `SS`), URL-encoded (either hex case, `+` for a space) and
 * JSON-escaped (`\"`, `\u00df`), for secrets drawn from every printable class.
 */
import { REDACTED, redactText, redactValue } from '../../nodes/shared/gateway/redact';

const PUNCTUATION = ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

const SECRETS: Record<string, string> = {
	letters: 'AbCdEfGhSecret',
	digits: '0123456789012',
	punctuation: `k${PUNCTUATION}k`,
	'Latin-1 and sharp s': 'straße-Ünïcødé',
	'Greek with final sigma': 'ΣοφίαςKey',
	'Turkish dotted and dotless i': 'İstanbul-ıi',
	CJK: '秘密の鍵キー',
	'astral (emoji, math letters)': 'key😀𝔘𝔫𝔦',
	'a ligature that upper-cases to two letters': 'ﬁxedﬂow',
};

function jsonEscaped(secret: string, hex: 'lower' | 'upper'): string {
	return JSON.stringify(secret)
		.slice(1, -1)
		.replace(/[^\x20-\x7e]/g, (unit) => {
			const code = unit.charCodeAt(0).toString(16).padStart(4, '0');
			return `\\u${hex === 'upper' ? code.toUpperCase() : code}`;
		});
}

/** Every form a gateway may echo a secret in. */
function echoes(secret: string): Record<string, string> {
	const component = encodeURIComponent(secret);
	return {
		plain: secret,
		'upper case': secret.toUpperCase(),
		'lower case': secret.toLowerCase(),
		'URL-encoded': component,
		'URL-encoded, lower-case hex': component.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
		'form-encoded (+ for a space)': component.replace(/%20/g, '+'),
		'JSON-escaped': JSON.stringify(secret).slice(1, -1),
		'JSON-escaped, \\u lower hex': jsonEscaped(secret, 'lower'),
		'JSON-escaped, \\u upper hex': jsonEscaped(secret, 'upper'),
		'JSON-escaped, upper-cased': jsonEscaped(secret, 'lower').toUpperCase(),
	};
}

describe('redactText: every form of every kind of secret', () => {
	for (const [kind, secret] of Object.entries(SECRETS)) {
		it.each(Object.entries(echoes(secret)))(`${kind}: removes the secret echoed %s`, (_form, echo) => {
			const text = `before «${echo}» after`;
			const redacted = redactText(text, ['another-test-only-secret', secret]);
			expect(redacted).toContain(REDACTED);
			expect(redacted).not.toContain(echo);
			expect(redacted.startsWith('before «')).toBe(true);
			expect(redacted.endsWith('» after')).toBe(true);
		});
	}

	it('keeps text that holds no secret as it is, in every script', () => {
		const text = 'Ödeme reddedildi: hesap kapalı · 口座が閉鎖 · Σφάλμα 😀 key-free';
		expect(redactText(text, Object.values(SECRETS))).toBe(text);
	});

	it('removes a secret split across the folding of one character whole, never half of it', () => {
		// `ß` folds to `ss`: a secret ending in `s` matched against the first half of `ß` takes the whole `ß`.
		expect(redactText('xxGROẞ', 'xxgros')).toBe(REDACTED);
		expect(redactText('a Straße b', 'straße')).toBe(`a ${REDACTED} b`);
		expect(redactText('a STRASSE b', 'straße')).toBe(`a ${REDACTED} b`);
	});

	it('redacts names and values at any depth, in every form', () => {
		const secret = SECRETS['Latin-1 and sharp s'];
		const value = { [encodeURIComponent(secret)]: [{ note: secret.toUpperCase() }], ok: 'fine' };
		expect(redactValue(value, secret)).toEqual({ [REDACTED]: [{ note: REDACTED }], ok: 'fine' });
	});
});

/** Java's URLEncoder: `+` for a space, and `!`, `'`, `(`, `)`, `~` encoded, which encodeURIComponent leaves. */
function javaUrlEncoded(secret: string): string {
	return encodeURIComponent(secret)
		.replace(/[!'()~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
		.replace(/%20/g, '+');
}

/** Every UTF-16 unit as `\uXXXX`, as some JSON writers escape all of a string. */
function allEscaped(secret: string): string {
	return secret
		.split('')
		.map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
		.join('');
}

describe('redactText: any encoder, read back rather than guessed', () => {
	for (const [kind, secret] of Object.entries(SECRETS)) {
		const forms: Record<string, string> = {
			"Java's URLEncoder": javaUrlEncoded(secret),
			'every character \\u-escaped': allEscaped(secret),
			'every character percent-encoded': [...new TextEncoder().encode(secret)]
				.map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
				.join(''),
			'half plain, half encoded': `${secret.slice(0, 3)}${javaUrlEncoded(secret.slice(3))}`,
		};
		it.each(Object.entries(forms))(`${kind}: removes the secret echoed %s`, (_form, echo) => {
			const redacted = redactText(`errorMsg: «${echo}» after`, ['another-test-only-secret', secret]);
			expect(redacted).toBe(`errorMsg: «${REDACTED}» after`);
		});
	}

	it('a JSON-escaped secret in a raw body is found in the text as received', () => {
		const raw = `{"errorMsg":"${allEscaped('raw-secret')}","orderId":"A"}`;
		expect(redactText(raw, 'raw-secret')).toBe(`{"errorMsg":"${REDACTED}","orderId":"A"}`);
	});
});
