/**
 * n8n's queue mode with this package (`npm run test:queue`): PostgreSQL, Redis, a main process, 2 workers and 2
 * webhook processors behind a round-robin balancer, the sandbox over HTTP. One stack for the file; the tests run
 * in order and each waits on a condition (an answer, a count in n8n's database, a process gone), never on a clock.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	QUEUE_TEST_BASE,
	runBulkWebhook,
	startQueueHarness,
	until,
	type QueueHarness,
} from '../../bench/queue-harness';
import { bulkWorkflow, exactlyOnceExample, guardedCallbackWorkflow } from '../../bench/queue-workflows';
import { CALLBACK_WEBHOOK_ID, triggerWorkflow } from '../../bench/workflows';
import { EXACTLY_ONCE_DATABASE } from '../../playground/examples';

const ROWS = Number(process.env.HAIPAY_QUEUE_TEST_ROWS ?? 2_000);
const CALLBACKS = Number(process.env.HAIPAY_QUEUE_TEST_CALLBACKS ?? 2_000);
/** Distinct callbacks of the exactly-once test; each is delivered three times. */
const ONCE = Number(process.env.HAIPAY_QUEUE_TEST_ONCE ?? 2_000);
const FORGED = 200;
/** Callbacks sent to one webhook processor, then again to the other. */
const ACROSS = Number(process.env.HAIPAY_QUEUE_TEST_ACROSS ?? 500);
const log = (line: string) => process.stdout.write(`${line}\n`);

let harness: QueueHarness;
let work: string;
let bulkId: string;

function ordersOf(tag: string): { count: number; distinct: number } {
	const ids = harness.sandbox.control
		.orders()
		.map((order) => order.orderId)
		.filter((orderId) => orderId.startsWith(`${tag}-`));
	return { count: ids.length, distinct: new Set(ids).size };
}

beforeAll(async () => {
	// playground/queue/ci-queue.sh names the folder, to find and stop whatever is left should this process die.
	work = process.env.HAIPAY_QUEUE_TEST_DIR
		? join(process.env.HAIPAY_QUEUE_TEST_DIR, 'stack')
		: mkdtempSync(join(tmpdir(), 'haipay-queue-'));
	mkdirSync(work, { recursive: true });
	// PostgreSQL runs as its own user when this runs as root: it must be able to enter the folder.
	chmodSync(work, 0o755);
	harness = await startQueueHarness({ base: QUEUE_TEST_BASE, dir: work, workers: 2, webhooks: 2, log, build: false });
	bulkId = await harness.addWorkflow(bulkWorkflow('queue-bulk'), true);
}, 600_000);

