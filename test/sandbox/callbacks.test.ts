/**
 * The sandbox's callbacks: signed as HaiPay signs them, retried until acknowledged, and given up after the last.
 */
import type { IncomingMessage } from 'http';

import type { CallbackAttempt } from '../../sandbox';
import {
	APP,
	applyPayout,
	callbackVerifies,
	control,
	NEVER_MS,
	startReceiver,
	tzsPayout,
	withSandbox,
	type Body,
} from './helpers';

describe('callbacks', () => {
	it('posts a signed callback on success and stops at SUCCESS', async () => {
		const receiver = await startReceiver();
		const sandbox = await withSandbox();
		try {
			const orderNo = await applyPayout(sandbox, tzsPayout({ notifyUrl: receiver.url }));
			sandbox.control.settle(orderNo, 'success');
			const attempt = await sandbox.waitForCallback((a) => a.orderNo === orderNo);
			expect(attempt).toMatchObject({ attempt: 1, acknowledged: true, last: true, httpStatus: 200 });
			const body = receiver.received[0];
			expect(Object.keys(body).sort()).toEqual([
				'amount',
				'appId',
				'currency',
				'fee',
				'orderId',
				'orderNo',
				'payTime',
				'sign',
				'status',
			]);
			expect(body).toMatchObject({
				appId: APP.TZS,
				currency: 'TZS',
				orderNo,
				amount: '15000.50',
				fee: '150.01',
				status: 2,
			});
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
			const silent = await applyPayout(sandbox, tzsPayout());
			const orderNo = await applyPayout(sandbox, tzsPayout({ notifyUrl: receiver.url, name: 'Fail Payout' }));
			sandbox.control.advanceAll();
			await sandbox.waitForCallback((a) => a.orderNo === orderNo);
			expect(receiver.received[0]).toMatchObject({
				status: 3,
				errorMsg: 'Bank return: account invalid, closed or frozen',
			});
			expect(receiver.received[0]).not.toHaveProperty('payTime');
			expect(sandbox.callbacks.filter((a) => a.orderNo === silent)).toHaveLength(0);
			// An attempt is logged only once answered: no callback queued either.
			expect(sandbox.control.callbackJobs().filter((job) => job.orderNo === silent)).toEqual([]);
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
			const orderNo = await applyPayout(sandbox, tzsPayout({ notifyUrl: receiver.url }));
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
			const orderNo = await applyPayout(sandbox, tzsPayout({ notifyUrl: receiver.url }));
			sandbox.control.settle(orderNo, 'success');
			const last = await sandbox.waitForCallback((a) => a.orderNo === orderNo && a.last);
			expect(last).toMatchObject({ attempt: 3, acknowledged: false });
			expect(sandbox.control.callbackJobs().find((j) => j.orderNo === orderNo)?.state).toBe('gave-up');

			await receiver.close();
			const lost = await applyPayout(sandbox, tzsPayout({ notifyUrl: receiver.url }));
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
			const orderNo = await applyPayout(sandbox, tzsPayout({ notifyUrl: receiver.url }));
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
			for (let i = 0; i < 5; i++) orderNos.push(await applyPayout(sandbox, tzsPayout({ notifyUrl: url })));
			for (const orderNo of orderNos) sandbox.control.settle(orderNo, 'success');
			// Answered one at a time, each once the receiver holds as many as may be on the wire.
			for (let answered = 0; answered < 5; answered++) {
				await until(() => held.length >= Math.min(2, 5 - answered));
				held.shift()?.writeHead(200, { 'Content-Type': 'text/plain' }).end('SUCCESS');
			}
			for (const orderNo of orderNos) await sandbox.waitForCallback((a) => a.orderNo === orderNo && a.acknowledged);
			expect(most).toBe(2);
			expect(sandbox.callbacks.map((a) => [a.attempt, a.acknowledged])).toEqual(
				Array.from({ length: 5 }, () => [1, true]),
			);
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
			const orderNo = await applyPayout(sandbox, tzsPayout({ notifyUrl: url }));
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
