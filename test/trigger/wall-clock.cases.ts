/**
 * The trigger's waits and deadlines count on the monotonic clock (`performance.now()`), which no step of the wall clock
 * moves: NTP, a VM resumed, an operator's `date -s`. A copy's wait for its first delivery, the 10-second answer
 * deadline and Confirm With HaiPay's queries neither end early when the wall clock jumps ahead nor run on past their
 * 10 seconds when it steps back (the case of issue 41: a copy answered after 15.3 s). Over real HTTP into n8n-core's
 * webhook machinery (test/harness); the wall clock is stepped with a spy on `Date.now`, the monotonic one with a spy on
 * `performance.now`, so that no test waits 10 seconds.
 */
import { sleep } from 'n8n-workflow';

import { ANSWER_DEADLINE_MS } from '../../nodes/HaiPayTrigger/confirm';
import { STILL_STORING } from '../../nodes/HaiPayTrigger/reply';
import type { WebhookServer } from '../harness';
import {
	freshOrder,
	payoutCallback,
	serveTrigger,
	signedByPlatform,
	stepMemoryClockPerDelivery,
	stepMonotonicClock,
	stepWallClock,
	TRIGGER,
} from './callbacks';
import { unavailable, type Answering } from './fake-gateway';
import { outcomeTrigger, payoutCallback as unsignedPayout, signedAnswer } from './outcome-setup';

const HOUR = 3_600_000;
/** Time for a request to reach the point where it waits for its first delivery. */
const SETTLE_MS = 300;

/** What `reply` has come to within `ms`: its answer, or 'still waiting'. */
async function within<T>(reply: Promise<T>, ms: number): Promise<T | 'still waiting'> {
	return await Promise.race([reply, sleep(ms).then(() => 'still waiting' as const)]);
}

describe('HaiPay Trigger: a step of the wall clock moves no wait and no deadline', () => {
	describe("a copy's wait for its first delivery", () => {
		let server: WebhookServer;
		const holds: Array<{ release(): void }> = [];
		/** Posts `body` with its execution's start held, then a copy of it, which waits for the first. */
		const copyWhileStoring = async (body: unknown) => {
			const hold = server.holdExecutionStarts();
			holds.push(hold);
			const first = server.send(TRIGGER, body, { waitForExecutions: false });
			await hold.reached;
			const copy = server.send(TRIGGER, body, { waitForExecutions: false });
			await sleep(SETTLE_MS);
			return { hold, first, copy };
		};
		beforeEach(async () => {
			server = await serveTrigger();
		});
		afterEach(async () => {
			jest.restoreAllMocks();
			stepMemoryClockPerDelivery();
			for (const hold of holds.splice(0)) hold.release();
			await server.close();
		});

		it('does not end when the wall clock jumps an hour ahead: the copy is acknowledged once the first has started', async () => {
			const body = signedByPlatform(payoutCallback(freshOrder()));
			const { hold, first, copy } = await copyWhileStoring(body);
			stepWallClock(HOUR);
			expect(await within(copy, SETTLE_MS)).toBe('still waiting');
			hold.release();
			expect((await Promise.all([first, copy])).map((reply) => [reply.status, reply.text])).toEqual([
				[200, 'SUCCESS'],
				[200, 'SUCCESS'],
			]);
			await server.idle();
			expect(server.executions).toHaveLength(1);
		});

		it('ends at its 10-second deadline when the wall clock steps an hour back: 503, so HaiPay sends it again', async () => {
			const body = signedByPlatform(payoutCallback(freshOrder()));
			const { hold, first, copy } = await copyWhileStoring(body);
			stepWallClock(-HOUR);
			expect(await within(copy, SETTLE_MS)).toBe('still waiting');
			stepMonotonicClock(ANSWER_DEADLINE_MS);
			const late = await within(copy, 2_000);
			expect(late === 'still waiting' ? late : [late.status, late.text]).toEqual([503, STILL_STORING]);
			hold.release();
			expect((await first).text).toBe('SUCCESS');
			await server.idle();
			expect(server.executions).toHaveLength(1);
		});
	});

	describe("Confirm With HaiPay's queries", () => {
		const trigger = outcomeTrigger();
		afterEach(() => jest.restoreAllMocks());

		/** The gateway's first answer: HaiPay busy for a second, while the wall clock jumps `ms`; then `order` confirmed. */
		const busyThenConfirming = (order: Record<string, unknown>, ms: number): Answering => {
			let asked = 0;
			const confirming = signedAnswer({ orderId: order.orderId, orderNo: order.orderNo, amount: '1500.00', status: 2 });
			return (query, res) => {
				asked += 1;
				if (asked > 1) return confirming(query, res);
				stepWallClock(ms);
				unavailable('1')(query, res);
			};
		};

		it.each([
			['an hour ahead', HOUR],
			['an hour back', -HOUR],
		])(
			'with the wall clock stepped %s during the first query, wait out its Retry-After and ask again',
			async (_name, ms) => {
				const body = unsignedPayout({ amount: '1500.00', status: 2 });
				await trigger.confirmingAgainst(busyThenConfirming(body, ms));
				const reply = await trigger.send(body);
				expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
				expect(trigger.gateway.queries.map((query) => query.path)).toEqual(['/tzs/pay/query', '/tzs/pay/query']);
				await trigger.server.idle();
				expect(trigger.server.executions).toHaveLength(1);
			},
		);
	});
});
