/**
 * The pieces behind the guards of test/integration/guards.cases.ts, at their edges: what redaction leaves of a
 * gateway's text, which numbers of Extra Fields (JSON) would not reach the gateway as written, and which array
 * elements are ambiguous under the Java-list array style.
 */
import { inexactNumbersInObject, inexactNumbersInText } from '../../nodes/HaiPay/validation/numbers';
import { REDACTED, redactText, redactValue } from '../../nodes/shared/gateway/redact';
import { ambiguityOf, canonicalFields } from '../../nodes/shared/signing/canonical';

describe('redactText', () => {
	const secret = 'S3cr3t-K3y-0001';

	it('removes every occurrence of the secret and keeps the rest', () => {
		expect(redactText(`a ${secret} b ${secret}`, secret)).toBe(`a ${REDACTED} b ${REDACTED}`);
	});

	it('removes a key= tail up to the next &, whatever its case, and keeps what follows', () => {
		expect(redactText('amount=1&key=S3cr3t&orderId=A', secret)).toBe(`amount=1&key=${REDACTED}&orderId=A`);
		expect(redactText('KEY=partial', secret)).toBe(`KEY=${REDACTED}`);
		expect(redactText(`string: a=1&key=${secret}`, secret)).toBe(`string: a=1&key=${REDACTED}`);
	});

	it('leaves base64 that ends in "key=" whole (a voucher sent as a string)', () => {
		const base64 = 'JVBERi0xLjQKmonkey=';
		expect(redactText(base64, secret)).toBe(base64);
	});

	it('removes overlapping occurrences whole', () => {
		expect(redactText('abababa', 'aba')).toBe(REDACTED);
	});

	it('keeps nothing when what is left would still spell the secret', () => {
		expect(redactText('[redacted]', 'dac')).toBe('');
		expect(redactText('x]d]d]y', ']d]')).not.toContain(']d]');
	});

	it('removes the secret in any case, and a secret made of pattern characters', () => {
		expect(redactText(`echo ${secret.toUpperCase()} / ${secret.toLowerCase()}`, secret)).toBe(
			`echo ${REDACTED} / ${REDACTED}`,
		);
		expect(redactText('a (x+y)*[z]-^$|/\\.? b', '(x+y)*[z]-^$|/\\.?')).toBe(`a ${REDACTED} b`);
	});

	it('removes nothing but key= tails without a secret', () => {
		expect(redactText('plain words', '')).toBe('plain words');
	});
});

describe('redactValue', () => {
	const secret = 'S3cr3t-K3y-0001';

	it('cleans every text at any depth, member names included, and leaves other values alone', () => {
		const value = { a: 1, b: true, c: null, d: [`x ${secret}`, { [`n${secret}`]: 'key=abc&z=1' }] };
		expect(redactValue(value, secret)).toEqual({
			a: 1,
			b: true,
			c: null,
			d: [`x ${REDACTED}`, { [`n${REDACTED}`]: `key=${REDACTED}&z=1` }],
		});
	});

	it('withholds a value nested deeper than any answer HaiPay gives', () => {
		let deep: unknown = secret;
		for (let level = 0; level < 100; level++) deep = [deep];
		expect(JSON.stringify(redactValue(deep, secret))).not.toContain(secret);
	});
});

describe('inexactNumbersInText', () => {
	const members = (json: string) =>
		inexactNumbersInText(json).map((violation) => violation.message.match(/"([^"]*)"/)?.[1]);

	it.each([
		'0',
		'-3',
		'1.5',
		'0.001',
		'9007199254740993',
		'1e+21',
		'12345678901234567891',
		'1.50',
		'1e3',
		'1E3',
		'-0',
		'100.0',
	])('checks %s against what JavaScript reads', (text) => {
		const expected = String(Number(text)) === text ? 0 : 1;
		expect(inexactNumbersInText(`{"n": ${text}}`)).toHaveLength(expected);
	});

	it('names the top-level member a number is in, nested ones included, and skips digits inside strings', () => {
		const json = '{"a\\"b": "1.50 \\" 1e3", "x": 1.50, "deep": {"y": [1, 2e2]}, "z": "12345678901234567891"}';
		expect(JSON.parse(json)).toBeDefined();
		expect(members(json)).toEqual(['x', 'deep']);
	});

	it('says what the number would become and to send it as a string', () => {
		const [violation] = inexactNumbersInText('{"ref": 12345678901234567891}');
		expect(violation).toMatchObject({ field: 'extraFields', rule: 'number' });
		expect(violation.message).toContain('12345678901234567000');
		expect(violation.message).toContain('send it as a string, "12345678901234567891"');
	});
});

describe('inexactNumbersInObject', () => {
	it('refuses unsafe integers and non-finite numbers, and lets other numbers and texts through', () => {
		const found = inexactNumbersInObject({
			a: 2 ** 53,
			b: Infinity,
			c: NaN,
			d: 2 ** 53 - 1,
			e: 1.5,
			f: '12345678901234567891',
			g: -0,
		});
		expect(found.map((violation) => violation.message.match(/"([^"]*)"/)?.[1])).toEqual(['a', 'b', 'c']);
	});
});

describe('ambiguityOf, array elements under the Java-list style', () => {
	const list = { arrayStyle: 'list' as const };

	it('is why ["HP1, HP2"] is refused: it signs exactly like ["HP1", "HP2"]', () => {
		expect(canonicalFields({ orderNos: ['HP1, HP2'] }, list)).toBe(canonicalFields({ orderNos: ['HP1', 'HP2'] }, list));
		expect(ambiguityOf({ orderNos: ['HP1, HP2'] }, list)).toEqual({
			field: 'orderNos',
			part: 'value',
			character: ',',
			inListElement: true,
		});
		expect(ambiguityOf({ orderNos: ['HP1', 'HP2'] }, list)).toBeUndefined();
	});

	it.each([
		['[', ['[HP1']],
		[']', ['HP1]']],
		['U+0020', ['HP1 ']],
		['U+3000', ['HP1\u3000HP2']],
		[',', [{ a: 1, b: 2 }]],
		['[', [['HP1']]],
	])('names %s', (character, orderNos) => {
		expect(ambiguityOf({ orderNos }, list)).toMatchObject({ field: 'orderNos', character });
	});

	it('leaves the same elements alone in the JSON style, and plain numbers in either', () => {
		expect(ambiguityOf({ orderNos: ['HP1, HP2', '[x]', 'a b'] }, { arrayStyle: 'json' })).toBeUndefined();
		expect(ambiguityOf({ orderNos: [1, 2] }, list)).toBeUndefined();
	});

	it('still refuses & and = first, as separators of the fields', () => {
		expect(ambiguityOf({ orderNos: ['HP1&x=1, y'] }, list)).toMatchObject({ character: '&' });
		expect(ambiguityOf({ orderNos: ['HP1&x=1, y'] }, list)?.inListElement).toBeUndefined();
	});
});
