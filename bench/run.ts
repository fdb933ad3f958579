import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';

import { onStopSignal, say } from '../playground/lib/session';
import { APP_IDS } from '../test/fixtures/bodies';
import { runBulk, type BulkCase, type BulkFigures } from './bulk';
import {
	CONFIRMED_CALLBACK_WEBHOOK_ID,
	confirmedTriggerWorkflow,
	measureRefusal,
	runCallbacks,
	type CallbackFigures,
	type RefusalFigures,
} from './callbacks';
import { queueMarkdown, runQueueBench, type QueueFigures } from './queue';
import { machine, markdown, targets, type Failure, type Settings } from './report';
import { measureSigning } from './signing';
import { BENCH_PORTS, startBenchStack, WORK, type BenchStack } from './stack';
import {
	baselineWorkflow,
	CALLBACK_WEBHOOK_ID,
	haiPayWorkflow,
	PLAIN_WEBHOOK_PATH,
	plainWebhookWorkflow,
	signingCode,
	triggerWorkflow,
	type Workflow,
} from './workflows';

/**
 * `npm run bench`: bulk payouts through the HaiPay node and through a hand-made Code + HTTP Request baseline,
 * signed callbacks into the HaiPay Trigger, and the signing core against openssl, on one n8n server and one
 * sandbox in one run, then the same package in n8n's queue mode (bench/queue.ts). Writes bench/results.md and
 * prints the same tables. A configuration that fails (an error answer, a crashed n8n) becomes a row saying how,
 * and the run goes on; a missed target is reported as MISS. BENCH_QUEUE=0 leaves the queue section out.
 */

const numbers = (text: string | undefined, fallback: number[]) =>
	text ? text.split(',').map((part) => Number(part.trim())).filter((n) => Number.isInteger(n) && n > 0) : fallback;

const ROWS = numbers(process.env.BENCH_ROWS, [1_000, 10_000]);
const WARMUP_ROWS = Number(process.env.BENCH_WARMUP_ROWS ?? 200);
const CALLBACKS = Number(process.env.BENCH_CALLBACKS ?? 2_000);
const FORGED = Number(process.env.BENCH_FORGED ?? 200);
/** Callbacks with Confirm With HaiPay on: each costs a gateway query, so fewer than the unconfirmed run. */
const CONFIRMED = Number(process.env.BENCH_CONFIRMED_CALLBACKS ?? 500);
const SIGNING_SECONDS = Number(process.env.BENCH_SIGNING_SECONDS ?? 3);
/** n8n's old-space limit for the capped runs, the way n8n's docs bound its memory (`--max-old-space-size`). */
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 1024);

const SETTINGS: Settings = { latencyMs: 50, inFlight: 16, limit: 0, batchInterval: 50, callbackConcurrency: 20 };
SETTINGS.limit = (SETTINGS.inFlight * 1000) / SETTINGS.latencyMs;

const CASES: BulkCase[] = [
	{ label: 'HaiPay node, concurrency 16', side: 'haipay', setting: 'tuned', path: 'bench-haipay-tuned' },
	{ label: 'HaiPay node, concurrency 16, fields from input', side: 'haipay', setting: 'input', path: 'bench-haipay-input' },
	{ label: 'Code + HTTP Request, batches of 16', side: 'baseline', setting: 'tuned', path: 'bench-baseline-tuned' },
	{ label: 'HaiPay node, default', side: 'haipay', setting: 'default', path: 'bench-haipay-default' },
	{ label: 'Code + HTTP Request, default', side: 'baseline', setting: 'default', path: 'bench-baseline-default' },
	// The same two tuned workflows again on the largest row count, with n8n's heap limited: at V8's default limit
	// the peak RSS measures when V8 chooses to collect, rather than what the run keeps.
	...(['haipay', 'baseline'] as const).map(
		(side): BulkCase => ({
			label: `${side === 'haipay' ? 'HaiPay node, concurrency 16' : 'Code + HTTP Request, batches of 16'}, n8n heap limit ${HEAP_MB} MB`,
			side,
			setting: 'tuned',
			path: `bench-${side}-tuned`,
			heapMb: HEAP_MB,
			rows: [Math.max(...ROWS)],
		}),
	),
];

