/**
 * The HaiPay Trigger never answers SUCCESS for a result whose workflow did not start. n8n answers an emitting
 * request with 2xx only once the execution is stored; until then the result is pending: a copy that arrives waits
 * for the outcome (within its 10-second answer deadline), and a first delivery that ends without a 2xx, however it
 * ends, is taken back out of the repeat memory. Over real HTTP into n8n-core's webhook machinery (test/harness),
 * whose execution starts can be held and made to fail as a slow or failing database does.
 */
import { request } from 'http';

import { sleep } from 'n8n-workflow';

import { ANSWER_DEADLINE_MS } from '../../nodes/HaiPayTrigger/confirm';
import { setMemoryClock, UNANSWERED_MS } from '../../nodes/HaiPayTrigger/memory';
import { STILL_STORING } from '../../nodes/HaiPayTrigger/reply';
import type { WebhookServer } from '../harness';
import {
	deliver,
	expectAcknowledgedOnly,
	expectEmitted,
	freshOrder,
	payoutCallback,
	serveTrigger,
	signedByPlatform,
	TRIGGER,
	monotonicNow,
	stepMemoryClockPerDelivery,
	stepMonotonicClock,
} from './callbacks';

/** Posts `body` and returns what hangs up: HaiPay's client giving up before n8n answers. */
function postThenHangUp(url: string, body: unknown): () => void {
	const payload = JSON.stringify(body);
	const client = request(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
	});
	client.on('error', () => undefined);
	client.end(payload);
	return () => client.destroy();
}

/** Time for a request to reach the point where it waits (a copy on its first delivery, a server on a closed socket). */
const SETTLE_MS = 300;

