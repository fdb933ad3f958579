import { say } from '../playground/lib/session';
import { TreeSampler } from './proc';
import {
	QUEUE_SETTINGS,
	type CallbackRow,
	type CpuSplit,
	type Layout,
	type PayoutRow,
	type RepeatRow,
	type RepeatScenario,
} from './queue-figures';
import { runBulkWebhook, type QueueHarness } from './queue-harness';
import type { RepeatGuard } from './queue-workflows';

/** The three measurements of the queue-mode section, each on a running stack: bulk payouts, callbacks, repeats. */

/** Samples CPU of every process of the stack, grouped as the table shows it. */
function sampleStack(h: QueueHarness): () => CpuSplit & { total: number } {
	const groups: Array<[keyof CpuSplit, number[]]> = [
		['main', [h.stack.main.server.pid]],
		['webhooks', h.stack.webhooks.map((p) => p.server.pid)],
		['workers', h.stack.workers.map((p) => p.server.pid)],
		['database', [h.stack.postgres.pid, h.stack.redis.pid]],
	];
	const samplers = groups.map(
		([group, pids]) => [group, pids.map((pid) => new TreeSampler(pid, 250).begin())] as const,
	);
	return () => {
		const out: CpuSplit & { total: number } = { main: 0, webhooks: 0, workers: 0, database: 0, total: 0 };
		for (const [group, list] of samplers) for (const sampler of list) out[group] += sampler.end().cpuMs;
		out.total = out.main + out.webhooks + out.workers + out.database;
		return out;
	};
}

export async function measurePayouts(
	h: QueueHarness,
	path: string,
	layout: Layout,
	tag: string,
): Promise<PayoutRow['figures']> {
	const { bulkRuns, bulkRows } = QUEUE_SETTINGS;
	const before = new Set(h.stack.sql(`SELECT id FROM execution_entity`).map(([id]) => id));
	const stop = sampleStack(h);
	const started = Date.now();
	const answers = await Promise.all(
		Array.from({ length: bulkRuns }, (_, i) => runBulkWebhook(h.stack.webhookUrl, path, bulkRows, `${tag}R${i}`)),
	);
	const seconds = (Date.now() - started) / 1000;
	const cpu = stop();
	const failed = answers.find((a) => a.status !== 200);
	if (failed) throw new Error(`a run answered HTTP ${failed.status}: ${failed.body.slice(0, 200)}`);
	const rows = bulkRuns * bulkRows;
	const orders = h.sandbox.control.orders().filter((o) => o.orderId.startsWith(`${tag}R`)).length;
	if (orders !== rows) throw new Error(`${orders} orders for ${rows} rows`);
	const runs = h.stack
		.sql(`SELECT id FROM execution_entity`)
		.map(([id]) => id)
		.filter((id) => !before.has(id));
	const ranOn = [...new Set(runs.flatMap((id) => h.stack.workersThatRan(id)))].sort();
	say(
		`  ${layout.workers} worker(s): ${rows} payouts in ${seconds.toFixed(1)} s, ${(rows / seconds).toFixed(1)}/s, on ${ranOn.join(' and ')}`,
	);
	return { rows, seconds, payoutsPerSecond: rows / seconds, cpuMsPerPayout: cpu.total / rows, ranOn };
}

export async function measureCallbacks(
	h: QueueHarness,
	workflowId: string,
	url: string,
	runId: string,
): Promise<CallbackRow['figures']> {
	const n = QUEUE_SETTINGS.callbacks;
	const warm = await h.sendCallbacks(url, { count: 10, runId: `${runId}W`, concurrency: 5 });
	const base = (await h.settled(workflowId, h.counts(workflowId).total)).total;
	if (warm.acknowledged !== 10)
		throw new Error(`warm-up: ${warm.acknowledged} of 10 acknowledged (${warm.firstOther})`);
	const stop = sampleStack(h);
	const started = Date.now();
	const sent = await h.sendCallbacks(url, { count: n, runId, concurrency: QUEUE_SETTINGS.concurrency });
	const done = await h.settled(workflowId, base + sent.acknowledged, 900_000);
	const drainSeconds = (Date.now() - started) / 1000;
	const cpu = stop();
	const executions = done.total - base;
	say(
		`  ${sent.acknowledged}/${n} acknowledged at ${sent.perSecond.toFixed(1)}/s, ${executions} executions in ${drainSeconds.toFixed(1)} s, ${(cpu.total / n).toFixed(0)} CPU ms each`,
	);
	return {
		sent: n,
		acknowledged: sent.acknowledged,
		acceptedPerSecond: sent.acknowledged / sent.seconds,
		executions,
		drainSeconds,
		executionsPerSecond: executions / drainSeconds,
		cpuMsPerCallback: cpu.total / n,
		cpu: { main: cpu.main / n, webhooks: cpu.webhooks / n, workers: cpu.workers / n, database: cpu.database / n },
	};
}

/**
 * Each of `repeats` distinct callbacks delivered twice, with 2 webhook processors: `later` sends all to processor 1,
 * waits until their executions ended, then sends them again to processor 2, as a HaiPay retry 5 minutes later
 * can land on the other process; `together` sends each to both processors at once.
 */
export async function measureRepeats(
	h: QueueHarness,
	guard: RepeatGuard,
	scenario: RepeatScenario,
	runId: string,
	webhookId: string,
	workflowId: string,
	label: string,
): Promise<RepeatRow['figures']> {
	const n = QUEUE_SETTINGS.repeats;
	const [one, two] = h.stack.webhooks.map((p) => `${p.server.url}/webhook/${webhookId}/webhook`);
	const base = h.counts(workflowId).total;
	const orders = h.seedOrders(n, runId);
	let acknowledged = 0;
	if (scenario === 'later') {
		const first = await h.deliver(one, orders, 10);
		if (first.acknowledged !== n)
			throw new Error(`first deliveries: ${first.acknowledged} of ${n} acknowledged (${first.firstOther})`);
		// Every first delivery starts an execution, whatever the guard; once they have all ended, so have their
		// business steps (one a guard dropped is counted as never handled, not waited for).
		await h.settled(workflowId, base + n);
		const second = await h.deliver(two, orders, 10);
		acknowledged = first.acknowledged + second.acknowledged;
	} else {
		const both = await Promise.all([one, two].map((url) => h.deliver(url, orders, 10)));
		acknowledged = both[0].acknowledged + both[1].acknowledged;
	}
	// Every delivery answered; what started has to end before the business steps are counted.
	const done = await h.settled(workflowId, base + 1);
	const executions = done.total - base;
	const effects = h.effects.of(label);
	say(`  ${guard}, ${scenario}: ${executions} executions, ${effects.total} business steps for ${n} payments`);
	return {
		distinct: n,
		deliveries: 2 * n,
		acknowledged,
		executions,
		effects: effects.total,
		duplicates: effects.total - effects.distinct,
		missing: n - effects.distinct,
	};
}
