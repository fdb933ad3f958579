/**
 * What the HaiPay Trigger makes of a verified callback's fields, over real HTTP into n8n-core's webhook machinery:
 * free text with another reading runs once, named; a deciding field in doubt is settled only by HaiPay's query
 * (here a gateway that cannot be reached, so 503 and HaiPay resends); a name no HaiPay field has is refused; and no
 * secret of the credential reaches an item, whatever a callback echoes.
 */
import { AMBIGUOUS, NOT_YET } from '../../nodes/HaiPayTrigger/reply';
import { canonicalString } from '../../nodes/shared/signing/canonical';
import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import type { WebhookServer } from '../harness';
import { sandboxCredential } from '../helpers/credentials';
import {
	credentials,
	deliver,
	expectEmitted,
	freshOrder,
	payoutCallback,
	SECRET,
	serveTrigger,
	sharedTriggers,
	signedByPlatform,
	TRIGGER,
} from './callbacks';

const trigger = sharedTriggers();

/** A failed payout of an order of its own, with HaiPay's reason. */
function failed(errorMsg: string, overrides: Record<string, unknown> = {}) {
	return payoutCallback({ ...freshOrder(), status: 3, payTime: '', errorMsg, ...overrides });
}

describe('HaiPay Trigger: free text that could end in other fields', () => {
	it.each([
		'Account name & number mismatch',
		'code=51 & account closed',
		'a&b',
		'x=y',
		'line one\nline two\ttab',
		'x&amount=5',
	])('runs a callback whose errorMsg is %j once, with nothing flagged', async (errorMsg) => {
		const json = expectEmitted(await deliver(await trigger({ kind: 'payout' }), signedByPlatform(failed(errorMsg))));
		expect(json).toMatchObject({ errorMsg, status: 3, ambiguousText: [], unknownFields: [] });
	});

	it('runs a callback whose errorMsg could end in another field once, naming errorMsg; unconfirmed', async () => {
		const body = signedByPlatform(failed('declined&errorNote=call the bank'));
		const json = expectEmitted(await deliver(await trigger({ kind: 'payout' }), body));
		expect(json).toMatchObject({
			errorMsg: 'declined&errorNote=call the bank',
			ambiguousText: ['errorMsg'],
			verified: true,
		});
		expect(json).not.toHaveProperty('confirmed');
	});
});

describe('HaiPay Trigger: a field that decides what a run acts on, in doubt', () => {
	// The credential's gateway cannot be reached: HaiPay's query gives no answer, so nothing is settled.
	const unreachable = credentials({ baseUrl: 'http://127.0.0.1:9' });

	it.each([
		[
			'orderId',
			{ orderId: 'PO-X&orderNo=HP-EVIL', orderNo: undefined },
			/orderId could be read as that field cut short plus orderNo/,
		],
		[
			'currency',
			{ currency: 'TZS&fee=0.00', fee: undefined },
			/currency could be read as that field cut short plus fee/,
		],
		[
			'bankName',
			{ currency: undefined, bankName: 'CRDB&currency=USD' },
			/bankName could be read as ending in a field currency/,
		],
		[
			'payTime',
			{ payTime: '2024-05-01&refundNo=R1', errorMsg: '' },
			/payTime could be read as ending in a field refundNo/,
		],
	])(
		"is settled by HaiPay's query even with Confirm With HaiPay off: %s; no answer, so 503 and no run",
		async (_name, overrides, why) => {
			const body = signedByPlatform(payoutCallback({ ...freshOrder(), ...overrides }));
			const outcome = await deliver(await trigger({ kind: 'payout' }, unreachable), body);
			expect([outcome.reply.status, outcome.reply.text]).toEqual([503, NOT_YET]);
			expect(outcome.executions).toHaveLength(0);
			const warning = outcome.logs.find((line) => line.level === 'warn' && line.message.includes('503'))?.message;
			expect(warning).toMatch(why);
			expect(warning).toMatch(
				/HaiPay's order query decides: (HaiPay's (order|refund) query could not confirm it|its currency "?TZS&FEE=0.00"? is no currency code)/,
			);
		},
	);

	it('is not in doubt when the split name sorts outside its place: runs once', async () => {
		// `orderNo` sorts after `orderId`, so errorMsg (before orderId) could never have held it.
		const body = signedByPlatform(failed('x&orderNo=HP-EVIL', { orderNo: undefined }));
		expect(expectEmitted(await deliver(await trigger({ kind: 'payout' }, unreachable), body))).toMatchObject({
			ambiguousText: [],
			dedupKey: expect.stringMatching(/^id:/),
		});
	});
});