async function addWorkflows(stack: BenchStack): Promise<{ triggerId: string; confirmedId: string; plainWebhookId: string }> {
	const sign = signingCode(stack.sandbox.baseUrl, { TZS: stack.merchantPrivateKey(APP_IDS.TZS), NGN: stack.merchantPrivateKey(APP_IDS.NGN) });
	// Batches of 16 started one latency apart: the HTTP Request node's way of holding about 16 in flight.
	const batching = { batchSize: SETTINGS.inFlight, batchInterval: SETTINGS.batchInterval };
	const add = async (side: BulkCase['side'], setting: BulkCase['setting'], workflow: (path: string) => Workflow) => {
		const path = `bench-${side}-${setting}`;
		const workflowId = await stack.addWorkflow(workflow(path), true);
		for (const bulkCase of CASES.filter((c) => c.path === path)) bulkCase.workflowId = workflowId;
	};
	await add('haipay', 'tuned', (path) => haiPayWorkflow(path, SETTINGS.inFlight));
	await add('haipay', 'input', (path) => haiPayWorkflow(path, SETTINGS.inFlight, 'input'));
	await add('baseline', 'tuned', (path) => baselineWorkflow(path, sign, batching));
	await add('haipay', 'default', (path) => haiPayWorkflow(path, undefined));
	await add('baseline', 'default', (path) => baselineWorkflow(path, sign, undefined));
	return {
		triggerId: await stack.addWorkflow(triggerWorkflow(), true),
		confirmedId: await stack.addWorkflow(confirmedTriggerWorkflow(), true),
		plainWebhookId: await stack.addWorkflow(plainWebhookWorkflow(), true),
	};
}

