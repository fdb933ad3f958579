import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { loadavg } from 'os';
import { join } from 'path';

import { onStopSignal, say } from '../playground/lib/session';
import { TreeSampler } from './proc';
import { QUEUE_BENCH_BASE, runBulkWebhook, startQueueHarness, until, type QueueHarness } from './queue-harness';
import { bulkWorkflow, guardedCallbackWorkflow, type RepeatGuard } from './queue-workflows';
import { commandLine, resultsHead, sectionMarkdown, writeResults, type Section } from './results-file';
import { BENCH_PORTS, WORK } from './stack';
import { CALLBACK_WEBHOOK_ID, PLAIN_WEBHOOK_PATH, plainWebhookWorkflow, triggerWorkflow } from './workflows';

/**
 * The queue-mode section of the benchmark (`npm run bench`, or `npm run bench:queue` alone): one stack of
 * PostgreSQL, Redis, an n8n main, workers and webhook processors, scaled between configurations. Each
 * configuration that fails becomes a row saying how, and the run goes on.
 */

const count = (name: string, fallback: number) => {
	const value = Number(process.env[name] ?? fallback);
	return Number.isInteger(value) && value > 0 ? value : fallback;
};

export const QUEUE_SETTINGS = {
	/** Bulk runs started together, and rows in each: one run executes on one worker, so workers help with several. */
	bulkRuns: count('BENCH_QUEUE_BULK_RUNS', 4),
	bulkRows: count('BENCH_QUEUE_BULK_ROWS', 500),
	latencyMs: 50,
	callbacks: count('BENCH_QUEUE_CALLBACKS', 400),
	concurrency: 20,
	/** Distinct callbacks per repeat-detection measurement; each is delivered twice. */
	repeats: count('BENCH_QUEUE_REPEATS', 100),
};

export type Outcome<T> = (T & { error?: undefined }) | { error: string };

export interface Layout {
	workers: number;
	webhooks: number;
}

export interface PayoutRow extends Layout {
	figures: Outcome<{ rows: number; seconds: number; payoutsPerSecond: number; cpuMsPerPayout: number; ranOn: string[] }>;
}

/** CPU ms per callback by where it was spent. */
export interface CpuSplit {
	main: number;
	webhooks: number;
	workers: number;
	database: number;
}

export interface CallbackRow extends Layout {
	workflow: 'trigger' | 'webhook';
	figures: Outcome<{
		sent: number;
		acknowledged: number;
		acceptedPerSecond: number;
		executions: number;
		drainSeconds: number;
		executionsPerSecond: number;
		cpuMsPerCallback: number;
		cpu: CpuSplit;
	}>;
}

/** How the second delivery of each callback arrives: on the other processor after the first ran, or together with it. */
export type RepeatScenario = 'later' | 'together';

export interface RepeatRow {
	guard: RepeatGuard;
	scenario: RepeatScenario;
	figures: Outcome<{ distinct: number; deliveries: number; acknowledged: number; executions: number; effects: number; duplicates: number; missing: number }>;
}

export interface QueueFigures {
	settings: typeof QUEUE_SETTINGS;
	loadBefore: number[];
	payouts: PayoutRow[];
	callbacks: CallbackRow[];
	repeats: RepeatRow[];
	/** Whether the trigger of this tree has the "Confirm With HaiPay" option (measured as a row when it has). */
	confirmOption: boolean;
	minutes: number;
}

const failure = (error: unknown) => ({ error: ((error as Error).message ?? String(error)).split('\n')[0].slice(0, 300) });

/** Samples CPU of every process of the stack, grouped as the table shows it. */
function sampleStack(h: QueueHarness): () => CpuSplit & { total: number } {
	const groups: Array<[keyof CpuSplit, number[]]> = [
		['main', [h.stack.main.server.pid]],
		['webhooks', h.stack.webhooks.map((p) => p.server.pid)],
		['workers', h.stack.workers.map((p) => p.server.pid)],
		['database', [h.stack.postgres.pid, h.stack.redis.pid]],
	];
	const samplers = groups.map(([group, pids]) => [group, pids.map((pid) => new TreeSampler(pid, 250).begin())] as const);
	return () => {
		const out: CpuSplit & { total: number } = { main: 0, webhooks: 0, workers: 0, database: 0, total: 0 };
		for (const [group, list] of samplers) for (const sampler of list) out[group] += sampler.end().cpuMs;
		out.total = out.main + out.webhooks + out.workers + out.database;
		return out;
	};
}