describe('HaiPay Trigger: a result is pending until n8n has started its workflow', () => {
	let server: WebhookServer;
	let offset = 0;
	const holds: Array<{ release(): void }> = [];
	/** Holds the server's execution starts; released at the latest when the test ends, so that the server can close. */
	const holdStarts = () => {
		const hold = server.holdExecutionStarts();
		holds.push(hold);
		return hold;
	};
	/** Posts `body` with its start held (and set to fail), then hangs up as HaiPay does at its timeout. */
	const hangUpWhileStarting = async (body: unknown) => {
		server.failExecutionStarts(1);
		const hold = holdStarts();
		const hangUp = postThenHangUp(server.url(TRIGGER), body);
		await hold.reached;
		hangUp();
		await sleep(SETTLE_MS);
		return hold;
	};
	/** Posts `body`, holds its execution's start, then posts a copy of it, which waits for the first. */
	const copyWhileStoring = async (body: unknown) => {
		const hold = holdStarts();
		const first = server.send(TRIGGER, body, { waitForExecutions: false });
		await hold.reached;
		const copy = server.send(TRIGGER, body, { waitForExecutions: false });
		await sleep(SETTLE_MS);
		return { hold, first, copy };
	};
	beforeEach(async () => {
		server = await serveTrigger();
		offset = 0;
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		stepMemoryClockPerDelivery();
		for (const hold of holds.splice(0)) hold.release();
		await server.close();
	});
	const callback = () => signedByPlatform(payoutCallback(freshOrder()));

	it('a first delivery whose start fails after HaiPay hung up is not remembered: the resend runs', async () => {
		const body = callback();
		const hold = await hangUpWhileStarting(body);
		hold.release();
		await server.waitForCalls(1);
		// n8n wrote its 500 to a connection already closed: no `finish` ever came for it.
		expect(server.calls[0].statusCode).toBe(500);
		expect(server.executions).toHaveLength(0);
		expectEmitted(await deliver(server, body));
		expectAcknowledgedOnly(await deliver(server, body));
		expect(server.executions).toHaveLength(1);
	});

	it('a copy arriving while the first is being stored waits; the first fails to start, so the copy runs', async () => {
		const body = callback();
		server.failExecutionStarts(1);
		const { hold, first, copy } = await copyWhileStoring(body);
		hold.release();
		const [firstReply, copyReply] = await Promise.all([first, copy]);
		await server.idle();
		expect(firstReply.status).toBe(500);
		expect([copyReply.status, copyReply.text]).toEqual([200, 'SUCCESS']);
		// The copy's SUCCESS is n8n's, for the run it started: not an acknowledgement of a run that never was.
		expect(server.executions).toHaveLength(1);
		expect(server.executions[0].call.rawBody.toString()).toBe(JSON.stringify(body));
		// HaiPay's resend of it now is a repeat: one execution in all.
		expectAcknowledgedOnly(await deliver(server, body));
		expect(server.executions).toHaveLength(1);
	});

	it('a copy arriving while the first is being stored is acknowledged once the first has started', async () => {
		const body = callback();
		const { hold, first, copy } = await copyWhileStoring(body);
		hold.release();
		expect((await Promise.all([first, copy])).map((reply) => reply.text)).toEqual(['SUCCESS', 'SUCCESS']);
		await server.idle();
		expect(server.executions).toHaveLength(1);
		expect(JSON.stringify(server.calls[1].logs)).toMatch(/repeated callback/);
	});

	it('a copy still waiting for the first at its answer deadline gets 503, so HaiPay sends it again', async () => {
		const body = callback();
		const { hold, first, copy } = await copyWhileStoring(body);
		stepMonotonicClock(ANSWER_DEADLINE_MS);
		const late = await copy;
		jest.restoreAllMocks();
		expect(late.status).toBe(503);
		expect(late.text).toBe(STILL_STORING);
		expect(JSON.stringify(server.calls[1].logs)).toMatch(
			/answered a callback with 503.*n8n is still storing its execution/,
		);
		hold.release();
		expect((await first).text).toBe('SUCCESS');
		await server.idle();
		expect(server.executions).toHaveLength(1);
		expectAcknowledgedOnly(await deliver(server, body));
	});

	it('a first delivery whose connection closed with no answer from n8n is given up after a bound: a copy then runs', async () => {
		setMemoryClock(() => monotonicNow() + offset);
		const body = callback();
		const hold = await hangUpWhileStarting(body);
		offset = UNANSWERED_MS;
		// n8n still has not answered the first (its start is held): the copy no longer waits for it, and goes on to
		// start its own run (held too, behind the first, whose start then fails).
		const copy = server.send(TRIGGER, body, { waitForExecutions: false });
		await sleep(SETTLE_MS);
		hold.release();
		expect(await copy).toMatchObject({ status: 200, text: 'SUCCESS' });
		await server.idle();
		expect(server.calls[0].statusCode).toBe(500);
		expect(server.executions).toHaveLength(1);
		expectAcknowledgedOnly(await deliver(server, body));
		expect(server.executions).toHaveLength(1);
	});

	it('a first delivery n8n never answers, its connection still open, is given up after twice the bound: a copy then runs', async () => {
		setMemoryClock(() => monotonicNow() + offset);
		const body = callback();
		server.failExecutionStarts(1);
		const hold = holdStarts();
		const first = server.send(TRIGGER, body, { waitForExecutions: false });
		await hold.reached;
		offset = 2 * UNANSWERED_MS - 1_000;
		// Not yet: a copy inside the bound still waits for the first, and gets 503 at its deadline.
		const early = server.send(TRIGGER, body, { waitForExecutions: false });
		await sleep(SETTLE_MS);
		stepMonotonicClock(ANSWER_DEADLINE_MS);
		expect((await early).status).toBe(503);
		jest.restoreAllMocks();
		offset = 2 * UNANSWERED_MS;
		const copy = server.send(TRIGGER, body, { waitForExecutions: false });
		// The copy no longer waits for the first: it emits, and its own start comes to the hold behind the first's
		// (a copy that waited for the first would stay away from it for its whole 10-second deadline).
		for (const giveUp = Date.now() + 5_000; hold.waiting() < 2 && Date.now() < giveUp;) await sleep(50);
		expect(hold.waiting()).toBe(2);
		hold.release();
		expect((await first).status).toBe(500);
		expect(await copy).toMatchObject({ status: 200, text: 'SUCCESS' });
		await server.idle();
		expect(server.executions).toHaveLength(1);
		expectAcknowledgedOnly(await deliver(server, body));
	});
});
