import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';

import type { WorkflowBody } from '../dev/workflow-builder';
import { ensureN8n } from '../playground/lib/install';
import { onStopSignal, say } from '../playground/lib/session';
import { APP_IDS } from '../test/fixtures/bodies';
import { runBulk, type BulkCase, type BulkFigures } from './bulk';
import { bulkCases, bulkCasesOf } from './bulk-cases';
import {
	CONFIRMED_CALLBACK_WEBHOOK_ID,
	confirmedTriggerWorkflow,
	runCallbacks,
	type CallbackFigures,
} from './callbacks';
import { E2E_SETTINGS, runEndToEnd } from './e2e';
import { e2eLines, e2eTarget, type EndToEndFigures } from './e2e-figures';
import { loadNow, machine, type Machine } from './machine';
import { runQueueBench } from './queue';
import type { QueueFigures } from './queue-figures';
import { queueFailures, queueSection } from './queue-report';
import { measureRefusal, type RefusalFigures } from './refusal';
import { bulkLines, callbackLines, failedRun, sectionBody, signingLines, type Failure } from './report';
import { commandLine, resultsHead, sectionMarkdown, WITH_SETTINGS, writeResults, type Section } from './results-file';
import { attempter, partsOf, type Part } from './parts';
import { addSheetWorkflows, runSheet, type SheetFigures } from './sheet';
import { sheetCases, sheetLines, sheetTargets } from './sheet-report';
import { measureSandboxCapacity, sandboxLines, sandboxTargets, type SandboxFigures } from './sandbox-capacity';
import { measureSigning, signingMachineLine, type SigningFigures } from './signing';
import { BENCH_PORTS, BENCH_SANDBOX, loopLine, N8N_SETTINGS, startBenchStack, WORK, type BenchStack } from './stack';
import { bulkTargets, callbackTargets, limitOf, type Settings, type Target } from './targets';
import {
	baselineWorkflow,
	CALLBACK_WEBHOOK_ID,
	haiPayWorkflow,
	mixedHaiPayWorkflow,
	PLAIN_WEBHOOK_PATH,
	plainWebhookWorkflow,
	signingCode,
	triggerWorkflow,
} from './workflows';

/**
 * `npm run bench`: bulk payouts through the HaiPay node and through a hand-made Code + HTTP Request baseline, a
 * payroll-sized sheet in one execution and in batches through a sub-workflow (bench/sheet.ts), signed callbacks into the HaiPay Trigger, a bulk payout whose callbacks go to a HaiPay Trigger on the same n8n
 * (bench/e2e.ts), and the package's shipped sign() and verify() against openssl (bench/signing.ts), on one n8n
 * server and one sandbox in one run, then the same package in n8n's queue mode (bench/queue.ts). Writes the sections it measured into bench/results.md,
 * keeping the others, and prints them. A configuration that fails (an error answer, a crashed n8n) does not stop
 * the others from being measured, but its part's section is not written (bench/results.md keeps the one before)
 * and the run ends with an error naming it: a report row never reads "failed". A missed target is reported as
 * MISS. `BENCH_PARTS=e2e,signing` (say) measures only those parts; BENCH_QUEUE=0 leaves the queue section out.
 */

const numbers = (text: string | undefined, fallback: number[]) =>
	text
		? text
				.split(',')
				.map((part) => Number(part.trim()))
				.filter((n) => Number.isInteger(n) && n > 0)
		: fallback;

