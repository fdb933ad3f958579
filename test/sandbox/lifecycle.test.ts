import type { IncomingMessage } from 'http';

import type { CallbackAttempt, Sandbox } from '../../sandbox';
import { ControlError } from '../../sandbox';
import { verifyBody } from '../../sandbox/signing';
import {
	APP,
	call,
	control,
	mitApply,
	NEVER_MS,
	PLATFORM_PUBLIC,
	secretOf,
	startReceiver,
	tzsPayout,
	withSandbox,
	type Body,
} from './helpers';

const callbackVerifies = (body: Body) => verifyBody(body, String(body.sign), secretOf(body.appId as number), PLATFORM_PUBLIC);

async function apply(sandbox: Sandbox, body: Body): Promise<string> {
	const answer = await call(sandbox, '/tzs/pay/apply', body);
	if (answer.status !== '1') throw new Error(answer.msg);
	return String((answer.data as Body).orderNo);
}

describe('automatic transitions', () => {
	it('moves created -> processing -> success on its own, on the configured delays', async () => {
		const sandbox = await withSandbox({ manual: false, transitionDelays: { processingMs: 5, finalMs: 5 } });
		try {
			const orderNo = await apply(sandbox, tzsPayout());
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
			const orderNo = await apply(sandbox, tzsPayout());
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
		const one = await apply(sandbox, tzsPayout({ amount: '10000' }));
		const two = await apply(sandbox, tzsPayout({ amount: '20000' }));
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
		const failing = await apply(sandbox, tzsPayout({ name: 'Fail Payout' }));
		const staying = await apply(sandbox, tzsPayout({ name: 'stay processing' }));
		const normal = await apply(sandbox, tzsPayout());
		sandbox.control.advanceAll();
		expect(sandbox.control.order(failing)).toMatchObject({ status: 3, errorMsg: 'Bank return: account invalid, closed or frozen' });
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
		await apply(sandbox, body);
		const { status, json } = await control(sandbox, 'POST', '/settle', { orderId: body.orderId, appId: APP.TZS, outcome: 'failed', errorMsg: 'Wallet frozen' });
		expect(status).toBe(200);
		expect(json).toMatchObject({ status: 3, errorMsg: 'Wallet frozen' });
		expect((await control(sandbox, 'POST', '/settle', { orderId: body.orderId, appId: APP.TZS, outcome: 'success' })).status).toBe(409);
		expect((await control(sandbox, 'POST', '/settle', { orderNo: 'HP0', outcome: 'success' })).status).toBe(404);
		const listed = await control(sandbox, 'GET', `/orders?appId=${APP.TZS}&status=3`);
		expect((listed.json as Body[]).some((o) => o.orderId === body.orderId)).toBe(true);
		expect((await control(sandbox, 'GET', `/orders/${String(body.orderId)}?appId=${APP.TZS}`)).json).toMatchObject({ orderId: body.orderId });
	});
});

describe('callbacks', () => {
	it('posts a signed callback on success and stops at SUCCESS', async () => {
		const receiver = await startReceiver();
		const sandbox = await withSandbox();
		try {
			const orderNo = await apply(sandbox, tzsPayout({ notifyUrl: receiver.url }));
			sandbox.control.settle(orderNo, 'success');
			const attempt = await sandbox.waitForCallback((a) => a.orderNo === orderNo);
			expect(attempt).toMatchObject({ attempt: 1, acknowledged: true, last: true, httpStatus: 200 });
			const body = receiver.received[0];
			expect(Object.keys(body).sort()).toEqual(['amount', 'appId', 'currency', 'fee', 'orderId', 'orderNo', 'payTime', 'sign', 'status']);
			expect(body).toMatchObject({ appId: APP.TZS, currency: 'TZS', orderNo, amount: '15000.50', fee: '150.01', status: 2 });
			expect(callbackVerifies(body)).toBe(true);
			expect(callbackVerifies({ ...body, status: 3 })).toBe(false);
		} finally {
			await sandbox.close();
			await receiver.close();
		}
	});

	it('a failure callback carries errorMsg and no payTime; an order without notifyUrl sends none', async () => {
		const receiver = await startReceiver();
		const sandbox = await withSandbox();
		try {
			const silent = await apply(sandbox, tzsPayout());
			const orderNo = await apply(sandbox, tzsPayout({ notifyUrl: receiver.url, name: 'Fail Payout' }));
			sandbox.control.advanceAll();
			await sandbox.waitForCallback((a) => a.orderNo === orderNo);
			expect(receiver.received[0]).toMatchObject({ status: 3, errorMsg: 'Bank return: account invalid, closed or frozen' });
			expect(receiver.received[0]).not.toHaveProperty('payTime');
			expect(sandbox.callbacks.filter((a) => a.orderNo === silent)).toHaveLength(0);
		} finally {
			await sandbox.close();
			await receiver.close();
		}
	});

	it('retries on the schedule until the receiver answers SUCCESS', async () => {
		const receiver = await startReceiver([
			{ status: 500, body: 'oops' },
			{ status: 200, body: 'FAIL' },
			{ status: 200, body: 'success' },
			{ status: 200, body: 'SUCCESS' },
		]);
		const sandbox = await withSandbox({ callbackSchedule: [10, 10, 10, 10, 10] });
		try {
			const orderNo = await apply(sandbox, tzsPayout({ notifyUrl: receiver.url }));
			sandbox.control.settle(orderNo, 'success');
			const done = await sandbox.waitForCallback((a) => a.orderNo === orderNo && a.acknowledged);
			expect(done.attempt).toBe(4);
			const attempts = sandbox.callbacks.filter((a) => a.orderNo === orderNo);
			expect(attempts.map((a) => [a.attempt, a.httpStatus, a.response, a.acknowledged])).toEqual([
				[1, 500, 'oops', false],
				[2, 200, 'FAIL', false],
				[3, 200, 'success', false],
				[4, 200, 'SUCCESS', true],
			]);
			// The same signed body every time, so a receiver can deduplicate.
			expect(new Set(receiver.received.map((b) => JSON.stringify(b))).size).toBe(1);
		} finally {
			await sandbox.close();
			await receiver.close();
		}
	});

	it('gives up after the last retry, and logs an unreachable receiver', async () => {
		const receiver = await startReceiver(Array.from({ length: 10 }, () => ({ status: 200, body: 'NO' })));
		const sandbox = await withSandbox({ callbackSchedule: [5, 5] });
		try {
			const orderNo = await apply(sandbox, tzsPayout({ notifyUrl: receiver.url }));
			sandbox.control.settle(orderNo, 'success');
			const last = await sandbox.waitForCallback((a) => a.orderNo === orderNo && a.last);
			expect(last).toMatchObject({ attempt: 3, acknowledged: false });
			expect(sandbox.control.callbackJobs().find((j) => j.orderNo === orderNo)?.state).toBe('gave-up');

			await receiver.close();
			const lost = await apply(sandbox, tzsPayout({ notifyUrl: receiver.url }));
			sandbox.control.settle(lost, 'success');
			const unreachable = await sandbox.waitForCallback((a) => a.orderNo === lost && a.last);
			expect(unreachable.error).toBeDefined();
			expect(unreachable.acknowledged).toBe(false);
		} finally {
			await sandbox.close();
		}
	});

	it('flush makes a scheduled retry now, and resend delivers a final order again', async () => {
		const receiver = await startReceiver([{ status: 503, body: 'busy' }]);
		const sandbox = await withSandbox({ callbackSchedule: [600_000] });
		try {
			const orderNo = await apply(sandbox, tzsPayout({ notifyUrl: receiver.url }));
			sandbox.control.settle(orderNo, 'success');
			await sandbox.waitForCallback((a) => a.orderNo === orderNo);
			expect(sandbox.control.callbackJobs()[0].state).toBe('pending');
			await control(sandbox, 'POST', '/callbacks/flush');
			expect(sandbox.callbacks.map((a) => a.acknowledged)).toEqual([false, true]);
			const { json } = await control(sandbox, 'POST', '/callbacks/resend', { orderNo });
			expect(json).toMatchObject({ orderNo, state: 'pending' });
			await sandbox.waitForCallback((a) => a.jobId === (json as Body).id && a.acknowledged);
			expect(receiver.received).toHaveLength(3);
			const log = await control(sandbox, 'GET', '/callbacks');
			expect((log.json as { attempts: CallbackAttempt[] }).attempts).toHaveLength(3);
		} finally {
			await sandbox.close();
			await receiver.close();
		}
	});
	it('with callbackConcurrency, has at most that many attempts on the wire; the others wait their turn and are delivered', async () => {
		const http = await import('http');
		const held: Array<import('http').ServerResponse> = [];
		let most = 0;
		const receiver = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				held.push(res);
				most = Math.max(most, held.length);
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/notify`;
		const sandbox = await withSandbox({ callbackConcurrency: 2, callbackTimeoutMs: NEVER_MS });
		const until = async (condition: () => boolean) => {
			while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
		};
		try {
			const orderNos: string[] = [];
			for (let i = 0; i < 5; i++) orderNos.push(await apply(sandbox, tzsPayout({ notifyUrl: url })));
			for (const orderNo of orderNos) sandbox.control.settle(orderNo, 'success');
			// Answered one at a time, each once the receiver holds as many as may be on the wire.
			for (let answered = 0; answered < 5; answered++) {
				await until(() => held.length >= Math.min(2, 5 - answered));
				held.shift()?.writeHead(200, { 'Content-Type': 'text/plain' }).end('SUCCESS');
			}
			for (const orderNo of orderNos) await sandbox.waitForCallback((a) => a.orderNo === orderNo && a.acknowledged);
			expect(most).toBe(2);
			expect(sandbox.callbacks.map((a) => [a.attempt, a.acknowledged])).toEqual(Array.from({ length: 5 }, () => [1, true]));
		} finally {
			await sandbox.close();
			receiver.closeAllConnections();
			await new Promise((resolve) => receiver.close(resolve));
		}
	});

	it('close does not wait for a receiver that never answers, and keeps the delivery pending', async () => {
		const http = await import('http');
		const silent = http.createServer(() => undefined);
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/notify`;
		// The delivery has no deadline of its own that could end it: only close can, by aborting it.
		const sandbox = await withSandbox({ callbackTimeoutMs: NEVER_MS });
		try {
			const orderNo = await apply(sandbox, tzsPayout({ notifyUrl: url }));
			const arrived = new Promise<IncomingMessage>((resolve) => silent.once('request', resolve));
			sandbox.control.settle(orderNo, 'success');
			const delivery = await arrived;
			const aborted = new Promise((resolve) => delivery.socket.once('close', resolve));
			await sandbox.close();
			await aborted;
			expect(sandbox.callbacks).toEqual([]);
			expect(sandbox.control.callbackJobs()[0].state).toBe('pending');
		} finally {
			await sandbox.close();
			silent.closeAllConnections();
			await new Promise((resolve) => silent.close(resolve));
		}
	});
});

describe('USD MIT: cashier page, token, charge without a page', () => {
	it('pays on the cashier page, calls back with a tokenID, and charges that token later', async () => {
		const receiver = await startReceiver();
		const sandbox = await withSandbox();
		try {
			const start = Number(sandbox.control.ledger(APP.USD).availableBal);
			const first = await call(sandbox, '/usd/mit/apply', mitApply({ amount: '100.00', notifyUrl: receiver.url, callBackUrl: 'https://shop.example/paid', subject: 'Plan' }));
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

			const again = await call(sandbox, '/usd/mit/apply', mitApply({ amount: '10.00', tokenID, notifyUrl: receiver.url }));
			expect(again.data).toMatchObject({ payUrl: '', clientToken: '' });
			const secondNo = String((again.data as Body).orderNo);
			expect(sandbox.control.order(secondNo)?.status).toBe(1);
			sandbox.control.advanceAll();
			const second = await sandbox.waitForCallback((a) => a.orderNo === secondNo);
			expect(second.body).toMatchObject({ status: 2, tokenID });

			const declined = await call(sandbox, '/usd/mit/apply', mitApply({ tokenID, name: 'Fail Payment', notifyUrl: receiver.url }));
			sandbox.control.advanceAll();
			const declinedNo = String((declined.data as Body).orderNo);
			expect((await sandbox.waitForCallback((a) => a.orderNo === declinedNo)).body).toMatchObject({ status: 3, errorMsg: 'Card declined by issuer' });
		} finally {
			await sandbox.close();
			await receiver.close();
		}
	});

	it('declines on the cashier page and redirects to callBackFailUrl', async () => {
		const sandbox = await withSandbox();
		try {
			const first = await call(sandbox, '/usd/mit/apply', mitApply({ callBackFailUrl: 'https://shop.example/failed', loadingType: 1 }));
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