async function main(): Promise<void> {
	const started = Date.now();
	const host = machine();
	say(`machine: ${host.cores} x ${host.cpu}, load average ${host.loadBefore.join(' ')}; n8n ${host.n8n} on Node ${host.n8nNode}`);
	if (host.loadBefore[0] > 0.5) say('  note: the machine is busy before the run; every figure below is affected');

	// Alone on the machine, before n8n starts: it measures the CPU, not the scheduler.
	say(`signing core vs openssl speed rsa2048 (${SIGNING_SECONDS} s each) ...`);
	const signing = measureSigning(SIGNING_SECONDS);

	let stack: BenchStack | undefined;
	let stopQueue: (() => Promise<void>) | undefined;
	onStopSignal(async (signal) => {
		say(`${signal}: stopping n8n and the sandbox`);
		await stack?.stop();
		await stopQueue?.();
	});
	const bulk: BulkFigures[] = [];
	const failures: Failure[] = [];
	/** Runs one configuration; a failure is kept as a row and the benchmark goes on with the next. */
	const attempt = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
		try {
			return await run();
		} catch (error) {
			const message = ((error as Error).message ?? String(error)).split('\n')[0].slice(0, 300);
			say(`  failed: ${message}`);
			failures.push({ what, error: message });
			return undefined;
		}
	};
	let callbacks: CallbackFigures | undefined;
	let plainWebhook: CallbackFigures | undefined;
	let confirmed: CallbackFigures | undefined;
	let refusal: RefusalFigures | undefined;
	try {
		stack = await startBenchStack(say);
		const running = stack;
		const { triggerId, confirmedId, plainWebhookId } = await addWorkflows(stack);
		stack.sandbox.control.setConfig({ latencyMs: SETTINGS.latencyMs });

		for (const rows of ROWS) {
			for (const bulkCase of CASES.filter((c) => c.rows === undefined || c.rows.includes(rows))) {
				say(`${bulkCase.label}: ${rows.toLocaleString('en-US')} rows ...`);
				const figures = await attempt(`${bulkCase.label}, ${rows.toLocaleString('en-US')} rows`, async () => {
					// Each run in a fresh n8n process, warmed up by a small run of the same workflow: memory growth is
					// measured from a process that has not been grown by the runs before it.
					await running.restartN8n(bulkCase.heapMb !== undefined ? [`--max-old-space-size=${bulkCase.heapMb}`] : undefined);
					await runBulk(running, bulkCase, WARMUP_ROWS);
					return runBulk(running, bulkCase, rows);
				});
				if (!figures) continue;
				say(
					`  ${figures.wallSeconds.toFixed(1)} s, ${figures.itemsPerSecond.toFixed(1)} items/s, ${figures.cpuMsPerItem.toFixed(2)} CPU ms/item, max ${figures.maxInFlight} in flight, RSS main ${figures.peakRssMb.main.toFixed(0)} MB (+${figures.rssGrowthMb.main.toFixed(0)})`,
				);
				bulk.push(figures);
			}
		}

		stack.sandbox.control.setConfig({ latencyMs: 0 });
		say(`callbacks: ${CALLBACKS} signed and ${FORGED} forged, ${SETTINGS.callbackConcurrency} at a time ...`);
		const load = { count: CALLBACKS, forged: FORGED, concurrency: SETTINGS.callbackConcurrency, warmup: 20 };
		callbacks = await attempt('callbacks into the HaiPay Trigger', async () => {
			await running.restartN8n();
			return runCallbacks(running, triggerId, `${running.n8nUrl}/webhook/${CALLBACK_WEBHOOK_ID}/webhook`, load, say);
		});
		say(`callbacks: ${CONFIRMED} signed into the HaiPay Trigger with Confirm With HaiPay on (one order query each) ...`);
		confirmed = await attempt('callbacks into the HaiPay Trigger, Confirm With HaiPay on', async () => {
			await running.restartN8n();
			const url = `${running.n8nUrl}/webhook/${CONFIRMED_CALLBACK_WEBHOOK_ID}/webhook`;
			return runCallbacks(running, confirmedId, url, { ...load, count: CONFIRMED, forged: 0, confirmWithHaiPay: true }, say);
		});
		say("refusal: the trigger's main-thread time for the largest body n8n accepts, against a genuine callback ...");
		refusal = await attempt('refusal cost of the largest body', () =>
			measureRefusal(running.platformPrivateKey, { url: `${running.n8nUrl}/webhook/${CALLBACK_WEBHOOK_ID}/webhook` }),
		);
		say(`callbacks: the same ${CALLBACKS} into n8n's Webhook node alone, for reference ...`);
		plainWebhook = await attempt("callbacks into n8n's Webhook node", async () => {
			await running.restartN8n();
			return runCallbacks(running, plainWebhookId, `${running.n8nUrl}/webhook/${PLAIN_WEBHOOK_PATH}`, load, say);
		});
	} finally {
		await stack?.stop();
	}

	let queue: QueueFigures | undefined;
	if (process.env.BENCH_QUEUE !== '0') {
		queue = await attempt('queue mode', () => runQueueBench((stop) => (stopQueue = stop)));
	}

	const tenThousand = ROWS.includes(10_000) ? 10_000 : Math.max(...ROWS);
	const checked = targets(bulk, callbacks, SETTINGS, tenThousand, refusal);
	const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
	const table = markdown({
		machine: host,
		date,
		command: 'npm run bench',
		minutes: (Date.now() - started) / 60_000,
		settings: SETTINGS,
		bulk,
		...(callbacks ? { callbacks } : {}),
		...(plainWebhook ? { plainWebhook } : {}),
		...(confirmed ? { confirmed } : {}),
		...(refusal ? { refusal } : {}),
		failures,
		signing,
		targets: checked,
	});
	const results = [
		'# Benchmark results',
		'',
		'Written by `npm run bench` (bench/run.ts); the README quotes the latest table. Every figure comes from one run on one n8n server and one sandbox.',
		`The benchmark's n8n listens on ${BENCH_PORTS.n8n} and its sandbox on ${BENCH_PORTS.sandbox}.`,
		'',
		table,
		...(queue ? [queueMarkdown(queue, date, 'npm run bench')] : []),
	].join('\n');
	writeFileSync(join(__dirname, 'results.md'), results);
	mkdirSync(WORK, { recursive: true });
	writeFileSync(join(WORK, 'results.json'), `${JSON.stringify({ date, machine: host, settings: SETTINGS, bulk, callbacks, plainWebhook, confirmed, refusal, failures, queue, signing, targets: checked }, null, 2)}\n`);
	say('');
	say(table);
	if (queue) say(queueMarkdown(queue, date, 'npm run bench'));
	say(`PASS ${checked.filter((t) => t.pass).length}, MISS ${checked.filter((t) => !t.pass).length}; written to bench/results.md`);
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
