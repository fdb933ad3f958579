import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { loadavg } from 'os';
import { join } from 'path';

import { onStopSignal, say } from '../playground/lib/session';
import {
	failure,
	QUEUE_SETTINGS,
	type CallbackRow,
	type Layout,
	type Outcome,
	type PayoutRow,
	type QueueFigures,
	type RepeatRow,
} from './queue-figures';
import { QUEUE_BENCH_BASE, startQueueHarness, type QueueHarness } from './queue-harness';
import { measureCallbacks, measurePayouts, measureRepeats } from './queue-measures';
import { queueFailures, queueSection } from './queue-report';
import { bulkWorkflow, guardedCallbackWorkflow, type RepeatGuard } from './queue-workflows';
import { commandLine, resultsHead, sectionMarkdown, writeResults } from './results-file';
import { BENCH_PORTS, WORK } from './stack';
import { CALLBACK_WEBHOOK_ID, PLAIN_WEBHOOK_PATH, plainWebhookWorkflow, triggerWorkflow } from './workflows';

/**
 * The queue-mode section of the benchmark (`npm run bench`, or `npm run bench:queue` alone): one stack of
 * PostgreSQL, Redis, an n8n main, workers and webhook processors, scaled between configurations. Each
 * configuration that fails becomes a row saying how, and the run goes on.
 */

/** Whether the trigger in dist/ has the "Confirm With HaiPay" parameter (added by another change). */
function hasConfirmOption(): boolean {
	try {
		return readFileSync(join(__dirname, '..', 'dist', 'nodes', 'HaiPayTrigger', 'description.js'), 'utf8').includes(
			'confirmWithHaiPay',
		);
	} catch {
		return false;
	}
}

/** Runs one configuration, scaled to `layout` first; a failure becomes the row's error and the run goes on. */
type Attempt = <T>(what: string, layout: Layout | undefined, run: () => Promise<T>) => Promise<Outcome<T>>;

function attempter(h: QueueHarness): Attempt {
	return async <T>(what: string, layout: Layout | undefined, run: () => Promise<T>): Promise<Outcome<T>> => {
		try {
			if (layout) await h.stack.scale(layout);
			return (await run()) as Outcome<T>;
		} catch (error) {
			say(`  ${what} failed: ${(error as Error).message.split('\n')[0]}`);
			return failure(error);
		}
	};
}

/** Bulk runs with one worker, then two (the sandbox answering in the section's latency). */
async function payoutRows(h: QueueHarness, attempt: Attempt): Promise<PayoutRow[]> {
	const rows: PayoutRow[] = [];
	const bulkPath = 'bench-queue-bulk';
	await h.addWorkflow(bulkWorkflow(bulkPath), true);
	h.sandbox.control.setConfig({ latencyMs: QUEUE_SETTINGS.latencyMs });
	for (const layout of [
		{ workers: 1, webhooks: 1 },
		{ workers: 2, webhooks: 1 },
	]) {
		say(
			`queue mode: ${QUEUE_SETTINGS.bulkRuns} bulk runs of ${QUEUE_SETTINGS.bulkRows} rows at once, ${layout.workers} worker(s) ...`,
		);
		rows.push({
			...layout,
			figures: await attempt('bulk runs', layout, () => measurePayouts(h, bulkPath, layout, `QP${layout.workers}`)),
		});
	}
	h.sandbox.control.setConfig({ latencyMs: 0 });
	return rows;
}

/** Callbacks into the HaiPay Trigger and into n8n's Webhook node, across workers and webhook processors. */
async function callbackRows(h: QueueHarness, attempt: Attempt): Promise<CallbackRow[]> {
	const rows: CallbackRow[] = [];
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
		say(
			`queue mode: ${QUEUE_SETTINGS.callbacks} callbacks into ${workflow === 'trigger' ? 'the HaiPay Trigger' : "n8n's Webhook node"}, ${layout.workers} worker(s), ${layout.webhooks} webhook processor(s) ...`,
		);
		const url = `${h.stack.webhookUrl}/webhook/${workflow === 'trigger' ? `${CALLBACK_WEBHOOK_ID}/webhook` : PLAIN_WEBHOOK_PATH}`;
		const result = await attempt('callbacks', layout, () =>
			measureCallbacks(h, workflow === 'trigger' ? triggerId : plainId, url, `QCB${i}`),
		);
		rows.push({ workflow, ...layout, figures: result });
	}
	return rows;
}