const ROWS = numbers(process.env.BENCH_ROWS, [1_000, 10_000]);
const WARMUP_ROWS = Number(process.env.BENCH_WARMUP_ROWS ?? 200);
const CALLBACKS = Number(process.env.BENCH_CALLBACKS ?? 2_000);
const FORGED = Number(process.env.BENCH_FORGED ?? 200);
/** Callbacks with Confirm With HaiPay on: each costs a gateway query, so fewer than the unconfirmed run. */
const CONFIRMED = Number(process.env.BENCH_CONFIRMED_CALLBACKS ?? 500);
const SIGNING_SECONDS = Number(process.env.BENCH_SIGNING_SECONDS ?? 3);
/** Applies in each flat-out run of the sandbox part (half as many paced). */
const SANDBOX_REQUESTS = Number(process.env.BENCH_SANDBOX_REQUESTS ?? 6_000);
/** n8n's old-space limit for the capped runs, the way n8n's docs bound its memory (`--max-old-space-size`). */
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 1024);
/** The sheet part: its rows, the minutes each configuration may take, and the heap of n8n Cloud's smallest plan. */
const SHEET = {
	rows: Number(process.env.BENCH_SHEET_ROWS ?? 50_000),
	capMinutes: Number(process.env.BENCH_SHEET_MINUTES ?? 9),
	smallHeapMb: Number(process.env.BENCH_SHEET_SMALL_HEAP_MB ?? 320),
};
/** `BENCH_SHEET_CASES=batches` (say): only the configurations of those kinds. */
const SHEET_KINDS = (process.env.BENCH_SHEET_CASES ?? '').split(',').filter((kind) => kind !== '');
/** `BENCH_SHEET_HEAPS=512,default` (say): only the configurations at those heap limits. */
const SHEET_HEAPS = (process.env.BENCH_SHEET_HEAPS ?? '').split(',').filter((heap) => heap !== '');
const SHEET_CASES = sheetCases(HEAP_MB, SHEET.smallHeapMb).filter(
	(c) =>
		(SHEET_KINDS.length === 0 || SHEET_KINDS.includes(c.kind)) &&
		(SHEET_HEAPS.length === 0 || SHEET_HEAPS.includes(String(c.heapMb ?? 'default'))),
);

const SETTINGS: Settings = { latencyMs: 50, inFlight: 16, limit: 0, batchInterval: 50, callbackConcurrency: 20 };
SETTINGS.limit = (SETTINGS.inFlight * 1000) / SETTINGS.latencyMs;

const CASES = bulkCases(HEAP_MB, Math.max(...ROWS));
const BULK_CASES = bulkCasesOf(CASES, process.env.BENCH_BULK_CASES);

async function addWorkflows(
	stack: BenchStack,
): Promise<{ triggerId: string; confirmedId: string; plainWebhookId: string }> {
	const sign = signingCode(stack.sandbox.baseUrl, {
		TZS: stack.merchantPrivateKey(APP_IDS.TZS),
		NGN: stack.merchantPrivateKey(APP_IDS.NGN),
	});
	// Batches of 16 started one latency apart: the HTTP Request node's way of holding about 16 in flight.
	const batching = { batchSize: SETTINGS.inFlight, batchInterval: SETTINGS.batchInterval };
	const add = async (
		side: BulkCase['side'],
		setting: BulkCase['setting'],
		workflow: (path: string) => WorkflowBody,
	) => {
		const path = `bench-${side}-${setting}`;
		const workflowId = await stack.addWorkflow(workflow(path), true);
		for (const bulkCase of CASES.filter((c) => c.path === path)) bulkCase.workflowId = workflowId;
	};
	await add('haipay', 'tuned', (path) => haiPayWorkflow(path, SETTINGS.inFlight));
	await add('haipay', 'input', (path) => mixedHaiPayWorkflow(path, SETTINGS.inFlight));
	await add('baseline', 'tuned', (path) => baselineWorkflow(path, sign, batching));
	await add('haipay', 'default', (path) => haiPayWorkflow(path, undefined));
	await add('baseline', 'default', (path) => baselineWorkflow(path, sign, undefined));
	return {
		triggerId: await stack.addWorkflow(triggerWorkflow(), true),
		confirmedId: await stack.addWorkflow(confirmedTriggerWorkflow(), true),
		plainWebhookId: await stack.addWorkflow(plainWebhookWorkflow(), true),
	};
}

export interface Measured {
	bulk: BulkFigures[];
	sheet: SheetFigures[];
	callbacks?: CallbackFigures;
	plainWebhook?: CallbackFigures;
	confirmed?: CallbackFigures;
	refusal?: RefusalFigures;
	e2e?: EndToEndFigures;
	signing?: SigningFigures;
	sandbox?: SandboxFigures;
	queue?: QueueFigures;
	failures: Failure[];
	/** Minutes each part took. */
	minutes: Partial<Record<Part, number>>;
}

