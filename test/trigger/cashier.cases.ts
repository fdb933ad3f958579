/**
 * Callbacks of HaiPay's global cashier reaching the trigger in n8n. The sandbox makes a cashier order
 * (`/global/cashier/collect/apply`, signed with the Cashier App ID) and posts its genuine callback once the payer paid;
 * the trigger verifies it with the CASHIER App ID's secret, emits it as a collection, filters it by the CASHIER choice
 * on the App ID (never on the body's currency), and under Confirm With HaiPay asks the cashier query, or runs it
 * flagged `confirmed: false` when it lacks the orderNo that query needs. A forged one is still refused.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CASHIER_APP_ID } from '../../sandbox/merchants';
import { APP_IDS } from '../fixtures/bodies';
import type { WebhookServer } from '../harness';
import { rawPost, signed } from '../sandbox/helpers';
import { signedByPlatform } from './callbacks';
import { lastAttempt, nextOrderId, sandboxTrigger, TRIGGER } from './sandbox-trigger';

const [CASHIER_ID] = CASHIER_APP_ID;
const CASHIER_SECRET = 'test-only-secret-cashier';
const TZS_SECRET = 'test-only-secret-tzs';
/** A TZS credential with the Cashier App ID under Other Currencies, as a merchant of both holds it. */
const WITH_CASHIER = { otherCurrencies: ['CASHIER'], appIdCashier: CASHIER_ID, secretKeyCashier: CASHIER_SECRET };
const QUERY = '/global/cashier/collect/query';

