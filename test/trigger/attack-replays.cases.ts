/**
 * Attacks on the HaiPay Trigger by someone who captured genuine callbacks (signed with the real platform key) and
 * knows the URL, replaying them: re-split (one field's value folded into another under the same signature), an
 * earlier status after the final one, an old status once the repeat memory has forgotten the order. Each arrives
 * over real HTTP from the sandbox gateway's own dispatcher (its attack routes, with HaiPay's retries) and must start
 * no workflow; Confirm With HaiPay queries the sandbox over real HTTP through the credential, and starts one run
 * for what HaiPay confirms.
 */
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { digestOf } from '../../nodes/HaiPayTrigger/memory';
import { APP_IDS } from '../fixtures/bodies';
import { webhookServer } from '../harness';
import { sandboxCredential } from '../helpers/credentials';
import { lastAttempt, lastAttemptOfJob, attemptsOfJob, nextOrderId, sandboxTrigger, TRIGGER } from './sandbox-trigger';

describe('HaiPay Trigger under attack, with callbacks from the sandbox gateway', () => {
	const trigger = sandboxTrigger({ prefix: 'ATK', callbackTimeoutMs: 10_000, parameters: { kind: 'payout' } });

	describe('1. re-split signed strings', () => {
		it("settles a replay with orderNo folded into orderId by HaiPay's query, which knows no such order: 503 on every attempt, and nothing starts", async () => {
			const server = await trigger.serve();
			const { order } = await trigger.settled();
			expect(server.executions).toHaveLength(1);

			const job = trigger.sandbox.control.attackCallback(order.orderNo, 'resplit');
			expect(job.body).toMatchObject({ orderId: `${order.orderId}&orderNo=${order.orderNo}` });
			expect(job.body).not.toHaveProperty('orderNo');
			const final = await lastAttemptOfJob(trigger.sandbox, job);
			await server.idle();
			expect(final.acknowledged).toBe(false);
			expect(attemptsOfJob(trigger.sandbox, job).map((attempt) => [attempt.httpStatus, attempt.response])).toEqual([
				[503, 'Not confirmed yet: send it again later'],
				[503, 'Not confirmed yet: send it again later'],
				[503, 'Not confirmed yet: send it again later'],
			]);
			expect(server.executions).toHaveLength(1);
			expect(trigger.logsOf(job)).toMatch(
				/the value of the field orderId could be read as that field cut short plus orderNo.*HaiPay's order query decides/,
			);
		});

		it('never emits a fee folded into the currency before it, even with Confirm With HaiPay on', async () => {
			const server = await trigger.serve({ options: { confirmWithHaiPay: true } });
			const { order } = await trigger.settled();
			expect(server.executions).toHaveLength(1);
			const job = trigger.sandbox.control.attackCallback(order.orderNo, 'resplit', { fold: 'fee' });
			expect(job.body).not.toHaveProperty('fee');
			const final = await lastAttemptOfJob(trigger.sandbox, job);
			await server.idle();
			// Its orderNo and status are the emitted result's: at most that result again, acknowledged as a repeat.
			expect(final).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server.executions).toHaveLength(1);
			expect(trigger.logsOf(job)).toMatch(/a repeated callback/);
		});

		it('with Confirm With HaiPay on, a fee folded into errorMsg is at most the true state again, which repeat detection drops', async () => {
			const server = await trigger.serve({ options: { confirmWithHaiPay: true } });
			const { order, attempt } = await trigger.settled('failed', 'account frozen');
			expect(attempt.acknowledged).toBe(true);
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0].items[0].json).toMatchObject({
				status: 3,
				confirmed: true,
				errorMsg: 'account frozen',
			});

			const job = trigger.sandbox.control.attackCallback(order.orderNo, 'resplit', { fold: 'fee' });
			expect(job.body).toMatchObject({ errorMsg: expect.stringContaining('&fee=') });
			const final = await lastAttemptOfJob(trigger.sandbox, job);
			await server.idle();
			expect(final).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server.executions).toHaveLength(1);
		});

		it('a genuine callback whose errorMsg holds & and = (bank text, no field after the &) starts one execution unconfirmed', async () => {
			const server = await trigger.serve();
			const { attempt } = await trigger.settled('failed', 'bank says: code=51 & account closed');
			expect(attempt).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0].items[0].json).toMatchObject({
				status: 3,
				errorMsg: 'bank says: code=51 & account closed',
				ambiguousText: [],
			});
			expect(server.executions[0].items[0].json).not.toHaveProperty('confirmed');
		});

		it("with Confirm With HaiPay on, that genuine callback starts one execution with what HaiPay's query confirms", async () => {
			const server = await trigger.serve({ options: { confirmWithHaiPay: true } });
			const { order, attempt } = await trigger.settled('failed', 'bank says: code=51 & account closed');
			expect(attempt).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0].items[0].json).toMatchObject({
				orderNo: order.orderNo,
				status: 3,
				errorMsg: 'bank says: code=51 & account closed',
				confirmed: true,
				verified: true,
			});
		});
	});

	describe('2. replays of old genuine callbacks', () => {
		it('acknowledges an earlier status sent after the final one, starts nothing, and logs it', async () => {
			const server = await trigger.serve();
			const { order } = await trigger.settled();
			const job = trigger.sandbox.control.attackCallback(order.orderNo, 'regressed', { status: 1 });
			const final = await lastAttemptOfJob(trigger.sandbox, job);
			await server.idle();
			expect(final).toMatchObject({ attempt: 1, acknowledged: true, response: 'SUCCESS' });
			expect(server.executions).toHaveLength(1);
			expect(trigger.logsOf(job)).toMatch(/status 1 comes before the final status 2/);
		});

		it('the same with repeat detection turned off', async () => {
			const server = await trigger.serve({ options: { deduplicate: false } });
			const { order } = await trigger.settled();
			const job = trigger.sandbox.control.attackCallback(order.orderNo, 'regressed', { status: 0 });
			expect(await lastAttemptOfJob(trigger.sandbox, job)).toMatchObject({ acknowledged: true });
			await server.idle();
			expect(server.executions).toHaveLength(1);
		});

		it('with Confirm With HaiPay on, an old status is not emitted after the repeat window or 2,000 newer callbacks', async () => {
			const order = trigger.payout('http://127.0.0.1:9/unused');
			trigger.sandbox.control.settle(order.orderNo, 'success');
			// What a trigger remembers once the order's own entry has aged out of the window and been pushed out.
			const record = (key: string, age: number) => digestOf(key) + age.toString(36).padStart(5, '0');
			const entries = [
				record(`no:${order.orderNo}|2`, 3 * 86_400),
				...Array.from({ length: 2000 }, (_, index) => record(`no:HPNEWER${index}|2`, 60)),
			].join('');
			const saved = {
				[`node:${TRIGGER}`]: { repeatMemory: { v: 2, stamp: 'earlier.1', at: Math.floor(Date.now() / 1000), entries } },
			};
			const server = await trigger.serve({ options: { confirmWithHaiPay: true } }, APP_IDS.TZS, saved);

			const job = trigger.sandbox.control.attackCallback(order.orderNo, 'regressed', {
				status: 1,
				url: server.url(TRIGGER),
			});
			const final = await lastAttemptOfJob(trigger.sandbox, job);
			await server.idle();
			expect(final).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server.executions).toHaveLength(0);
			expect(trigger.logsOf(job)).toMatch(/HaiPay says the order's status is 2, the callback says 1/);

			// An exact replay of the final callback can only announce the true current state, once.
			const replay = trigger.sandbox.control.attackCallback(order.orderNo, 'replay', { url: server.url(TRIGGER) });
			const again = trigger.sandbox.control.attackCallback(order.orderNo, 'replay', { url: server.url(TRIGGER) });
			await lastAttemptOfJob(trigger.sandbox, replay);
			await lastAttemptOfJob(trigger.sandbox, again);
			await server.idle();
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0].items[0].json).toMatchObject({ orderNo: order.orderNo, status: 2, confirmed: true });
		});

		it('with Confirm With HaiPay on, a callback HaiPay cannot confirm yet gets 503 and its resend starts the workflow once', async () => {
			const server = await trigger.serve({ options: { confirmWithHaiPay: true } });
			trigger.sandbox.control.addFault({ type: 'httpError', status: 502, path: '/tzs/pay/query', times: 2 });
			const order = trigger.payout(server.url(TRIGGER));
			trigger.sandbox.control.settle(order.orderNo, 'success');
			const final = await lastAttempt(trigger.sandbox, order.orderNo);
			await server.idle();
			const attempts = trigger.sandbox.callbacks.filter((attempt) => attempt.orderNo === order.orderNo);
			expect(attempts.map((attempt) => [attempt.httpStatus, attempt.response])).toEqual([
				[503, 'Not confirmed yet: send it again later'],
				[200, 'SUCCESS'],
			]);
			expect(final.acknowledged).toBe(true);
			expect(server.executions).toHaveLength(1);
			expect(JSON.stringify(server.calls[0].logs)).toMatch(/answered a callback with 503.*no trusted answer/);
		});

		it('with Confirm With HaiPay on and Payouts or Collections, a collection is confirmed by the collection query', async () => {
			const server = await webhookServer({
				nodeTypes: [HaiPayTrigger],
				credentials: { haipay: { type: 'haiPayApi', data: sandboxCredential(trigger.sandbox, APP_IDS.USD) } },
				nodes: [
					{
						name: TRIGGER,
						type: 'haiPayTrigger',
						parameters: { kind: 'either', options: { confirmWithHaiPay: true } },
					},
				],
			});
			trigger.server = server;
			const order = trigger.sandbox.control.createOrder({
				appId: APP_IDS.USD,
				kind: 'collection',
				orderId: nextOrderId('ATC'),
				amount: '49.00',
				notifyUrl: server.url(TRIGGER),
			});
			trigger.sandbox.control.setStatus(order.orderNo, 2);
			const final = await lastAttempt(trigger.sandbox, order.orderNo);
			await server.idle();
			expect(final).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0].items[0].json).toMatchObject({ orderNo: order.orderNo, status: 2, confirmed: true });
			const queried = trigger.sandbox.requests
				.filter((entry) => JSON.stringify(entry).includes(order.orderNo))
				.map((entry) => entry.path);
			expect(queried).toEqual(expect.arrayContaining(['/usd/pay/query', '/usd/collect/query']));
		});

		it('with Confirm With HaiPay on, an answer HaiPay did not sign confirms nothing', async () => {
			const server = await trigger.serve({ options: { confirmWithHaiPay: true } });
			trigger.sandbox.control.addFault({ type: 'badSignature', path: '/tzs/pay/query' });
			const order = trigger.payout(server.url(TRIGGER));
			trigger.sandbox.control.settle(order.orderNo, 'success');
			const final = await lastAttempt(trigger.sandbox, order.orderNo);
			await server.idle();
			expect(final.acknowledged).toBe(false);
			expect(
				trigger.sandbox.callbacks
					.filter((attempt) => attempt.orderNo === order.orderNo)
					.map((attempt) => attempt.httpStatus),
			).toEqual([503, 503, 503]);
			expect(server.executions).toHaveLength(0);
		});
	});
});