async function bulkPart(stack: BenchStack, measured: Measured): Promise<void> {
	const attempt = attempter(measured.failures);
	stack.sandbox.control.setConfig({ latencyMs: SETTINGS.latencyMs });
	for (const rows of ROWS) {
		for (const bulkCase of BULK_CASES.filter((c) => c.rows === undefined || c.rows.includes(rows))) {
			say(`${bulkCase.label}: ${rows.toLocaleString('en-US')} rows ...`);
			const figures = await attempt('bulk', `${bulkCase.label}, ${rows.toLocaleString('en-US')} rows`, async () => {
				// Each run in a fresh n8n process, warmed up by a small run of the same workflow: memory growth is
				// measured from a process that has not been grown by the runs before it.
				await stack.restartN8n(bulkCase.heapMb !== undefined ? [`--max-old-space-size=${bulkCase.heapMb}`] : undefined);
				await runBulk(stack, bulkCase, WARMUP_ROWS);
				return runBulk(stack, bulkCase, rows);
			});
			const loop = loopLine(stack.server.pid);
			if (loop !== undefined) say(`  n8n's main thread: ${loop}`);
			if (!figures) continue;
			say(
				`  ${figures.wallSeconds.toFixed(1)} s, ${figures.itemsPerSecond.toFixed(1)} items/s, ${figures.cpuMsPerItem.toFixed(2)} CPU ms/item, max ${figures.maxInFlight} in flight, RSS main ${figures.peakRssMb.main.toFixed(0)} MB (+${figures.rssGrowthMb.main.toFixed(0)})`,
			);
			measured.bulk.push(figures);
		}
	}
	stack.sandbox.control.setConfig({ latencyMs: 0 });
}

async function sheetPart(stack: BenchStack, measured: Measured): Promise<void> {
	stack.sandbox.control.setConfig({ latencyMs: SETTINGS.latencyMs });
	await addSheetWorkflows(stack, SHEET_CASES, SETTINGS.inFlight, {
		batchSize: SETTINGS.inFlight,
		batchInterval: SETTINGS.batchInterval,
	});
	for (const [index, sheetCase] of SHEET_CASES.entries()) {
		say(
			`sheet: ${sheetCase.label}, heap ${sheetCase.heapMb ?? 'default'}: ${SHEET.rows.toLocaleString('en-US')} rows, at most ${SHEET.capMinutes} minutes ...`,
		);
		const figures = await attempter(measured.failures)(
			'sheet',
			`sheet: ${sheetCase.label}, heap ${sheetCase.heapMb ?? 'default'}`,
			() => runSheet(stack, sheetCase, SHEET.rows, SHEET.capMinutes, index),
		);
		const loop = loopLine(stack.server.pid);
		if (loop !== undefined) say(`  n8n's main thread: ${loop}`);
		if (figures)
			say(
				`  ${figures.ended}: ${figures.paid} paid, ${figures.itemsPerSecond.toFixed(1)} items/s, ${figures.cpuMsPerRow.toFixed(2)} CPU ms/row, RSS main ${figures.peakRssMb.main.toFixed(0)} MB, ${figures.sentTwice} sent twice`,
			);
		if (figures) measured.sheet.push(figures);
	}
	stack.sandbox.control.setConfig({ latencyMs: 0 });
}

async function callbacksPart(
	stack: BenchStack,
	ids: { triggerId: string; confirmedId: string; plainWebhookId: string },
	measured: Measured,
): Promise<void> {
	const attempt = attempter(measured.failures);
	say(`callbacks: ${CALLBACKS} signed and ${FORGED} forged, ${SETTINGS.callbackConcurrency} at a time ...`);
	const load = { count: CALLBACKS, forged: FORGED, concurrency: SETTINGS.callbackConcurrency, warmup: 20 };
	measured.callbacks = await attempt('callbacks', 'callbacks into the HaiPay Trigger', async () => {
		await stack.restartN8n();
		const url = `${stack.n8nUrl}/webhook/${CALLBACK_WEBHOOK_ID}/webhook`;
		return runCallbacks(stack, ids.triggerId, url, { ...load, forgedLarge: FORGED }, say);
	});
	say(`callbacks: ${CONFIRMED} signed into the HaiPay Trigger with Confirm With HaiPay on (one order query each) ...`);
	measured.confirmed = await attempt(
		'callbacks',
		'callbacks into the HaiPay Trigger, Confirm With HaiPay on',
		async () => {
			await stack.restartN8n();
			const url = `${stack.n8nUrl}/webhook/${CONFIRMED_CALLBACK_WEBHOOK_ID}/webhook`;
			return runCallbacks(
				stack,
				ids.confirmedId,
				url,
				{ ...load, count: CONFIRMED, forged: 0, confirmWithHaiPay: true },
				say,
			);
		},
	);
	say("refusal: the trigger's CPU time for the largest body n8n accepts, against a genuine callback ...");
	measured.refusal = await attempt('callbacks', 'refusal cost of the largest body', () =>
		measureRefusal(stack.platformPrivateKey, { url: `${stack.n8nUrl}/webhook/${CALLBACK_WEBHOOK_ID}/webhook` }),
	);
	say(`callbacks: the same ${CALLBACKS} into n8n's Webhook node alone, for reference ...`);
	measured.plainWebhook = await attempt('callbacks', "callbacks into n8n's Webhook node", async () => {
		await stack.restartN8n();
		return runCallbacks(stack, ids.plainWebhookId, `${stack.n8nUrl}/webhook/${PLAIN_WEBHOOK_PATH}`, load, say);
	});
}