describe('global cashier callbacks reaching the trigger in n8n', () => {
	const trigger = sandboxTrigger({ callbackTimeoutMs: 10_000, prefix: 'CASHIER-CB' });
	const serve = async (parameters: INodeParameters = {}) =>
		await trigger.serve(parameters, APP_IDS.TZS, undefined, WITH_CASHIER);

	/** A cashier order made through the sandbox's own endpoint, its result to be posted to `notifyUrl`. */
	async function cashierOrder(notifyUrl: string): Promise<{ orderId: string; orderNo: string }> {
		const orderId = nextOrderId('CASHIER-CB');
		const body = {
			appId: CASHIER_ID,
			orderId,
			name: 'Maria Santos',
			email: 'maria@example.com',
			amount: '19.99',
			currency: 'USD',
			region: 'US',
			callBackUrl: 'https://shop.example/paid',
			callBackFailUrl: 'https://shop.example/failed',
			subject: 'Order 42',
			partnerUserId: '10042',
			notifyUrl,
		};
		const answer = await rawPost(
			trigger.sandbox.baseUrl,
			'/global/cashier/collect/apply',
			signed(body, { secret: CASHIER_SECRET }),
		);
		const data = answer.json?.data as IDataObject;
		expect(data).toMatchObject({ orderId });
		return { orderId, orderNo: String(data.orderNo) };
	}

	/** A cashier order paid on HaiPay's page: the genuine callback the sandbox posted, and the trigger's answer to it. */
	async function paid(
		server: WebhookServer,
	): Promise<{ orderNo: string; body: Record<string, unknown>; acknowledged: boolean }> {
		const order = await cashierOrder(server.url(TRIGGER));
		trigger.sandbox.control.payCashier(order.orderNo, 'pay');
		const attempt = await lastAttempt(trigger.sandbox, order.orderNo);
		await server.idle();
		return { orderNo: order.orderNo, body: attempt.body, acknowledged: attempt.acknowledged };
	}

	const queriesOf = (orderNo: string) =>
		trigger.sandbox.requests.filter(
			(request) => request.path === QUERY && (request.body as IDataObject).orderNo === orderNo,
		);

	it('verifies a genuine callback with the CASHIER App ID, runs it once as a collection, and a replay starts nothing', async () => {
		const server = await serve();
		const callback = await paid(server);
		expect(callback).toMatchObject({ acknowledged: true, body: { appId: CASHIER_ID, status: 2 } });
		expect(server.executions).toHaveLength(1);
		expect(server.executions[0].items[0].json).toMatchObject({
			appId: CASHIER_ID,
			currency: callback.body.currency,
			orderNo: callback.orderNo,
			status: 2,
			kind: 'collection',
			statusLabel: 'success',
			verified: true,
			unknownFields: [],
		});
		expect((await server.send(TRIGGER, callback.body)).text).toBe('SUCCESS');
		expect((await server.send(TRIGGER, signedByPlatform({ ...callback.body, status: 1 }, CASHIER_SECRET))).text).toBe(
			'SUCCESS',
		);
		expect(server.executions).toHaveLength(1);
	});

	it("the CASHIER currency choice takes the Cashier App ID's callbacks, whatever their currency field says, and only those", async () => {
		const server = await serve({ currency: 'CASHIER' });
		const callback = await paid(server);
		const asUsd = signedByPlatform(
			{ ...callback.body, orderNo: `${callback.orderNo}-USD`, currency: 'USD' },
			CASHIER_SECRET,
		);
		expect((await server.send(TRIGGER, asUsd)).text).toBe('SUCCESS');
		// Signed by HaiPay for the TZS App ID, naming CASHIER as its currency: not a cashier callback.
		const claimed = signedByPlatform(
			{ ...callback.body, appId: APP_IDS.TZS, orderNo: `${callback.orderNo}-TZS`, currency: 'CASHIER' },
			TZS_SECRET,
		);
		expect((await server.send(TRIGGER, claimed)).text).toBe('SUCCESS');
		expect(server.executions.map((execution) => execution.items[0].json.orderNo)).toEqual([
			callback.orderNo,
			`${callback.orderNo}-USD`,
		]);
		await server.close();

		const usd = await serve({ currency: 'USD' });
		expect((await usd.send(TRIGGER, asUsd)).text).toBe('SUCCESS');
		expect(usd.executions).toHaveLength(0);
	});

	it('a payouts-only trigger acknowledges a cashier callback without a run', async () => {
		const server = await serve({ kind: 'payout' });
		expect(await paid(server)).toMatchObject({ acknowledged: true });
		expect(server.executions).toHaveLength(0);
	});

	it("refuses a cashier callback signed with another App ID's secret, and one whose appId was changed to a payout App ID", async () => {
		const server = await serve();
		const order = await cashierOrder('https://merchant.example/unused');
		const body = {
			appId: CASHIER_ID,
			currency: 'CASHIER',
			orderId: order.orderId,
			orderNo: order.orderNo,
			amount: '19.99',
			fee: '0.50',
			status: 2,
			payTime: '2026-01-01 00:00:00',
		};
		const tzsSigned = await server.send(TRIGGER, signedByPlatform(body, TZS_SECRET));
		expect([tzsSigned.status, tzsSigned.text]).toEqual([401, 'Rejected: signature is not valid']);
		const moved = await server.send(TRIGGER, { ...signedByPlatform(body, CASHIER_SECRET), appId: APP_IDS.TZS });
		expect([moved.status, moved.text]).toEqual([401, 'Rejected: signature is not valid']);
		expect(server.executions).toHaveLength(0);
	});

	describe('with Confirm With HaiPay', () => {
		const confirming = async (parameters: INodeParameters = {}) =>
			await serve({ ...parameters, options: { confirmWithHaiPay: true } });

		it("asks the cashier query, signed with the Cashier App ID, whatever the currency field says; never a currency's query", async () => {
			const server = await confirming();
			const callback = await paid(server);
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0].items[0].json).toMatchObject({
				orderNo: callback.orderNo,
				kind: 'collection',
				confirmed: true,
			});
			expect(queriesOf(callback.orderNo)).toHaveLength(1);
			expect(queriesOf(callback.orderNo)[0]).toMatchObject({ appId: CASHIER_ID, orderId: callback.body.orderId });

			const asUsd = signedByPlatform({ ...callback.body, currency: 'USD' }, CASHIER_SECRET);
			await server.close();
			const again = await confirming();
			expect((await again.send(TRIGGER, asUsd)).text).toBe('SUCCESS');
			expect(again.executions.map((execution) => execution.items[0].json.confirmed)).toEqual([true]);
			expect(queriesOf(callback.orderNo)).toHaveLength(2);
			expect(
				trigger.sandbox.requests.filter((request) => request.path.endsWith('/collect/query') && request.path !== QUERY),
			).toHaveLength(0);
		});

		it("a replayed earlier status is acknowledged without a run: HaiPay's query shows the order paid", async () => {
			const server = await confirming();
			const callback = await paid(server);
			const fresh = await confirming();
			await server.close();
			expect((await fresh.send(TRIGGER, signedByPlatform({ ...callback.body, status: 1 }, CASHIER_SECRET))).text).toBe(
				'SUCCESS',
			);
			expect(fresh.executions).toHaveLength(0);
		});

		it('a callback without the orderNo the cashier query needs runs once, flagged confirmed: false, asking nothing', async () => {
			const server = await confirming();
			const order = await cashierOrder('https://merchant.example/unused');
			const body = signedByPlatform(
				{
					appId: CASHIER_ID,
					currency: 'CASHIER',
					orderId: order.orderId,
					amount: '19.99',
					status: 2,
					payTime: '2026-01-01 00:00:00',
				},
				CASHIER_SECRET,
			);
			const reply = await server.send(TRIGGER, body);
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server.executions.map((execution) => execution.items[0].json)).toMatchObject([
				{ orderId: order.orderId, kind: 'collection', confirmed: false },
			]);
			expect(String(server.executions[0].items[0].json.unconfirmedWhy)).toMatch(
				/query needs the orderId and the orderNo, and the callback lacks one.*claim dedupKey/,
			);
			expect(
				trigger.sandbox.requests.filter((request) => request.path === QUERY && request.orderId === order.orderId),
			).toHaveLength(0);
			expect((await server.send(TRIGGER, body)).text).toBe('SUCCESS');
			expect(server.executions).toHaveLength(1);
		});

		it('an order HaiPay does not have is answered 503 (HaiPay resends), a forged one 401, and neither runs', async () => {
			const server = await confirming();
			const unknown = {
				appId: CASHIER_ID,
				currency: 'CASHIER',
				orderId: 'CASHIER-NONE',
				orderNo: 'HPNONE0001',
				amount: '19.99',
				status: 2,
				payTime: '2026-01-01 00:00:00',
			};
			expect((await server.send(TRIGGER, signedByPlatform(unknown, CASHIER_SECRET))).status).toBe(503);
			expect(
				(await server.send(TRIGGER, { ...signedByPlatform(unknown, CASHIER_SECRET), amount: '1999.00' })).status,
			).toBe(401);
			// Signed for the TZS App ID and naming CASHIER: no currency to ask, and never the cashier query.
			const claimed = signedByPlatform({ ...unknown, appId: APP_IDS.TZS, orderNo: 'HPNONE0002' }, TZS_SECRET);
			expect((await server.send(TRIGGER, claimed)).status).toBe(503);
			expect(server.executions).toHaveLength(0);
			expect(queriesOf('HPNONE0002')).toHaveLength(0);
		});
	});
});
