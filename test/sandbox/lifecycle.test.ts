/**
 * The sandbox's orders over their life: automatic transitions, manual mode, balances and magic outcomes, and the USD
 * MIT cashier page, token and charge (its callbacks: callbacks.test.ts).
 */

import type { Sandbox } from '../../sandbox';
import { ControlError } from '../../sandbox';
import {
	APP,
	applyPayout,
	call,
	callbackVerifies,
	control,
	mitApply,
	startReceiver,
	tzsPayout,
	withSandbox,
	type Body,
} from './helpers';

describe('automatic transitions', () => {
	it('moves created -> processing -> success on its own, on the configured delays', async () => {
		const sandbox = await withSandbox({ manual: false, transitionDelays: { processingMs: 5, finalMs: 5 } });
		try {
			const orderNo = await applyPayout(sandbox, tzsPayout());
			const order = await sandbox.waitForOrder((o) => o.orderNo === orderNo && o.status === 2);
			expect(order.history.map((h) => h.status)).toEqual([0, 1, 2]);
			const answer = await call(sandbox, '/tzs/pay/query', { appId: APP.TZS, orderNo });
			expect(answer.data).toMatchObject({ status: 2, errorMsg: '' });
			expect((answer.data as Body).payTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		} finally {
			await sandbox.close();
		}
	});

	it('shows status 0 while the processing delay runs, and advanceAll skips the wait', async () => {
		const sandbox = await withSandbox({ manual: false, transitionDelays: { processingMs: 600_000, finalMs: 600_000 } });
		try {
			const orderNo = await applyPayout(sandbox, tzsPayout());
			expect((await call(sandbox, '/tzs/pay/query', { appId: APP.TZS, orderNo })).data).toMatchObject({ status: 0 });
			const { json } = await control(sandbox, 'POST', '/advance');
			expect(json).toEqual({ moved: 2 });
			expect(sandbox.control.order(orderNo)?.history.map((h) => h.status)).toEqual([0, 1, 2]);
		} finally {
			await sandbox.close();
		}
	});
});

describe('manual mode, balances and magic outcomes', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await withSandbox();
	});
	afterAll(() => sandbox.close());

	it('a payout holds amount plus fee, success releases the hold, failure refunds it', async () => {
		sandbox.control.setBalance(APP.TZS, '100000.00');
		const start = sandbox.control.ledger(APP.TZS);
		const one = await applyPayout(sandbox, tzsPayout({ amount: '10000' }));
		const two = await applyPayout(sandbox, tzsPayout({ amount: '20000' }));
		const held = sandbox.control.ledger(APP.TZS);
		expect(Number(held.availableBal)).toBeCloseTo(Number(start.availableBal) - 10100 - 20200, 2);
		expect(Number(held.frzBal)).toBeCloseTo(Number(start.frzBal) + 30300, 2);
		expect(held.bal).toBe(start.bal);
		// Nothing moves on its own in manual mode.
		expect(sandbox.control.order(one)?.status).toBe(1);

		sandbox.control.settle(one, 'success');
		const afterSuccess = sandbox.control.ledger(APP.TZS);
		expect(Number(afterSuccess.bal)).toBeCloseTo(Number(start.bal) - 10100, 2);
		expect(Number(afterSuccess.frzBal)).toBeCloseTo(Number(start.frzBal) + 20200, 2);

		sandbox.control.settle(two, 'failed', { errorMsg: 'Account closed' });
		const afterFailure = sandbox.control.ledger(APP.TZS);
		expect(Number(afterFailure.availableBal)).toBeCloseTo(Number(start.availableBal) - 10100, 2);
		expect(afterFailure.frzBal).toBe(start.frzBal);
		const failed = await call(sandbox, '/tzs/pay/query', { appId: APP.TZS, orderNo: two });
		expect(failed.data).toMatchObject({ status: 3, errorMsg: 'Account closed', payTime: '' });
		expect(sandbox.control.order(one)).toMatchObject({ status: 2, actualAmount: '10000.00' });
	});

	it('final states are final', () => {
		const order = sandbox.control.createOrder({ appId: APP.TZS, amount: '1000', status: 2, holdFunds: false });
		expect(() => sandbox.control.settle(order.orderNo, 'failed')).toThrow(ControlError);
		expect(() => sandbox.control.setStatus(order.orderNo, 1)).toThrow(/already final/);
		const payout = sandbox.control.createOrder({ appId: APP.TZS, amount: '1000', holdFunds: false });
		expect(() => sandbox.control.setStatus(payout.orderNo, 4)).toThrow(/not a payout status/);
	});

	it('the name "Fail Payout" fails the order when it settles, "Stay Processing" keeps it processing', async () => {
		const failing = await applyPayout(sandbox, tzsPayout({ name: 'Fail Payout' }));
		const staying = await applyPayout(sandbox, tzsPayout({ name: 'stay processing' }));
		const normal = await applyPayout(sandbox, tzsPayout());
		sandbox.control.advanceAll();
		expect(sandbox.control.order(failing)).toMatchObject({
			status: 3,
			errorMsg: 'Bank return: account invalid, closed or frozen',
		});
		expect(sandbox.control.order(staying)?.status).toBe(1);
		expect(sandbox.control.order(normal)?.status).toBe(2);
		sandbox.control.settle(staying, 'success');
		expect(sandbox.control.order(staying)?.status).toBe(2);
	});

	it('collections take the other statuses: partial, over-collected, abnormal', async () => {
		const before = Number(sandbox.control.ledger(APP.SAR).availableBal);
		const partial = sandbox.control.createOrder({ appId: APP.SAR, kind: 'collection', amount: '100.00' });
		sandbox.control.setStatus(partial.orderNo, 4, { paidAmount: '40.00' });
		expect(partial).toMatchObject({ status: 4, fee: '1.20', actualAmount: '38.80' });
		const over = sandbox.control.createOrder({ appId: APP.SAR, kind: 'collection', amount: '100.00' });
		sandbox.control.setStatus(over.orderNo, 5);
		expect(over).toMatchObject({ status: 5, actualAmount: '106.70' });
		const abnormal = sandbox.control.createOrder({ appId: APP.SAR, kind: 'collection', amount: '100.00' });
		sandbox.control.setStatus(abnormal.orderNo, -1);
		expect(abnormal.status).toBe(-1);
		sandbox.control.setStatus(abnormal.orderNo, 2);
		expect(Number(sandbox.control.ledger(APP.SAR).availableBal)).toBeCloseTo(before + 38.8 + 106.7 + 97, 2);
		const answer = await call(sandbox, '/sar/collect/query', { appId: APP.SAR, orderNo: partial.orderNo });
		expect(answer.data).toMatchObject({ status: 4, actualAmount: '38.80' });
	});

	it('settles over HTTP too, by orderId and appId', async () => {
		const body = tzsPayout();
		await applyPayout(sandbox, body);
		const { status, json } = await control(sandbox, 'POST', '/settle', {
			orderId: body.orderId,
			appId: APP.TZS,
			outcome: 'failed',
			errorMsg: 'Wallet frozen',
		});
		expect(status).toBe(200);
		expect(json).toMatchObject({ status: 3, errorMsg: 'Wallet frozen' });
		expect(
			(await control(sandbox, 'POST', '/settle', { orderId: body.orderId, appId: APP.TZS, outcome: 'success' })).status,
		).toBe(409);
		expect((await control(sandbox, 'POST', '/settle', { orderNo: 'HP0', outcome: 'success' })).status).toBe(404);
		const listed = await control(sandbox, 'GET', `/orders?appId=${APP.TZS}&status=3`);
		expect((listed.json as Body[]).some((o) => o.orderId === body.orderId)).toBe(true);
		expect((await control(sandbox, 'GET', `/orders/${String(body.orderId)}?appId=${APP.TZS}`)).json).toMatchObject({
			orderId: body.orderId,
		});
	});
});