afterAll(async () => {
	await harness?.stop();
	if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

test(`a bulk run of ${ROWS} rows executes on one worker, every row accounted for exactly once`, async () => {
	const answer = await runBulkWebhook(harness.stack.webhookUrl, 'queue-bulk', ROWS, 'QB1');
	expect(answer.status).toBe(200);

	const [execution] = harness.executions(bulkId);
	expect(execution.status).toBe('success');
	const ranOn = harness.stack.workersThatRan(execution.id);
	log(`bulk run: execution ${execution.id} ran on ${ranOn.join(', ')}`);
	expect(ranOn).toHaveLength(1);
	expect(['worker-1', 'worker-2']).toContain(ranOn[0]);
	// Not on the main or a webhook processor: their logs never start an execution in queue mode.
	expect(harness.sandbox.appliesReceived()).toBe(ROWS);

	const outcomes = await harness.outcomes(execution.id);
	expect(outcomes).toEqual({ accepted: ROWS });
	expect(ordersOf('QB1')).toEqual({ count: ROWS, distinct: ROWS });
});

test(`${CALLBACKS} distinct signed callbacks through the webhook processors run once each; resent, 0 new executions; forged, 0 executions`, async () => {
	const triggerId = await harness.addWorkflow(triggerWorkflow(), true);
	const url = `${harness.stack.webhookUrl}/webhook/${CALLBACK_WEBHOOK_ID}/webhook`;
	const before = new Map(harness.stack.balancer.counts);

	const first = await harness.sendCallbacks(url, { count: CALLBACKS, runId: 'QC1' });
	log(
		`callbacks: ${first.acknowledged} of ${first.sent} acknowledged at ${first.perSecond.toFixed(1)}/s${first.other > 0 ? `, ${first.other} not (${first.firstOther})` : ''}`,
	);
	expect(first.refused).toBe(0);
	const afterFirst = await harness.settled(triggerId, first.acknowledged);
	// Every acknowledged callback ran; one whose answer was lost on the way may have run as well, none twice.
	expect(afterFirst.total).toBeGreaterThanOrEqual(first.acknowledged);
	expect(afterFirst.total).toBeLessThanOrEqual(CALLBACKS);
	for (const processor of harness.stack.webhooks) {
		expect(
			(harness.stack.balancer.counts.get(processor.server.url) ?? 0) - (before.get(processor.server.url) ?? 0),
		).toBeGreaterThan(0);
	}

	// HaiPay resends what it did not see acknowledged, and a retry may come for one whose answer was lost.
	const resent = await harness.sendCallbacks(url, { count: CALLBACKS, runId: 'QC1' });
	log(`resent: ${resent.acknowledged} of ${resent.sent} acknowledged at ${resent.perSecond.toFixed(1)}/s`);
	expect(resent.refused).toBe(0);
	const afterResend = await harness.settled(triggerId, CALLBACKS);
	expect(afterResend).toEqual({ total: CALLBACKS, active: 0, success: CALLBACKS, failed: 0 });

	const forged = await harness.sendCallbacks(url, { count: FORGED, runId: 'QC2', forged: true });
	expect(forged.refused).toBe(FORGED);
	expect(harness.counts(triggerId).total).toBe(CALLBACKS);
});

test(`${ACROSS} callbacks taken by one webhook processor, sent again later to the other: the other knows every one, 0 new executions`, async () => {
	// The memory crosses processes only through the static data n8n stores; n8n 2.x would drop the change that a
	// request starting an execution made (nodes/HaiPayTrigger/hooks.ts `carrying`), and each processor would know only its own.
	const label = 'across';
	const hook = 'queue-across';
	const workflowId = await harness.addWorkflow(
		guardedCallbackWorkflow('trigger', hook, harness.effects.url(label)),
		true,
	);
	const [one, two] = harness.stack.webhooks.map((p) => `${p.server.url}/webhook/${hook}/webhook`);
	const orders = harness.seedOrders(ACROSS, 'QA');

	const first = await harness.deliver(one, orders, 20);
	expect(first.acknowledged).toBe(ACROSS);
	// n8n answers each callback once its execution is stored, and the request holding the memory's last save answers
	// once that save is stored too: nothing the second processor reads can predate it.
	expect(await harness.settled(workflowId, ACROSS)).toEqual({ total: ACROSS, active: 0, success: ACROSS, failed: 0 });

	const later = await harness.deliver(two, orders, 20);
	expect(later.acknowledged).toBe(ACROSS);
	const after = await harness.settled(workflowId, ACROSS);
	log(
		`across processors: ${ACROSS} callbacks on one processor, then again on the other: ${after.total - ACROSS} more executions`,
	);
	expect(after.total).toBe(ACROSS);
	expect(harness.effects.of(label)).toEqual({ total: ACROSS, distinct: ACROSS });
});

test(`exactly once (examples/5-exactly-once-callbacks.json): ${ONCE} distinct callbacks, each also delivered at the same moment on the other webhook processor and again later: ${ONCE} business steps, 0 lost`, async () => {
	const label = 'exactly-once';
	const hook = 'queue-exactly-once';
	const { workflow, tableSql } = exactlyOnceExample(harness.effects.url(label), hook);
	// The example's own table, in the database the stack's Postgres credential names (the statement is idempotent).
	harness.stack.sql(tableSql, EXACTLY_ONCE_DATABASE);
	const workflowId = await harness.addWorkflow(workflow, true);
	const processors = harness.stack.webhooks.map((p) => `${p.server.url}/webhook/${hook}/webhook`);
	expect(processors).toHaveLength(2);
	const orders = harness.seedOrders(ONCE, 'QX');
	const expected = orders.map((order) => `no:${order.orderNo}|${order.status}`).sort();

	// Every callback on both processors at the same moment: two executions may claim it at once, on two workers.
	const together = await harness.deliver(processors, orders, 20);
	log(
		`exactly once, together: ${together.acknowledged} of ${2 * ONCE} acknowledged${together.other > 0 ? `, ${together.other} not (${together.firstOther})` : ''}`,
	);
	expect(together.acknowledged).toBe(2 * ONCE);
	const afterTogether = await harness.settled(workflowId, ONCE, 1_800_000);

	// HaiPay's retry, after the first deliveries ran: through the balancer, on either processor.
	const later = await harness.deliver(`${harness.stack.webhookUrl}/webhook/${hook}/webhook`, orders, 20);
	expect(later.acknowledged).toBe(ONCE);
	const done = await harness.settled(workflowId, afterTogether.total, 1_800_000);
	const steps = harness.effects.of(label);
	log(
		`exactly once: ${afterTogether.total} executions from ${2 * ONCE} simultaneous deliveries, ${done.total - afterTogether.total} more from ${ONCE} later ones; ${steps.total} business steps for ${ONCE} callbacks (${steps.total - steps.distinct} duplicates, ${ONCE - steps.distinct} lost)`,
	);
	expect(done.failed).toBe(0);
	expect(steps).toEqual({ total: ONCE, distinct: ONCE });
	expect(harness.effects.keys(label).sort()).toEqual(expected);
	// One claim per callback, each marked done after its business step.
	const claims = harness.stack.sql(
		`SELECT count(*), count(done_at) FROM haipay_callbacks WHERE order_id LIKE 'QX-%'`,
		EXACTLY_ONCE_DATABASE,
	);
	expect(claims).toEqual([[String(ONCE), String(ONCE)]]);
});

test('a worker killed with SIGKILL in the middle of a bulk run: no order twice; re-running with the same orderIds finishes it', async () => {
	// Answers take 50 ms: 16 in flight per HaiPay node pay at most 320 rows/s, so the run lasts long enough to be cut.
	harness.sandbox.control.setConfig({ latencyMs: 50 });
	const runs = harness.executions(bulkId).length;
	const cut = runBulkWebhook(harness.stack.webhookUrl, 'queue-bulk', ROWS, 'QK1').catch((error: Error) => ({
		status: 0,
		body: error.message,
	}));

	const execution = await until(
		'the bulk run to start on a worker',
		() => {
			const [newest, ...older] = harness.executions(bulkId);
			return older.length === runs && newest.status === 'running' ? newest : undefined;
		},
		120_000,
	);
	await until(
		`a fifth of the rows to reach the sandbox`,
		() => (ordersOf('QK1').count >= ROWS / 5 ? true : undefined),
		120_000,
	);
	const victim = await until(
		'the worker running it',
		() => {
			const names = harness.stack.workersThatRan(execution.id);
			return harness.stack.workers.find((w) => names.includes(w.name));
		},
		30_000,
	);
	process.kill(-victim.server.pid, 'SIGKILL');
	await until(
		`${victim.name} to be gone`,
		() => {
			try {
				process.kill(-victim.server.pid, 0);
				return undefined;
			} catch {
				return true;
			}
		},
		30_000,
	);
	// Requests already sent still get their answer from the gateway; then nothing more comes.
	await until(
		'the sandbox to have no request in flight',
		() => (harness.sandbox.control.inFlight().now === 0 ? true : undefined),
		30_000,
	);
	const atKill = ordersOf('QK1');
	log(
		`killed ${victim.name} (pid ${victim.server.pid}) running execution ${execution.id}: ${atKill.count} of ${ROWS} orders created`,
	);
	expect(atKill.count).toBeLessThan(ROWS);
	expect(atKill.distinct).toBe(atKill.count);

	// n8n does not run a stalled job again (Bull's maxStalledCount is 0 in n8n): the run stops where it was.
	// Finishing it: the same rows, the same orderIds, on the worker that is left. HaiPay refuses the ones it has.
	const rerun = await runBulkWebhook(harness.stack.webhookUrl, 'queue-bulk', ROWS, 'QK1');
	expect(rerun.status).toBe(200);
	const [finished] = harness.executions(bulkId);
	expect(finished.status).toBe('success');
	expect(await harness.outcomes(finished.id)).toEqual({ accepted: ROWS - atKill.count, duplicate: atKill.count });
	expect(ordersOf('QK1')).toEqual({ count: ROWS, distinct: ROWS });
	harness.sandbox.control.setConfig({ latencyMs: 0 });
	// The first request's answer comes when n8n gives the stalled job up, or never: the stack's stop ends it.
	void cut;
});
