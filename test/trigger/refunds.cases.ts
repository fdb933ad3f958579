/**
 * Refund-shaped callbacks. HaiPay documents no refund callback (docs/haipay-facts.md, "Card refunds"); a body that
 * names a refund (`refundNo`) is never reported as a payment: a payouts-only trigger acknowledges it without a run,
 * the others refuse it (422) unless Confirm With HaiPay finds the refund with that status through the refund query,
 * and it is then emitted as kind "refund", its status unlabelled, keyed on its own refund number.
 */
import type { IDataObject } from 'n8n-workflow';

import { repeatKeys } from '../../nodes/HaiPayTrigger/keys';
import { finalBefore } from '../../nodes/HaiPayTrigger/memory';
import { filteredOutBy, kindOf } from '../../nodes/HaiPayTrigger/filters';
import type { Refund, Sandbox } from '../../sandbox';
import { signBody, loadPrivateKey } from '../../sandbox/signing';
import { APP_IDS, mitBody } from '../fixtures/bodies';
import type { WebhookServer } from '../harness';
import { TEST_KEYS } from '../helpers/keys';
import { signedByPlatform } from './callbacks';
import { TRIGGER, usdTriggerPerDescribe } from './usd-trigger';

const SECRET = 'test-only-secret-usd';

function refundCallback(overrides: IDataObject = {}): IDataObject {
	return {
		appId: APP_IDS.USD,
		currency: 'USD',
		orderId: 'RF-1',
		orderNo: 'HP-PAID-1',
		refundNo: 'RF0001',
		amount: '25.00',
		status: 2,
		...overrides,
	};
}

describe('what a refund-shaped body is', () => {
	it.each(['payout', 'collection', 'either'] as const)('is kind refund under the setting %s', (setting) => {
		expect(kindOf(refundCallback(), setting)).toBe('refund');
		expect(kindOf(refundCallback({ refundNo: '' }), setting)).not.toBe('refund');
	});

	it('is acknowledged by a payouts-only trigger, and is none of the payment statuses', () => {
		expect(filteredOutBy(refundCallback(), { kind: 'payout', statuses: ['any'], currency: '' }, 'USD')).toContain(
			'names a refund',
		);
		expect(
			filteredOutBy(refundCallback({ status: 2 }), { kind: 'either', statuses: ['success'], currency: '' }, 'USD'),
		).toContain('is not one of the selected statuses');
		expect(
			filteredOutBy(refundCallback({ status: 2 }), { kind: 'either', statuses: ['other'], currency: '' }, 'USD'),
		).toBeUndefined();
	});

	it("is keyed on its refund number, so the payment's own results neither repeat nor overrule it", () => {
		const dedupKey = (body: Record<string, unknown>) => repeatKeys(body).dedupKey;
		const payment = { orderId: 'MIT-1', orderNo: 'HP-PAID-1', status: 2 };
		expect(dedupKey(refundCallback())).toBe('refund:RF0001|2');
		expect(dedupKey(refundCallback())).not.toBe(dedupKey(payment));
		const recalled = new Set([dedupKey(payment)]);
		expect(finalBefore((key) => recalled.has(key), repeatKeys(refundCallback({ status: 1 })))).toBeUndefined();
		expect(
			finalBefore((key) => recalled.has(key) || key === 'refund:RF0001|2', repeatKeys(refundCallback({ status: 1 }))),
		).toBeUndefined();
	});
});

