/**
 * The pieces behind the guards of test/integration/guards.test.ts, at their edges: what redaction leaves of a
 * gateway's text.
 */
import { REDACTED, redactText, redactValue } from '../../nodes/shared/gateway/redact';

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

	it('removes nothing but key= tails without a secret', () => {
		expect(redactText('plain words', '')).toBe('plain words');
	});
});

describe('redactValue', () => {
	const secret = 'S3cr3t-K3y-0001';

	it('cleans every text at any depth, member names included, and leaves other values alone', () => {
		const value = { a: 1, b: true, c: null, d: [`x ${secret}`, { [`n${secret}`]: 'key=abc&z=1' }] };
		expect(redactValue(value, secret)).toEqual({ a: 1, b: true, c: null, d: [`x ${REDACTED}`, { [`n${REDACTED}`]: `key=${REDACTED}&z=1` }] });
	});

	it('withholds a value nested deeper than any answer HaiPay gives', () => {
		let deep: unknown = secret;
		for (let level = 0; level < 100; level++) deep = [deep];
		expect(JSON.stringify(redactValue(deep, secret))).not.toContain(secret);
	});
});
