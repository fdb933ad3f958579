/**
 * The trigger's callback parts on their own, without n8n: the repeat keys and the earlier-status rule, reading the
 * body, the kind and status filters, and what marks a subscription's recurring charge.
 */
import { MAX_BODY_BYTES, MAX_FIELDS, readCallback, redactedText, scanCallback } from '../../nodes/shared/callback/body';
import { repeatKeys } from '../../nodes/HaiPayTrigger/keys';
import { finalBefore } from '../../nodes/HaiPayTrigger/memory';
import { filteredOutBy, kindOf } from '../../nodes/HaiPayTrigger/filters';
import { shown } from '../../nodes/HaiPayTrigger/shown';
import { verifyCallback } from '../../nodes/HaiPayTrigger/verify';
import { settingsFor } from '../../nodes/shared/signing/credential';
import { credentials, payoutCallback, signedByPlatform } from './callbacks';

const dedupKey = (body: Record<string, unknown>) => repeatKeys(body).dedupKey;

describe('repeat keys', () => {
	it('keys on orderNo and status, then orderId, and gives up without either', () => {
		expect(dedupKey({ orderNo: 'N1', orderId: 'I1', status: 2 })).toBe('no:N1|2');
		expect(dedupKey({ orderNo: 'N1', status: '2' })).toBe('no:N1|2');
		expect(dedupKey({ orderId: 'I1', status: 3 })).toBe('id:I1|3');
		expect(dedupKey({ status: 3 })).toBeUndefined();
	});

	it('keys a partial or over-collected result on its amount by value, with two decimals, and its payTime', () => {
		const partial = (amount: unknown, status = 4) => dedupKey({ orderNo: 'N1', status, amount, payTime: 'T' });
		for (const amount of ['10', '10.0', '10.00', 10, ' 010.000 '])
			expect(partial(amount)).toBe('no:N1|4|["10.00","T"]');
		expect(partial('10.01')).toBe('no:N1|4|["10.01","T"]');
		expect(partial('10.001', 5)).toBe('no:N1|5|["10.001","T"]');
		expect([partial('-0.0'), partial('-1.5'), partial('1e1'), partial('')]).toEqual(
			['0.00', '-1.50', '1e1', ''].map((amount) => `no:N1|4|["${amount}","T"]`),
		);
		expect(repeatKeys({ orderNo: 'N1', status: 4, amount: '10' })).toMatchObject({
			finalMark: 'no:N1|4',
			earlier: undefined,
		});
	});

	it('reads an amount or a time only up to its first &, which HaiPay never writes in one', () => {
		const partial = (amount: unknown, payTime = '2024-05-01 10:00:00') =>
			dedupKey({ orderNo: 'N1', status: 4, amount, payTime });
		expect(partial('10.00&note=x')).toBe(partial('10'));
		expect(partial('10', '2024-05-01 10:00:00&payerName=Bob')).toBe(partial('10'));
		expect(partial('10', '2024-05-01 10:00:01')).not.toBe(partial('10'));
		expect(partial('10.01&x')).not.toBe(partial('10'));
	});
});

describe('earlier statuses after a final one', () => {
	const recall = (keys: string[]) => (key: string) => keys.includes(key);

	it("names the final status already emitted for the same order when the callback's status comes before it", () => {
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ orderNo: 'N1', status: 1 }))).toBe(2);
		expect(finalBefore(recall(['no:N1|5']), repeatKeys({ orderNo: 'N1', status: '0' }))).toBe(5);
		expect(finalBefore(recall(['id:I1|3']), repeatKeys({ orderId: 'I1', status: -1 }))).toBe(3);
	});

	it('leaves final statuses, unknown statuses and other orders alone', () => {
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ orderNo: 'N1', status: 3 }))).toBeUndefined();
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ orderNo: 'N1', status: 6 }))).toBeUndefined();
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ orderNo: 'N2', status: 1 }))).toBeUndefined();
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ status: 1 }))).toBeUndefined();
	});
});