async function payouts(h: QueueHarness, path: string, layout: Layout, tag: string): Promise<PayoutRow['figures']> {
	const { bulkRuns, bulkRows } = QUEUE_SETTINGS;
	const before = new Set(h.stack.sql(`SELECT id FROM execution_entity`).map(([id]) => id));
	const stop = sampleStack(h);
	const started = Date.now();
	const answers = await Promise.all(Array.from({ length: bulkRuns }, (_, i) => runBulkWebhook(h.stack.webhookUrl, path, bulkRows, `${tag}R${i}`)));
	const seconds = (Date.now() - started) / 1000;
	const cpu = stop();
	const failed = answers.find((a) => a.status !== 200);
	if (failed) throw new Error(`a run answered HTTP ${failed.status}: ${failed.body.slice(0, 200)}`);
	const rows = bulkRuns * bulkRows;
	const orders = h.sandbox.control.orders().filter((o) => o.orderId.startsWith(`${tag}R`)).length;
	if (orders !== rows) throw new Error(`${orders} orders for ${rows} rows`);
	const runs = h.stack.sql(`SELECT id FROM execution_entity`).map(([id]) => id).filter((id) => !before.has(id));
	const ranOn = [...new Set(runs.flatMap((id) => h.stack.workersThatRan(id)))].sort();
	say(`  ${layout.workers} worker(s): ${rows} payouts in ${seconds.toFixed(1)} s, ${(rows / seconds).toFixed(1)}/s, on ${ranOn.join(' and ')}`);
	return { rows, seconds, payoutsPerSecond: rows / seconds, cpuMsPerPayout: cpu.total / rows, ranOn };
}