async function e2ePart(stack: BenchStack, measured: Measured): Promise<void> {
	const s = E2E_SETTINGS;
	say(
		`a bulk payout end to end: ${s.rows.toLocaleString('en-US')} rows, their callbacks into a HaiPay Trigger on the same n8n (retries every ${s.retryMs / 1000} s, time-out ${s.timeoutMs / 1000} s, ${s.concurrency} at a time) ...`,
	);
	measured.e2e = await attempter(measured.failures)('e2e', 'a bulk payout end to end', async () => {
		await stack.restartN8n();
		return runEndToEnd(stack, say);
	});
	const f = measured.e2e;
	if (f)
		say(
			`  last callback acknowledged after ${f.lastAcknowledgedSeconds.toFixed(1)} s; ${f.repeatedOther} repeats not injected; ${f.businessSteps} business steps, ${f.duplicates} duplicates, ${f.lost} lost`,
		);
}

/** The sections of bench/results.md this run measured in full. */
export function sections(parts: Part[], measured: Measured, host: Machine, date: string, command: string): Section[] {
	const rows = ROWS.includes(10_000) ? 10_000 : Math.max(...ROWS);
	// A run under other n8n settings (BENCH_N8N_ENV) keeps its own sections beside those at n8n's defaults.
	const settings = Object.entries(N8N_SETTINGS).map(([name, value]) => `${name}=${value}`);
	const section = (id: Part, title: string, lines: string[], list: Target[]): Section => ({
		id: settings.length === 0 ? id : `${id}${WITH_SETTINGS}`,
		title: settings.length === 0 ? title : `${title}, n8n with ${settings.join(' ')}`,
		date,
		command,
		minutes: measured.minutes[id],
		// The parts measured before n8n starts name no n8n.
		body: sectionBody(lines, list, host, id === 'signing' || id === 'sandbox' ? signingMachineLine : undefined),
	});
	const out: Section[] = [];
	if (parts.includes('bulk'))
		out.push(
			section(
				'bulk',
				'Bulk payouts',
				bulkLines(SETTINGS, measured.bulk, host),
				bulkTargets(measured.bulk, SETTINGS, rows),
			),
		);
	if (parts.includes('sheet'))
		out.push(
			section(
				'sheet',
				'A payroll-sized sheet',
				sheetLines(measured.sheet, { ...SHEET, latencyMs: SETTINGS.latencyMs, inFlight: SETTINGS.inFlight }),
				sheetTargets(measured.sheet, SHEET.rows),
			),
		);
	if (parts.includes('sandbox') && measured.sandbox)
		out.push(
			section(
				'sandbox',
				'The sandbox alone',
				sandboxLines(measured.sandbox),
				sandboxTargets(measured.sandbox, limitOf('input', SETTINGS)),
			),
		);
	if (parts.includes('callbacks'))
		out.push(
			section(
				'callbacks',
				'Callbacks',
				callbackLines({ settings: SETTINGS, ...measured }),
				callbackTargets(measured.callbacks, measured.refusal, measured.plainWebhook),
			),
		);
	if (parts.includes('e2e'))
		out.push(
			section(
				'e2e',
				"A bulk payout's callbacks, end to end",
				measured.e2e ? e2eLines(measured.e2e) : [],
				measured.e2e ? [e2eTarget(measured.e2e)] : [],
			),
		);
	if (parts.includes('signing') && measured.signing)
		out.push(section('signing', 'Signing', signingLines(measured.signing), []));
	if (parts.includes('queue') && measured.queue) out.push(queueSection(measured.queue, date, command));
	return out;
}

