/**
 * A subscription's recurring charges reaching the trigger in n8n: a signed charge is emitted once as kind
 * "subscription" (never a payout), each charge its own result, its status read as a card collection order's; a payouts-only or subscriptions-only trigger filters
 * by what the body names; with Confirm With HaiPay a charge is answered 503, since no published query shows one.
 */
import type { IDataObject } from 'n8n-workflow';

import { APP_IDS } from '../fixtures/bodies';
import type { WebhookServer } from '../harness';
import { signedByPlatform } from './callbacks';
import { TRIGGER, usdTriggerPerDescribe } from './usd-trigger';

const SECRET = 'test-only-secret-usd';

function charge(overrides: IDataObject = {}): Record<string, unknown> {
	const body = {
		appId: APP_IDS.USD,
		currency: 'USD',
		subscriptionNo: 'S100',
		subscriptionOrderId: 'SUB-1',
		orderNo: 'S100-1',
		amount: '9.99',
		status: 2,
		payTime: '2026-01-01 00:00:00',
		...overrides,
	};
	return signedByPlatform(body, SECRET);
}

describe('subscription charges reaching the trigger in n8n', () => {
	const serve = usdTriggerPerDescribe().serve;
	let server: WebhookServer;

	it('runs once per charge as kind "subscription", its status labelled as an order\'s; a resend of a charge is a repeat', async () => {
		server = await serve({ kind: 'subscription' });
		expect((await server.send(TRIGGER, charge())).text).toBe('SUCCESS');
		expect((await server.send(TRIGGER, charge())).text).toBe('SUCCESS');
		expect((await server.send(TRIGGER, charge({ orderNo: 'S100-2', payTime: '2026-02-01 00:00:00' }))).text).toBe(
			'SUCCESS',
		);
		expect(server.executions.map((execution) => execution.items[0].json.orderNo)).toEqual(['S100-1', 'S100-2']);
		expect(server.executions[0].items[0].json).toMatchObject({
			kind: 'subscription',
			subscriptionNo: 'S100',
			statusLabel: 'success',
			statusGroup: 'success',
			unknownFields: [],
			verified: true,
		});
	});

	it('books a paid charge as paid and a failed one as failed: Statuses filters charges as it filters orders', async () => {
		server = await serve({ kind: 'subscription', statuses: ['success'] });
		expect((await server.send(TRIGGER, charge({ orderNo: 'S200-1' }))).text).toBe('SUCCESS');
		expect((await server.send(TRIGGER, charge({ orderNo: 'S200-2', status: 3 }))).text).toBe('SUCCESS');
		expect(server.executions.map((execution) => execution.items[0].json.orderNo)).toEqual(['S200-1']);
		await server.close();
		server = await serve({ kind: 'subscription' });
		await server.send(TRIGGER, charge({ orderNo: 'S200-3', status: 3 }));
		await server.send(TRIGGER, charge({ orderNo: 'S200-4', status: 'ACTIVE' }));
		expect(server.executions.map((execution) => execution.items[0].json)).toMatchObject([
			{ orderNo: 'S200-3', statusLabel: 'failed', statusGroup: 'failed' },
			// A status that states no integer keeps no label, as on any order.
			{ orderNo: 'S200-4', statusLabel: null, statusGroup: 'unknown' },
		]);
	});

	it('a payouts-only trigger acknowledges a charge without a run; a subscriptions-only one a payout result', async () => {
		server = await serve({ kind: 'payout' });
		expect((await server.send(TRIGGER, charge())).text).toBe('SUCCESS');
		expect(server.executions).toHaveLength(0);
		await server.close();
		server = await serve({ kind: 'subscription' });
		const payout = signedByPlatform(
			{ appId: APP_IDS.USD, currency: 'USD', orderId: 'P-1', orderNo: 'HP-1', amount: '9.99', status: 2 },
			SECRET,
		);
		expect((await server.send(TRIGGER, payout)).text).toBe('SUCCESS');
		expect(server.executions).toHaveLength(0);
	});

	it('with Confirm With HaiPay a verified charge runs once, flagged unconfirmed: no published query shows a charge, and waiting would lose it', async () => {
		server = await serve({ kind: 'subscription', options: { confirmWithHaiPay: true } });
		const body = charge({ orderNo: 'S100-9' });
		const reply = await server.send(TRIGGER, body);
		expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
		expect(server.executions).toHaveLength(1);
		expect(server.executions[0].items[0].json).toMatchObject({
			kind: 'subscription',
			confirmed: false,
			orderNo: 'S100-9',
		});
		// The item says why, and that a replay after the Repeat Window would look the same (issue: replays of what
		// HaiPay cannot confirm).
		const why = String(server.executions[0].items[0].json.unconfirmedWhy);
		expect(why).toMatch(/no query that shows a subscription charge/);
		expect(why).toMatch(/sent again after the Repeat Window would look the same: to act once, claim dedupKey/);
		expect((await server.send(TRIGGER, body)).text).toBe('SUCCESS');
		expect(server.executions).toHaveLength(1);
	});

	it('with Confirm With HaiPay a forged charge is still refused: the signature is the proof', async () => {
		server = await serve({ kind: 'subscription', options: { confirmWithHaiPay: true } });
		const forged = { ...charge({ orderNo: 'S100-10' }), amount: '999.99' };
		expect((await server.send(TRIGGER, forged)).status).toBe(401);
		expect(server.executions).toHaveLength(0);
	});
});