async function callbacks(h: QueueHarness, workflowId: string, url: string, runId: string): Promise<CallbackRow['figures']> {
	const n = QUEUE_SETTINGS.callbacks;
	const warm = await h.sendCallbacks(url, { count: 10, runId: `${runId}W`, concurrency: 5 });
	const base = (await h.settled(workflowId, h.counts(workflowId).total)).total;
	if (warm.acknowledged !== 10) throw new Error(`warm-up: ${warm.acknowledged} of 10 acknowledged (${warm.firstOther})`);
	const stop = sampleStack(h);
	const started = Date.now();
	const sent = await h.sendCallbacks(url, { count: n, runId, concurrency: QUEUE_SETTINGS.concurrency });
	const done = await h.settled(workflowId, base + sent.acknowledged, 900_000);
	const drainSeconds = (Date.now() - started) / 1000;
	const cpu = stop();
	const executions = done.total - base;
	say(`  ${sent.acknowledged}/${n} acknowledged at ${sent.perSecond.toFixed(1)}/s, ${executions} executions in ${drainSeconds.toFixed(1)} s, ${(cpu.total / n).toFixed(0)} CPU ms each`);
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
async function repeats(h: QueueHarness, guard: RepeatGuard, scenario: RepeatScenario, runId: string, webhookId: string, workflowId: string, label: string): Promise<RepeatRow['figures']> {
	const n = QUEUE_SETTINGS.repeats;
	const [one, two] = h.stack.webhooks.map((p) => `${p.server.url}/webhook/${webhookId}/webhook`);
	const base = h.counts(workflowId).total;
	const orders = h.seedOrders(n, runId);
	let acknowledged = 0;
	if (scenario === 'later') {
		const first = await h.deliver(one, orders, 10);
		if (first.acknowledged !== n) throw new Error(`first deliveries: ${first.acknowledged} of ${n} acknowledged (${first.firstOther})`);
		await h.settled(workflowId, base + 1);
		await until('the business steps of the first deliveries', () => (h.effects.of(label).distinct >= n ? true : undefined), 300_000);
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
	return { distinct: n, deliveries: 2 * n, acknowledged, executions, effects: effects.total, duplicates: effects.total - effects.distinct, missing: n - effects.distinct };
}

/** Whether the trigger in dist/ has the "Confirm With HaiPay" parameter (added by another change). */
function hasConfirmOption(): boolean {
	try {
		return readFileSync(join(__dirname, '..', 'dist', 'nodes', 'HaiPayTrigger', 'description.js'), 'utf8').includes('confirmWithHaiPay');
	} catch {
		return false;
	}
}

export async function runQueueBench(onStack?: (stop: () => Promise<void>) => void): Promise<QueueFigures> {
	const started = Date.now();
	const loadBefore = loadavg().map((value) => Math.round(value * 100) / 100);
	const dir = join(WORK, 'queue');
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	say('queue mode: starting PostgreSQL, Redis, an n8n main, 2 workers and 2 webhook processors ...');
	const h = await startQueueHarness({ base: QUEUE_BENCH_BASE, dir, workers: 2, webhooks: 2, log: say, logLevel: 'info' });
	onStack?.(() => h.stop());
	const figures: QueueFigures = { settings: QUEUE_SETTINGS, loadBefore, payouts: [], callbacks: [], repeats: [], confirmOption: hasConfirmOption(), minutes: 0 };
	try {
		const attempt = async <T>(what: string, layout: Layout | undefined, run: () => Promise<T>): Promise<Outcome<T>> => {
			try {
				if (layout) await h.stack.scale(layout);
				return (await run()) as Outcome<T>;
			} catch (error) {
				say(`  ${what} failed: ${(error as Error).message.split('\n')[0]}`);
				return failure(error);
			}
		};
		const bulkPath = 'bench-queue-bulk';
		await h.addWorkflow(bulkWorkflow(bulkPath), true);
		h.sandbox.control.setConfig({ latencyMs: QUEUE_SETTINGS.latencyMs });
		for (const layout of [
			{ workers: 1, webhooks: 1 },
			{ workers: 2, webhooks: 1 },
		]) {
			say(`queue mode: ${QUEUE_SETTINGS.bulkRuns} bulk runs of ${QUEUE_SETTINGS.bulkRows} rows at once, ${layout.workers} worker(s) ...`);
			figures.payouts.push({ ...layout, figures: await attempt('bulk runs', layout, () => payouts(h, bulkPath, layout, `QP${layout.workers}`)) });
		}
		h.sandbox.control.setConfig({ latencyMs: 0 });

		await h.stack.scale({ workers: 2, webhooks: 2 });
		const triggerId = await h.addWorkflow(triggerWorkflow(), true);
		const plainId = await h.addWorkflow(plainWebhookWorkflow(), true);
		const layouts: Array<{ workflow: CallbackRow['workflow'] } & Layout> = [
			{ workflow: 'trigger', workers: 1, webhooks: 1 },
			{ workflow: 'trigger', workers: 2, webhooks: 1 },
			{ workflow: 'trigger', workers: 2, webhooks: 2 },
			{ workflow: 'webhook', workers: 2, webhooks: 1 },
			{ workflow: 'webhook', workers: 2, webhooks: 2 },
		];
		for (const [i, { workflow, ...layout }] of layouts.entries()) {
			say(`queue mode: ${QUEUE_SETTINGS.callbacks} callbacks into ${workflow === 'trigger' ? 'the HaiPay Trigger' : "n8n's Webhook node"}, ${layout.workers} worker(s), ${layout.webhooks} webhook processor(s) ...`);
			const url = `${h.stack.webhookUrl}/webhook/${workflow === 'trigger' ? `${CALLBACK_WEBHOOK_ID}/webhook` : PLAIN_WEBHOOK_PATH}`;
			const result = await attempt('callbacks', layout, () => callbacks(h, workflow === 'trigger' ? triggerId : plainId, url, `QCB${i}`));
			figures.callbacks.push({ workflow, ...layout, figures: result });
		}

		await h.stack.scale({ workers: 2, webhooks: 2 });
		const guards: RepeatGuard[] = ['none', 'trigger', 'removeDuplicates', 'both', ...(figures.confirmOption ? (['confirm'] as const) : [])];
		for (const [i, guard] of guards.entries()) {
			for (const scenario of ['later', 'together'] as const) {
				const label = `${guard}-${scenario}`;
				const webhookId = `bench-queue-repeat-${label}`.toLowerCase();
				say(`queue mode: repeat detection across 2 webhook processors, ${guard}, ${scenario} ...`);
				const result = await attempt('repeat detection', undefined, async () => {
					const workflowId = await h.addWorkflow(guardedCallbackWorkflow(guard, webhookId, h.effects.url(label)), true);
					return repeats(h, guard, scenario, `QR${i}${scenario === 'later' ? 'L' : 'T'}`, webhookId, workflowId, label);
				});
				figures.repeats.push({ guard, scenario, figures: result });
			}
		}
	} finally {
		await h.stop();
	}
	figures.minutes = (Date.now() - started) / 60_000;
	return figures;
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);

const GUARD_TEXT: Record<RepeatGuard, string> = {
	none: 'nothing (the trigger\'s "Ignore Repeated Callbacks" off)',
	trigger: 'the HaiPay Trigger\'s repeat memory (workflow static data; its default)',
	removeDuplicates: "n8n's Remove Duplicates node after the trigger (history across executions, in PostgreSQL), the trigger's memory off",
	both: "the trigger's repeat memory and Remove Duplicates after it",
	confirm: 'the HaiPay Trigger with "Confirm With HaiPay" on, its repeat memory on',
};

/** The queue-mode section of bench/results.md, headed with the run's date and command. */
export function queueSection(f: QueueFigures, date: string, command: string): Section {
	return { id: 'queue', title: 'Queue mode', date, command, minutes: f.minutes, body: queueMarkdown(f) };
}

export function queueMarkdown(f: QueueFigures): string {
	const s = f.settings;
	const lines = [
		`n8n in queue mode on this machine: PostgreSQL and Redis, an n8n main, workers (\`n8n worker --concurrency=10\`) and webhook processors behind a round-robin balancer, scaled between rows. CPU is utime+stime of every process tree of the stack (n8n processes with their task runners, PostgreSQL, Redis), per payout or per callback. Load average before this section: ${f.loadBefore.join(', ')}.`,
		'',
		`Bulk payouts: ${s.bulkRuns} runs of ${f0(s.bulkRows)} rows started together through a webhook (the benchmark's HaiPay workflow, 16 in flight per HaiPay node), the sandbox answering in ${s.latencyMs} ms. One run executes on one worker; a second worker takes other runs.`,
		'',
		'| workers | webhook processors | payouts | wall s | payouts/s | CPU ms/payout | ran on |',
		'|---:|---:|---:|---:|---:|---:|---|',
		...f.payouts.map((r) =>
			r.figures.error !== undefined
				? `| ${r.workers} | ${r.webhooks} | failed: ${r.figures.error} | | | | |`
				: `| ${r.workers} | ${r.webhooks} | ${f0(r.figures.rows)} | ${f1(r.figures.seconds)} | ${f1(r.figures.payoutsPerSecond)} | ${r.figures.cpuMsPerPayout.toFixed(2)} | ${r.figures.ranOn.join(', ')} |`,
		),
		'',
		`Callbacks: ${f0(s.callbacks)} distinct signed payout callbacks, ${s.concurrency} at a time, through the balancer into a workflow of one node: the HaiPay Trigger (signature check, repeat memory), or n8n's Webhook node answering SUCCESS (no check). Accepted/s counts SUCCESS answers over the client's time; executions/s runs until the last execution ended on a worker.`,
		'',
		'| workflow | workers | webhook processors | answers | accepted/s | executions | executions/s | CPU ms/callback | of which webhook processors / workers / main / PostgreSQL+Redis |',
		'|---|---:|---:|---|---:|---:|---:|---:|---|',
		...f.callbacks.map((r) => {
			const what = r.workflow === 'trigger' ? 'HaiPay Trigger' : "n8n's Webhook node";
			if (r.figures.error !== undefined) return `| ${what} | ${r.workers} | ${r.webhooks} | failed: ${r.figures.error} | | | | | |`;
			const c = r.figures.cpu;
			return `| ${what} | ${r.workers} | ${r.webhooks} | ${f0(r.figures.acknowledged)} of ${f0(r.figures.sent)} SUCCESS | ${f1(r.figures.acceptedPerSecond)} | ${f0(r.figures.executions)} | ${f1(r.figures.executionsPerSecond)} | ${f0(r.figures.cpuMsPerCallback)} | ${f0(c.webhooks)} / ${f0(c.workers)} / ${f0(c.main)} / ${f0(c.database)} |`;
		}),
		'',
		`Repeat detection across processes: ${f0(s.repeats)} distinct callbacks, each delivered twice with 2 webhook processors. "later": all to processor 1, and once their executions ended, all again to processor 2 (a HaiPay retry landing on the other process). "together": each to both processors at the same moment. The workflow ends in a business step (an HTTP request to a counter); a duplicate is a business step run a second time for the same orderNo and status.`,
		'',
		'| what keeps repeats out | second delivery | SUCCESS answers | executions | business steps | duplicates | payments never handled |',
		'|---|---|---:|---:|---:|---:|---:|',
		...f.repeats.map((r) =>
			r.figures.error !== undefined
				? `| ${GUARD_TEXT[r.guard]} | ${r.scenario} | failed: ${r.figures.error} | | | | |`
				: `| ${GUARD_TEXT[r.guard]} | ${r.scenario} | ${f0(r.figures.acknowledged)} of ${f0(r.figures.deliveries)} | ${f0(r.figures.executions)} | ${f0(r.figures.effects)} | ${f0(r.figures.duplicates)} | ${f0(r.figures.missing)} |`,
		),
		...(f.confirmOption ? [] : ['', 'The trigger in this tree has no "Confirm With HaiPay" option yet: no row for it.']),
	];
	return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
	let stopStack: (() => Promise<void>) | undefined;
	onStopSignal(async (signal) => {
		say(`${signal}: stopping the queue stack`);
		await stopStack?.();
	});
	const figures = await runQueueBench((stop) => (stopStack = stop));
	const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
	const section = queueSection(figures, date, commandLine('npm run bench:queue'));
	writeResults([section], resultsHead(BENCH_PORTS));
	mkdirSync(WORK, { recursive: true });
	writeFileSync(join(WORK, 'results-queue.json'), `${JSON.stringify({ date, ...figures }, null, 2)}\n`);
	say('');
	say(sectionMarkdown(section));
	say('written to bench/results.md (section "Queue mode"; the other sections kept)');
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`${error.stack ?? error.message}\n`);
		process.exit(1);
	});
}