async function main(): Promise<void> {
	const started = Date.now();
	const parts = partsOf(process.env);
	const onN8n = parts.some((part) => part !== 'signing' && part !== 'sandbox');
	// Installed first, so that the machine's facts name the n8n that runs.
	if (onN8n) await ensureN8n(say);
	const host = machine({ n8n: onN8n });
	say(
		`machine: ${host.cores} x ${host.cpu}, load average ${host.loadBefore.join(' ')}${onN8n ? `; n8n ${host.n8n} on Node ${host.n8nNode}` : ''}; parts: ${parts.join(', ')}`,
	);
	if (host.loadBefore[0] > 0.5) say('  note: the machine is busy before the run; every figure below is affected');
	const measured: Measured = { bulk: [], sheet: [], failures: [], minutes: {} };
	const timed = async (part: Part, run: () => Promise<void>) => {
		if (!parts.includes(part)) return;
		const at = Date.now();
		await run();
		measured.minutes[part] = (Date.now() - at) / 60_000;
	};

	// Alone on the machine, before n8n starts: it measures the CPU, not the scheduler.
	await timed('signing', async () => {
		say(
			`the shipped sign() and verify(), one at a time and on the thread pool, vs openssl speed rsa2048 (${SIGNING_SECONDS} s each) ...`,
		);
		measured.signing = await measureSigning(SIGNING_SECONDS);
	});
	// The sandbox alone, before n8n starts: it must serve a multiple of what the bulk part asks.
	await timed('sandbox', async () => {
		const bound = limitOf('input', SETTINGS);
		say(`the sandbox alone, flat out, ${SETTINGS.inFlight * 2} at a time, then paced at ${bound}/s ...`);
		measured.sandbox = await attempter(measured.failures)('sandbox', 'the sandbox alone', () =>
			measureSandboxCapacity({
				concurrency: SETTINGS.inFlight * 2,
				warmup: 500,
				requests: SANDBOX_REQUESTS,
				pacedRate: bound,
				pacedRequests: Math.floor(SANDBOX_REQUESTS / 2),
				sandbox: BENCH_SANDBOX,
			}),
		);
	});

	let stack: BenchStack | undefined;
	let stopQueue: (() => Promise<void>) | undefined;
	onStopSignal(async (signal) => {
		say(`${signal}: stopping n8n and the sandbox`);
		await stack?.stop();
		await stopQueue?.();
	});
	if (parts.some((part) => ['bulk', 'sheet', 'callbacks', 'e2e'].includes(part))) {
		try {
			stack = await startBenchStack(
				say,
				{},
				{ callbackTimeoutMs: E2E_SETTINGS.timeoutMs, callbackConcurrency: E2E_SETTINGS.concurrency },
			);
			const running = stack;
			const ids = await addWorkflows(stack);
			await timed('bulk', () => bulkPart(running, measured));
			await timed('sheet', () => sheetPart(running, measured));
			await timed('callbacks', () => callbacksPart(running, ids, measured));
			await timed('e2e', () => e2ePart(running, measured));
		} finally {
			await stack?.stop();
		}
	}
	await timed('queue', async () => {
		measured.queue = await attempter(measured.failures)('queue', 'queue mode', () =>
			runQueueBench((stop) => (stopQueue = stop)),
		);
	});

	writeMeasured(parts, measured, host, started);
}

/** Writes the sections of the parts measured in full and every figure to bench/.work/; fails if any part did. */
function writeMeasured(parts: Part[], measured: Measured, host: Machine, started: number): void {
	const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
	host.loadAfter = loadNow();
	const command = commandLine(process.env.npm_lifecycle_event === 'bench' ? 'npm run bench' : 'npx tsx bench/run.ts');
	const failures = [...measured.failures, ...(measured.queue ? queueFailures(measured.queue) : [])];
	const failed = new Set(failures.map((failure) => failure.part));
	const written = sections(
		parts.filter((part) => !failed.has(part)),
		measured,
		host,
		date,
		command,
	);
	writeResults(written, resultsHead(BENCH_PORTS));
	mkdirSync(WORK, { recursive: true });
	writeFileSync(
		join(WORK, 'results.json'),
		`${JSON.stringify({ date, command, machine: host, settings: SETTINGS, ...measured }, null, 2)}\n`,
	);
	say('');
	for (const section of written) say(sectionMarkdown(section));
	const checked = written
		.flatMap((section) => section.body.split('\n'))
		.filter((line) => /\| (PASS|MISS) \|$/.test(line));
	const count = (verdict: string) => checked.filter((line) => line.endsWith(`| ${verdict} |`)).length;
	say(
		`PASS ${count('PASS')}, MISS ${count('MISS')}; written to bench/results.md (${written.map((section) => section.id).join(', ') || 'nothing'}; other sections kept) in ${((Date.now() - started) / 60_000).toFixed(1)} minutes`,
	);
	if (failures.length > 0) throw failedRun(failures);
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`${error.stack ?? error.message}\n`);
		process.exit(1);
	});
}