/** Repeat detection across 2 webhook processors, for each guard and each way the second delivery arrives. */
async function repeatRows(h: QueueHarness, attempt: Attempt, confirmOption: boolean): Promise<RepeatRow[]> {
	const rows: RepeatRow[] = [];
	await h.stack.scale({ workers: 2, webhooks: 2 });
	const guards: RepeatGuard[] = [
		'none',
		'trigger',
		'removeDuplicates',
		'both',
		...(confirmOption ? (['confirm'] as const) : []),
	];
	for (const [i, guard] of guards.entries()) {
		for (const scenario of ['later', 'together'] as const) {
			const label = `${guard}-${scenario}`;
			const webhookId = `bench-queue-repeat-${label}`.toLowerCase();
			say(`queue mode: repeat detection across 2 webhook processors, ${guard}, ${scenario} ...`);
			const result = await attempt('repeat detection', undefined, async () => {
				const workflowId = await h.addWorkflow(guardedCallbackWorkflow(guard, webhookId, h.effects.url(label)), true);
				return measureRepeats(
					h,
					guard,
					scenario,
					`QR${i}${scenario === 'later' ? 'L' : 'T'}`,
					webhookId,
					workflowId,
					label,
				);
			});
			rows.push({ guard, scenario, figures: result });
		}
	}
	return rows;
}

export async function runQueueBench(onStack?: (stop: () => Promise<void>) => void): Promise<QueueFigures> {
	const started = Date.now();
	const loadBefore = loadavg().map((value) => Math.round(value * 100) / 100);
	const dir = join(WORK, 'queue');
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	say('queue mode: starting PostgreSQL, Redis, an n8n main, 2 workers and 2 webhook processors ...');
	const h = await startQueueHarness({
		base: QUEUE_BENCH_BASE,
		dir,
		workers: 2,
		webhooks: 2,
		log: say,
		logLevel: 'info',
	});
	onStack?.(() => h.stop());
	const figures: QueueFigures = {
		settings: QUEUE_SETTINGS,
		loadBefore,
		payouts: [],
		callbacks: [],
		repeats: [],
		confirmOption: hasConfirmOption(),
		minutes: 0,
	};
	try {
		const attempt = attempter(h);
		figures.payouts = await payoutRows(h, attempt);
		figures.callbacks = await callbackRows(h, attempt);
		figures.repeats = await repeatRows(h, attempt, figures.confirmOption);
	} finally {
		await h.stop();
	}
	figures.minutes = (Date.now() - started) / 60_000;
	return figures;
}

async function main(): Promise<void> {
	let stopStack: (() => Promise<void>) | undefined;
	onStopSignal(async (signal) => {
		say(`${signal}: stopping the queue stack`);
		await stopStack?.();
	});
	const figures = await runQueueBench((stop) => (stopStack = stop));
	mkdirSync(WORK, { recursive: true });
	writeFileSync(
		join(WORK, 'results-queue.json'),
		`${JSON.stringify({ date: new Date().toISOString(), ...figures }, null, 2)}\n`,
	);
	const failed = queueFailures(figures);
	if (failed.length > 0) {
		throw new Error(
			`bench: ${failed.length} queue configuration(s) failed; bench/results.md keeps its queue section as it was:\n${failed.map((f) => `- ${f.what}: ${f.error}`).join('\n')}`,
		);
	}
	const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
	const section = queueSection(figures, date, commandLine('npm run bench:queue'));
	writeResults([section], resultsHead(BENCH_PORTS));
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