describe('USD MIT: cashier page, token, charge without a page', () => {
	it('pays on the cashier page, calls back with a tokenID, and charges that token later', async () => {
		const receiver = await startReceiver();
		const sandbox = await withSandbox();
		try {
			const start = Number(sandbox.control.ledger(APP.USD).availableBal);
			const first = await call(
				sandbox,
				'/usd/mit/apply',
				mitApply({
					amount: '100.00',
					notifyUrl: receiver.url,
					callBackUrl: 'https://shop.example/paid',
					subject: 'Plan',
				}),
			);
			const { orderNo, payUrl } = first.data as { orderNo: string; payUrl: string };
			const page = await fetch(payUrl);
			expect(page.status).toBe(200);
			const html = await page.text();
			expect(html).toContain('100.00 USD');
			expect(html).toContain(`/cashier/${orderNo}/pay`);

			const paid = await fetch(`${payUrl}/pay`, { method: 'POST', redirect: 'manual' });
			expect(paid.status).toBe(303);
			expect(paid.headers.get('location')).toBe('https://shop.example/paid');

			const callback = await sandbox.waitForCallback((a) => a.orderNo === orderNo && a.acknowledged);
			const tokenID = String(callback.body.tokenID);
			expect(tokenID).toMatch(/^tok_[0-9a-f]{24}$/);
			expect(callback.body).toMatchObject({ status: 2, currency: 'USD', amount: '100.00', fee: '3.00' });
			expect(callbackVerifies(callback.body)).toBe(true);
			expect(Number(sandbox.control.ledger(APP.USD).availableBal)).toBeCloseTo(start + 97, 2);
			expect((await fetch(payUrl)).status).toBe(200);

			const again = await call(
				sandbox,
				'/usd/mit/apply',
				mitApply({ amount: '10.00', tokenID, notifyUrl: receiver.url }),
			);
			expect(again.data).toMatchObject({ payUrl: '', clientToken: '' });
			const secondNo = String((again.data as Body).orderNo);
			expect(sandbox.control.order(secondNo)?.status).toBe(1);
			sandbox.control.advanceAll();
			const second = await sandbox.waitForCallback((a) => a.orderNo === secondNo);
			expect(second.body).toMatchObject({ status: 2, tokenID });

			const declined = await call(
				sandbox,
				'/usd/mit/apply',
				mitApply({ tokenID, name: 'Fail Payment', notifyUrl: receiver.url }),
			);
			sandbox.control.advanceAll();
			const declinedNo = String((declined.data as Body).orderNo);
			expect((await sandbox.waitForCallback((a) => a.orderNo === declinedNo)).body).toMatchObject({
				status: 3,
				errorMsg: 'Card declined by issuer',
			});
		} finally {
			await sandbox.close();
			await receiver.close();
		}
	});

	it('declines on the cashier page and redirects to callBackFailUrl', async () => {
		const sandbox = await withSandbox();
		try {
			const first = await call(
				sandbox,
				'/usd/mit/apply',
				mitApply({ callBackFailUrl: 'https://shop.example/failed', loadingType: 1 }),
			);
			const { orderNo, payUrl } = first.data as { orderNo: string; payUrl: string };
			const html = await (await fetch(payUrl)).text();
			expect(html).not.toContain('USD');
			const declined = await fetch(`${payUrl}/fail`, { method: 'POST', redirect: 'manual' });
			expect(declined.headers.get('location')).toBe('https://shop.example/failed');
			expect(sandbox.control.order(orderNo)).toMatchObject({ status: 3 });
			expect(sandbox.control.order(orderNo)?.mit?.tokenID).toBeUndefined();
			expect((await fetch(`${sandbox.baseUrl}/cashier/HP-nope`)).status).toBe(404);
			// The control API pays a waiting order as the page would.
			const other = await call(sandbox, '/usd/mit/apply', mitApply());
			const { json } = await control(sandbox, 'POST', `/cashier/${String((other.data as Body).orderNo)}/pay`);
			expect((json as { mit: { tokenID: string } }).mit.tokenID).toMatch(/^tok_/);
		} finally {
			await sandbox.close();
		}
	});
});