describe('refund-shaped callbacks reaching the trigger in n8n', () => {
	const usd = usdTriggerPerDescribe();
	const serve = usd.serve;
	let sandbox: Sandbox;
	let server: WebhookServer;

	beforeAll(() => {
		sandbox = usd.sandbox();
	});

	let sequence = 0;
	/** A paid USD card collection and a refund of it, made through the sandbox's own HTTP API. */
	async function refundInSandbox(): Promise<Refund> {
		sequence += 1;
		const key = loadPrivateKey(TEST_KEYS.merchantPkcs8);
		const post = async (path: string, body: Record<string, unknown>) => {
			const response = await fetch(`${sandbox.baseUrl}${path}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ ...body, sign: signBody(body, SECRET, key, 'json') }),
			});
			return ((await response.json()) as { data: IDataObject }).data;
		};
		const collection = await post('/usd/mit/apply', mitBody(`MIT-RFCB-${process.pid}-${sequence}`));
		sandbox.control.payCashier(String(collection.orderNo), 'pay');
		const made = await post('/usd/refund/apply', {
			appId: APP_IDS.USD,
			orderId: `RF-CB-${process.pid}-${sequence}`,
			orderNo: collection.orderNo,
		});
		return sandbox.control.refund(String(made.refundNo)) as Refund;
	}

	function callbackOf(refund: Refund, overrides: IDataObject = {}): Record<string, unknown> {
		const body = refundCallback({
			orderId: refund.orderId,
			orderNo: refund.orderNo,
			refundNo: refund.refundNo,
			amount: refund.amount,
			status: refund.status,
			...overrides,
		});
		return signedByPlatform(body, SECRET);
	}

	/** Delivers the refund's callback, answered SUCCESS, into its one execution; the item that execution got. */
	async function runsOnce(refund: Refund): Promise<IDataObject> {
		expect((await server.send(TRIGGER, callbackOf(refund))).text).toBe('SUCCESS');
		expect(server.executions).toHaveLength(1);
		return server.executions[0].items[0].json;
	}

	it('a payouts-only trigger answers SUCCESS and starts nothing', async () => {
		server = await serve({ kind: 'payout' });
		const reply = await server.send(TRIGGER, callbackOf(await refundInSandbox()));
		expect(reply.text).toBe('SUCCESS');
		expect(server.executions).toHaveLength(0);
	});

	it('without Confirm With HaiPay it runs once as a refund (never as a payment), refundNo named as a field HaiPay was not known to send', async () => {
		server = await serve({ kind: 'either' });
		const refund = await refundInSandbox();
		expect(await runsOnce(refund)).toMatchObject({
			kind: 'refund',
			refundNo: refund.refundNo,
			statusLabel: null,
			statusGroup: 'unknown',
			unknownFields: ['refundNo'],
			dedupKey: `refund:${refund.refundNo}|~PROCESSING`,
		});
		expect(server.executions[0].items[0].json).not.toHaveProperty('confirmed');
		// HaiPay's resend: acknowledged, still the one run.
		await runsOnce(refund);
	});

	it('with Confirm With HaiPay, the refund query showing that status: one run, kind refund, status unlabelled', async () => {
		server = await serve({ kind: 'collection', options: { confirmWithHaiPay: true } });
		const refund = await refundInSandbox();
		expect(await runsOnce(refund)).toMatchObject({
			kind: 'refund',
			refundNo: refund.refundNo,
			orderId: refund.orderId,
			status: 'PROCESSING',
			statusLabel: null,
			statusGroup: 'unknown',
			confirmed: true,
			dedupKey: `refund:${refund.refundNo}|~PROCESSING`,
		});
		expect(sandbox.requests.filter((request) => request.path === '/usd/refund/refundQuery')).not.toHaveLength(0);
		expect(
			sandbox.requests.filter((request) => request.path === '/usd/collect/query' && request.orderId === refund.orderId),
		).toHaveLength(0);

		// HaiPay's resend: acknowledged, still the one run.
		await runsOnce(refund);
	});

	it("with Confirm With HaiPay, another status than HaiPay's: 503 (HaiPay resends), no run", async () => {
		server = await serve({ kind: 'either', options: { confirmWithHaiPay: true } });
		const reply = await server.send(TRIGGER, callbackOf(await refundInSandbox(), { status: 'SUCCESS' }));
		expect(reply.status).toBe(503);
		expect(server.executions).toHaveLength(0);
	});

	it('with Confirm With HaiPay, a refund HaiPay does not have: 503, no run', async () => {
		server = await serve({ kind: 'either', options: { confirmWithHaiPay: true } });
		const reply = await server.send(
			TRIGGER,
			signedByPlatform(
				refundCallback({ refundNo: 'RF-NOT-THERE', orderId: 'RF-NOT-THERE', status: 'SUCCESS' }),
				SECRET,
			),
		);
		expect(reply.status).toBe(503);
		expect(server.executions).toHaveLength(0);
	});
});