describe('body reading', () => {
	const members = (result: ReturnType<typeof readCallback>) =>
		result.ok ? Object.fromEntries(result.body.members.map((member) => [member.name, member.value])) : result.problem;

	it('prefers the raw bytes and refuses anything but one JSON object', () => {
		expect(members(readCallback(Buffer.from('{"a":1}'), { other: true }))).toEqual({ a: '1' });
		for (const text of ['[1]', 'null', '"SUCCESS"', 'a=1', '{"a":1', '{"a":1}x', '{"a":01}', '{"a" 1}', '{a:1}']) {
			expect(members(readCallback(Buffer.from(text), { a: '1' }))).toBe('notJson');
		}
		expect(members(readCallback(undefined, '{"a":1}'))).toEqual({ a: '1' });
		expect(readCallback(undefined, { a: 1 })).toMatchObject({ ok: true, body: { text: '{"a":1}' } });
		expect(members(readCallback(undefined, {}))).toBe('notJson');
		expect(members(readCallback(undefined, undefined))).toBe('notJson');
	});

	it('keeps numbers as the text received and decodes names and strings', () => {
		const text =
			'\ufeff { "orderNo" : 12345678901234567891 , "amount":1.50,"n":-2e3,"\\u0073ign":"x\\"y","o":{"k":[1,{"a":"}"}]},"t":true,"z":null}';
		expect(members(readCallback(Buffer.from(text), undefined))).toEqual({
			orderNo: '12345678901234567891',
			amount: '1.50',
			n: '-2e3',
			sign: 'x"y',
			o: { k: [1, { a: '}' }] },
			t: true,
			z: null,
		});
	});

	it('refuses a name sent twice, too many fields, too deep a value and too many bytes, before anything else', () => {
		expect(readCallback(Buffer.from('{"sign":"a","\\u0073ign":"b"}'), undefined)).toMatchObject({
			ok: false,
			problem: 'duplicateField',
		});
		const many = `{${Array.from({ length: MAX_FIELDS + 1 }, (_, index) => `"f${index}":1`).join(',')}}`;
		expect(readCallback(Buffer.from(many), undefined)).toMatchObject({ ok: false, problem: 'tooManyFields' });
		const fewEnough = `{${Array.from({ length: MAX_FIELDS }, (_, index) => `"f${index}":1`).join(',')}}`;
		expect(readCallback(Buffer.from(fewEnough), undefined).ok).toBe(true);
		expect(readCallback(Buffer.from(`{"a":${'['.repeat(40)}${']'.repeat(40)}}`), undefined)).toMatchObject({
			problem: 'tooManyFields',
		});
		const big = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
		expect(readCallback(big, undefined)).toMatchObject({ ok: false, problem: 'tooLarge' });
		const parsedMany = Object.fromEntries(Array.from({ length: 300_000 }, (_, index) => [`k${index}`, 1]));
		expect(readCallback(undefined, parsedMany)).toMatchObject({ ok: false, problem: 'tooManyFields' });
	});

	it("verifies a genuine callback from n8n's parsed body where a server keeps no raw bytes, and still catches a changed field", async () => {
		// n8n's webhook server always keeps the raw bytes, so no request through it reaches this path: read it here.
		const body = signedByPlatform(payoutCallback());
		const settings = settingsFor(credentials());
		const verdict = async (parsed: unknown) => {
			const scanned = scanCallback(undefined, parsed);
			if (!scanned.ok) throw new Error(scanned.log);
			return await verifyCallback(scanned.body, settings, true);
		};
		expect(await verdict(body)).toMatchObject({ ok: true });
		expect(await verdict({ ...body, status: 3 })).toMatchObject({ ok: false, reason: 'badSignature' });
	});

	it('redacts the top-level sign, whatever the spelling of its name, and nothing else', () => {
		const redact = (text: string) => {
			const result = readCallback(Buffer.from(text), undefined);
			if (!result.ok) throw new Error(result.log);
			return redactedText(result.body);
		};
		expect(redact('{"a":"sign","\\u0073ign" : "AB\\"C==","b":{"sign":"x"}}')).toBe(
			'{"a":"sign","\\u0073ign" : "[redacted]","b":{"sign":"x"}}',
		);
		expect(redact('{"errorMsg":"bad \\"sign\\": \\"x\\""}')).toBe('{"errorMsg":"bad \\"sign\\": \\"x\\""}');
	});
});

describe('filters', () => {
	const any = { kind: 'either' as const, statuses: ['any' as const], currency: '' };

	it('passes everything with no filter set', () => {
		expect(filteredOutBy({ status: 7 }, any, '')).toBeUndefined();
	});

	it('reads the kind from the parameter, or from proof in the body', () => {
		expect(kindOf({}, 'payout')).toBe('payout');
		expect(kindOf({ tokenID: 't' }, 'either')).toBe('collection');
		expect(kindOf({ status: 5 }, 'either')).toBe('collection');
		expect(kindOf({ status: 2 }, 'either')).toBe('unknown');
	});

	it('keeps log values short and on one line', () => {
		expect(shown('a\nb')).toBe('a b');
		expect(shown('x'.repeat(100))).toHaveLength(65);
		expect(shown(2)).toBe('2');
	});
});

describe('subscription results', () => {
	it('a callback naming a subscriptionNo is kind "subscription" whatever the setting, never a payout or a collection', () => {
		const charge = { subscriptionNo: 'S1', orderNo: 'S1-1', status: 2, amount: '9.99' };
		for (const setting of ['payout', 'collection', 'either', 'subscription'] as const)
			expect(kindOf(charge, setting)).toBe('subscription');
		expect(filteredOutBy(charge, { kind: 'payout', statuses: ['any'], currency: '' }, 'USD')).toMatch(/subscription/);
		expect(
			filteredOutBy({ orderNo: 'P1', status: 2 }, { kind: 'subscription', statuses: ['any'], currency: '' }, 'USD'),
		).toMatch(/no subscription/);
	});

	it('each charge of one subscription is its own result in the repeat memory; a resend of one charge is the same', () => {
		const first = repeatKeys({
			subscriptionNo: 'S1',
			orderNo: 'S1-1',
			status: 2,
			amount: '9.99',
			payTime: '2026-01-01 00:00:00',
		});
		const second = repeatKeys({
			subscriptionNo: 'S1',
			orderNo: 'S1-2',
			status: 2,
			amount: '9.99',
			payTime: '2026-02-01 00:00:00',
		});
		const resend = repeatKeys({
			subscriptionNo: 'S1',
			orderNo: 'S1-1',
			status: 2,
			amount: '9.990',
			payTime: '2026-01-01 00:00:00',
		});
		expect(first.dedupKey).toMatch(/^sub:S1\|/);
		expect(second.dedupKey).not.toBe(first.dedupKey);
		expect(resend.dedupKey).toBe(first.dedupKey);
		expect(first.earlier).toBeUndefined();
	});
});
