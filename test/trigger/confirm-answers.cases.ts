/**
 * With Confirm With HaiPay on, what the trigger does when HaiPay's order query cannot settle a callback: an answer
 * that names no order (another order, a balance, unsigned, signed with another key) confirms nothing, and a
 * gateway that is silent, slow or asks to wait is given one deadline in all, after which HaiPay is answered 503 to
 * send the callback again. The gateway is the fake one of fake-gateway.ts, for answers the sandbox never gives.
 *
 * No test reads a clock: a deadline shows as the answer HaiPay gets (503) and as what the fake gateway saw (how
 * many queries, each cut off by the trigger). Where only the absence of a 60-second wait can show a bound, the
 * bound is the test's own timeout (30 s, three times the trigger's 10-second deadline).
 */
import { NOT_YET } from '../../nodes/HaiPayTrigger/reply';
import { dribbling, envelope, silent, unavailable, type Answering, type SeenQuery } from './fake-gateway';
import { OTHER_KEY, outcomeTrigger, payoutCallback, signedAnswer, until, type Fields } from './outcome-setup';

describe('HaiPay Trigger: outcomes in doubt', () => {
	const trigger = outcomeTrigger();

	describe('1. an answer that names no order confirms nothing', () => {
		const callback = () => payoutCallback();
		const lies: Array<[string, (order: Fields) => Answering]> = [
			[
				'a replayed balance answer',
				() => signedAnswer({ bal: '9000.00', availableBal: '9000.00', frzBal: '0.00', unSettleBal: '0.00' }),
			],
			['{amount, status: 2}', () => signedAnswer({ amount: '1500.00', status: 2 })],
			[
				'another order',
				() => signedAnswer({ orderId: 'OTHER-1', orderNo: 'HPOTHER1', amount: '1500.00', fee: '15.00', status: 2 }),
			],
			[
				'this orderId under another orderNo',
				(order) => signedAnswer({ orderId: order.orderId, orderNo: 'HPOTHER2', amount: '1500.00', status: 2 }),
			],
			[
				'this order, unsigned',
				(order) => (_query, res) =>
					envelope(res, { orderId: order.orderId, orderNo: order.orderNo, amount: '1500.00', status: 2 }),
			],
			[
				'this order, signed with another key',
				(order) =>
					signedAnswer({ orderId: order.orderId, orderNo: order.orderNo, amount: '1500.00', status: 2 }, OTHER_KEY),
			],
		];

		it.each(lies)('answered with %s: 503, nothing emitted', async (_name, lie) => {
			const body = callback();
			await trigger.confirmingAgainst(lie(body));
			const reply = await trigger.send(body);
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(trigger.server.executions).toHaveLength(0);
			expect(trigger.gateway.queries.map((query) => query.path)).toEqual(['/tzs/pay/query']);
			expect(trigger.gateway.queries[0].body).toMatchObject({ orderId: body.orderId, orderNo: body.orderNo });
			expect(trigger.logs()).toMatch(/answered a callback with 503.*no trusted answer/);
		});

		it.each(lies)(
			'with Payouts or Collections, both queries answered with %s: 503, nothing emitted',
			async (_name, lie) => {
				const body = callback();
				await trigger.confirmingAgainst(lie(body), 'either');
				const reply = await trigger.send(body);
				expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
				expect(trigger.server.executions).toHaveLength(0);
				expect(trigger.gateway.queries.map((query) => query.path)).toEqual(['/tzs/pay/query', '/tzs/collect/query']);
			},
		);

		it('the same fake gateway, answering with the order proven, confirms it (the lies above are what fails)', async () => {
			const body = callback();
			await trigger.confirmingAgainst(
				signedAnswer({ orderId: body.orderId, orderNo: body.orderNo, amount: '1500.00', fee: '15.00', status: 2 }),
			);
			const reply = await trigger.send(body);
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(trigger.server.executions).toHaveLength(1);
			expect(trigger.server.executions[0].items[0].json).toMatchObject({
				orderNo: body.orderNo,
				status: 2,
				confirmed: true,
			});
		});
	});

	describe('5. every answer within one deadline', () => {
		/** Waits until the fake gateway has seen every query end, then says how they ended. */
		async function endedQueries(): Promise<SeenQuery[]> {
			await until(() => trigger.gateway.queries.every((query) => query.closed));
			return trigger.gateway.queries;
		}

		it.each([
			['a gateway that never answers', silent, /no complete answer within/],
			['answers that never finish', dribbling, /could not confirm it/],
		] as Array<[string, Answering, RegExp]>)(
			'%s (Payouts or Collections): 503, at most 3 queries, each cut off',
			async (_what, answering, logged) => {
				await trigger.confirmingAgainst(answering, 'either');
				const reply = await trigger.send(payoutCallback());
				expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
				expect(trigger.server.executions).toHaveLength(0);
				const queries = await endedQueries();
				// 4 s per attempt within 10 s: two payout attempts, and at most one collection attempt with what remains.
				expect(queries.length).toBeGreaterThanOrEqual(1);
				expect(queries.length).toBeLessThanOrEqual(3);
				expect(queries.every((query) => query.cutOff)).toBe(true);
				expect(trigger.logs()).toMatch(logged);
			},
			60_000,
		);

		it('503 with Retry-After: 60: answered 503 at once, with one query and no wait (bound: the test timeout)', async () => {
			await trigger.confirmingAgainst(unavailable('60'), 'either');
			const reply = await trigger.send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(trigger.server.executions).toHaveLength(0);
			// The payout query was told to wait past the deadline: neither it nor the collection query is asked again.
			expect(trigger.gateway.queries.map((query) => query.path)).toEqual(['/tzs/pay/query']);
			expect(trigger.logs()).toMatch(/HTTP 503/);
		});

		it('attack: Retry-After as an HTTP date an hour ahead stops the queries too', async () => {
			await trigger.confirmingAgainst(unavailable(new Date(Date.now() + 3_600_000).toUTCString()), 'payout');
			const reply = await trigger.send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(trigger.gateway.queries).toHaveLength(1);
		});

		it('attack: Retry-After as an HTTP date a moment ahead, within the deadline, is waited for and the query tried again', async () => {
			await trigger.confirmingAgainst(unavailable(new Date(Date.now() + 2_000).toUTCString()), 'payout');
			const reply = await trigger.send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(trigger.gateway.queries).toHaveLength(2);
		});

		it('attack: Retry-After as an HTTP date in the past is no wait: tried again at once, then 503', async () => {
			await trigger.confirmingAgainst(unavailable(new Date(Date.now() - 3_600_000).toUTCString()), 'payout');
			const reply = await trigger.send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(trigger.gateway.queries).toHaveLength(2);
		});

		it('attack: Retry-After that is no number and no date falls back to the backoff, within the deadline', async () => {
			await trigger.confirmingAgainst(unavailable('in a while'), 'payout');
			const reply = await trigger.send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(trigger.gateway.queries).toHaveLength(2);
		});
	});
});