describe('HaiPay Trigger: names no HaiPay field has', () => {
	it.each([['a&b'], ['status=2'], [''], ['x\ny']])(
		'refuses a signed field named %j with 422 on every delivery, and says why',
		async (name) => {
			const body = signedByPlatform(payoutCallback({ ...freshOrder(), [name]: '1' }));
			const server = await trigger({ kind: 'payout', options: { confirmWithHaiPay: true } });
			for (const attempt of [1, 2]) {
				const outcome = await deliver(server, body);
				expect([outcome.reply.status, outcome.reply.text, attempt]).toEqual([422, AMBIGUOUS, attempt]);
				expect(outcome.executions).toHaveLength(0);
				expect(outcome.logs.find((line) => line.level === 'warn')?.message).toMatch(/no HaiPay field has such a name/);
			}
		},
	);
});

describe('HaiPay Trigger: secrets a callback echoes', () => {
	const ZAR_SECRET = 'test-only-secret-zar-ß';
	const both = credentials({ otherCurrencies: ['ZAR'], appIdZar: 1002, secretKeyZar: ZAR_SECRET });

	it("never reach the item or rawBody: its own App ID's secret, another's, in any case, and a key= tail", async () => {
		const echoed = `declined (other ${ZAR_SECRET.toUpperCase()}): sign string was amount=1&key=${SECRET.toUpperCase()}`;
		const body = signedByPlatform(failed(echoed, { [`note_${SECRET}`]: SECRET }));
		expect(canonicalString(body, SECRET)).toContain(SECRET);
		const outcome = await deliver(await trigger({ kind: 'payout', options: { includeRawBody: true } }, both), body);
		const json = expectEmitted(outcome);
		const text = JSON.stringify(outcome.items);
		for (const secret of [SECRET, ZAR_SECRET]) expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
		expect(json.errorMsg).toBe('declined (other [redacted]): sign string was amount=1&key=[redacted]');
		expect(json).toMatchObject({ 'note_[redacted]': '[redacted]', unknownFields: ['note_[redacted]'], verified: true });
		expect(String(json.rawBody)).toContain('[redacted]');
	});
});

describe('HaiPay Trigger: callbacks of a HaiPay that added a field, from the sandbox gateway', () => {
	let sandbox: Sandbox;
	let server: WebhookServer;
	beforeAll(async () => {
		sandbox = await startSandbox({ manual: true, callbackSchedule: [100, 100], callbackTimeoutMs: 10_000 });
		server = await serveTrigger({ kind: 'payout' }, sandboxCredential(sandbox, APP_IDS.TZS));
	});
	afterAll(async () => {
		await server.close();
		await sandbox.close();
	});

	it.each([
		['an added field', 'success', undefined],
		['bank text holding " & "', 'failed', 'Account name & number mismatch'],
	] as const)(
		'%s: the genuine callback starts exactly one execution, answered SUCCESS on its first attempt',
		async (_case, outcome, errorMsg) => {
			sandbox.control.setAddedCallbackFields({ channelRef: 'CRDB-7781', settledVia: 'RTGS' });
			const order = sandbox.control.createOrder({
				appId: APP_IDS.TZS,
				kind: 'payout',
				orderId: `ADD-${Date.now()}-${outcome}`,
				amount: '1500',
				notifyUrl: server.url(TRIGGER),
			});
			sandbox.control.settle(order.orderNo, outcome, { errorMsg });
			const attempt = await sandbox.waitForCallback((each) => each.orderNo === order.orderNo && each.last, 10_000);
			await server.idle();
			expect(attempt).toMatchObject({ attempt: 1, acknowledged: true, response: 'SUCCESS' });
			expect(attempt.body).toMatchObject({ channelRef: 'CRDB-7781', settledVia: 'RTGS' });
			const runs = server.executions.filter((execution) => execution.items[0].json.orderNo === order.orderNo);
			expect(runs).toHaveLength(1);
			expect(runs[0].items[0].json).toMatchObject({
				channelRef: 'CRDB-7781',
				unknownFields: ['channelRef', 'settledVia'],
				ambiguousText: [],
				verified: true,
			});
			if (errorMsg !== undefined) expect(runs[0].items[0].json.errorMsg).toBe(errorMsg);
		},
	);

	it('refuses to add a field no HaiPay field could be named, or an empty one', () => {
		expect(() => sandbox.control.setAddedCallbackFields({ 'a&b': 'x' })).toThrow(/not a field name/);
		expect(() => sandbox.control.setAddedCallbackFields({ sign: 'x' })).toThrow(/not a field name/);
		expect(() => sandbox.control.setAddedCallbackFields({ note: '' })).toThrow(/needs a text value/);
		expect(sandbox.control.setAddedCallbackFields({})).toEqual({});
	});
});
