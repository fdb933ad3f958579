import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { join } from 'path';

import type { WorkflowBody, WorkflowBuilder } from '../dev/workflow-builder';
import { csvFromFile, readFile } from '../playground/lib/base-nodes';
import { httpRequest } from '../playground/lib/rest';
import { FILES, payrollBatches } from '../playground/examples';
import { PAYROLL_RESULTS, PAYROLL_SHEET, payrollCsv, payrollRows } from '../playground/payroll';
import type { RequestLogEntry } from '../sandbox';
import { APP_IDS } from '../test/fixtures/bodies';
import { settle, TreeSampler } from './proc';
import { startLoopWindow, type BenchStack } from './stack';
import { until } from './until';
import { baselineWorkflow, mixedHaiPayWorkflow, signingCode, type RowsMaker } from './workflows';

/**
 * `BENCH_PARTS=sheet`: a payroll-sized sheet (playground/payroll.ts: TZS, NGN and ZAR by turns) in one n8n, read
 * from a CSV file by each workflow: one HaiPay node in one execution at n8n's default heap and under heap limits,
 * the Code + HTTP Request baseline the same way, and example 9 (batches through a sub-workflow). Each configuration
 * runs in a fresh n8n process, within a cap of minutes: an n8n that runs out of memory, or the cap, ends it, and
 * that end is a measured row ("out of memory at N rows"), not a failed benchmark.
 */

export type SheetKind = 'haipay' | 'baseline' | 'batches';

export interface SheetCase {
	label: string;
	kind: SheetKind;
	heapMb?: number;
	/** n8n settings for this run alone. */
	env?: Record<string, string>;
	workflowId?: string;
}

export interface SheetFigures {
	label: string;
	kind: SheetKind;
	heapMb?: number;
	rows: number;
	/** How the run ended: `done`, `out of memory`, `stopped by the cap`, or what n8n answered. */
	ended: string;
	/** Orders the sandbox made for the sheet's orderIds; creates it received; orderIds it received more than once. */
	paid: number;
	applies: number;
	sentTwice: number;
	/** Lines example 9 wrote to its results file (batches only). */
	written?: number;
	wallSeconds: number;
	itemsPerSecond: number;
	cpuMsPerRow: number;
	peakRssMb: { main: number; runner: number };
	/** The run data n8n stored, MB (every execution of the run), when n8n lived to store it. */
	storedMb?: number;
	executions?: number;
	/** Why the stored run data could not be read. */
	storedUnread?: string;
}

const PATHS: Record<Exclude<SheetKind, 'batches'>, string> = {
	haipay: 'bench-sheet-haipay',
	baseline: 'bench-sheet-baseline',
};

/** Webhook → Read payroll.csv → Rows (Extract from File, CSV): the sheet, as example 9 reads it. */
const sheetRows: RowsMaker = (b: WorkflowBuilder, from: string) => {
	const read = b.add(readFile(`Read ${PAYROLL_SHEET}`, `${FILES}/${PAYROLL_SHEET}`, [220, 0]));
	const rows = b.add(csvFromFile('Rows', [440, 0]));
	b.connect(from, read);
	b.connect(read, rows);
	return rows;
};

/** Example 9 as shipped, but for its Pay node's concurrency: that of the one-execution HaiPay node. */
function batchesWorkflow(concurrency: number): WorkflowBody {
	const file = payrollBatches();
	const nodes = file.nodes.map((node) =>
		node.name === 'Pay' ? { ...node, parameters: { ...node.parameters, options: { concurrency } } } : node,
	);
	return { name: `bench: ${file.name}`, nodes, connections: file.connections, settings: file.settings };
}

/** Creates the sheet's workflows on the bench's n8n and gives each case its workflow. */
export async function addSheetWorkflows(
	stack: BenchStack,
	cases: SheetCase[],
	inFlight: number,
	batching: { batchSize: number; batchInterval: number },
): Promise<void> {
	const keys = Object.fromEntries(
		(['TZS', 'NGN', 'ZAR'] as const).map((currency) => [currency, stack.merchantPrivateKey(APP_IDS[currency])]),
	);
	const ids: Record<SheetKind, string> = {
		haipay: await stack.addWorkflow(mixedHaiPayWorkflow(PATHS.haipay, inFlight, sheetRows), true),
		baseline: await stack.addWorkflow(
			baselineWorkflow(PATHS.baseline, signingCode(stack.sandbox.baseUrl, keys), batching, sheetRows),
			true,
		),
		batches: await stack.addWorkflow(batchesWorkflow(inFlight), false),
	};
	for (const sheetCase of cases) sheetCase.workflowId = ids[sheetCase.kind];
}

/** Starts the run: a webhook call that answers when it ends, or (example 9) a manual run polled until it ends. */
async function start(stack: BenchStack, sheetCase: SheetCase, capMs: number): Promise<() => Promise<string>> {
	if (sheetCase.kind !== 'batches') {
		const answer = httpRequest(`${stack.n8nUrl}/webhook/${PATHS[sheetCase.kind]}`, {
			method: 'POST',
			raw: '',
			timeoutMs: capMs,
		});
		return async () => {
			const { status, body } = await answer;
			return status === 200 ? 'done' : `n8n answered HTTP ${status}: ${body.slice(0, 120)}`;
		};
	}
	const saved = await stack.rest.call('GET', `/workflows/${sheetCase.workflowId}`);
	const workflowData = (saved.json as { data: Record<string, unknown> }).data;
	const started = await stack.rest.call('POST', `/workflows/${sheetCase.workflowId}/run`, {
		workflowData,
		triggerToStartFrom: { name: 'Run' },
	});
	if (started.status !== 200)
		throw new Error(`running example 9 failed: HTTP ${started.status} ${started.body.slice(0, 300)}`);
	const executionId = String((started.json as { data: { executionId: string } }).data.executionId);
	return async () => {
		const status = await until(
			`execution ${executionId} to end`,
			async () => {
				// A main thread busy with the run's items may not answer in time: asked again at the next poll.
				const execution = (await stack.rest.execution(executionId).catch(() => undefined)) as
					{ status: string } | undefined;
				return execution && ['success', 'error', 'crashed', 'canceled'].includes(execution.status)
					? execution.status
					: undefined;
			},
			capMs,
			2_000,
		);
		return status === 'success' ? 'done' : `the execution ended ${status}`;
	};
}

/** What n8n's log says of the run, from `offset` on: the lines that explain an end other than success. */
const LOG_REASONS: Array<[RegExp, string]> = [
	[/heap out of memory|Reached heap limit/, 'out of memory'],
	[/Task runner failed heartbeat check/, "the Code node's task runner missed n8n's heartbeat check and was restarted"],
	[/Node ran out of memory|TaskRunnerOomError/, "the Code node's task runner ran out of memory"],
];

function logReason(stack: BenchStack, offset: number): string | undefined {
	const text = readFileSync(stack.server.logFile).subarray(offset).toString('utf8');
	return LOG_REASONS.find(([pattern]) => pattern.test(text))?.[1];
}

/** How a run that did not answer ended: n8n's process gone (out of memory, by its log), or the cap. */
async function endOf(stack: BenchStack, error: unknown, logOffset: number): Promise<string> {
	const message = String((error as Error).message);
	// A connection n8n dropped as it died can end before its exit is seen: wait a little for it.
	if (/hang up|ECONNRESET|ECONNREFUSED/.test(message))
		await until('n8n to exit', () => stack.server.exited(), 10_000).catch(() => undefined);
	const exited = stack.server.exited();
	if (exited === undefined)
		return /no answer within|timed out|timeout/i.test(message)
			? 'stopped by the cap'
			: `failed: ${message.slice(0, 120)}`;
	return logReason(stack, logOffset) === 'out of memory' ? 'out of memory' : `n8n ended (${exited})`;
}

/** MB of run data n8n stored for the run's executions: the newest one, or (example 9) every one. */
async function stored(stack: BenchStack, sheetCase: SheetCase): Promise<{ mb: number; executions: number }> {
	const list = await stack.rest.executions(sheetCase.workflowId ?? '');
	const runs = sheetCase.kind === 'batches' ? list : list.slice(0, 1);
	let bytes = 0;
	for (const run of runs) {
		const execution = (await stack.rest.execution(run.id)) as { data: unknown };
		bytes += Buffer.byteLength(typeof execution.data === 'string' ? execution.data : JSON.stringify(execution.data));
	}
	return { mb: bytes / 1_048_576, executions: runs.length };
}

/** Counts the creates the sandbox receives for the sheet's orderIds, from now until `count()`, with its orders. */
function ledger(stack: BenchStack, prefix: string): () => { paid: number; applies: number; sentTwice: number } {
	const creates = new Map<string, number>();
	const onRequest = (request: RequestLogEntry) => {
		if (request.path.endsWith('/pay/apply') && request.orderId?.startsWith(prefix))
			creates.set(request.orderId, (creates.get(request.orderId) ?? 0) + 1);
	};
	stack.sandbox.events.on('request', onRequest);
	return () => {
		stack.sandbox.events.off('request', onRequest);
		const orders = stack.sandbox.control.orders().filter((order) => order.orderId.startsWith(prefix));
		const applies = [...creates.values()].reduce((sum, n) => sum + n, 0);
		return { paid: new Set(orders.map((order) => order.orderId)).size, applies, sentTwice: applies - creates.size };
	};
}

/** One configuration: a fresh n8n (with its heap limit), a fresh sheet of `rows` with orderIds of its own, the run. */
export async function runSheet(
	stack: BenchStack,
	sheetCase: SheetCase,
	rows: number,
	capMinutes: number,
	runIndex: number,
): Promise<SheetFigures> {
	await stack.restartN8n(
		sheetCase.heapMb === undefined ? undefined : [`--max-old-space-size=${sheetCase.heapMb}`],
		sheetCase.env,
	);
	const logOffset = statSync(stack.server.logFile).size;
	// Each configuration pays from full balances: the sheets before it must not leave it short of funds.
	for (const currency of ['TZS', 'NGN', 'ZAR'] as const)
		stack.sandbox.control.setBalance(APP_IDS[currency], '1000000000.00');
	const prefix = `S${runIndex}${Date.now().toString(36).toUpperCase()}`;
	const folder = join(stack.options.filesDir, FILES);
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, PAYROLL_SHEET), payrollCsv(payrollRows(rows, prefix)));
	rmSync(join(folder, PAYROLL_RESULTS), { force: true });
	await settle(stack.server.pid);
	const counted = ledger(stack, prefix);
	startLoopWindow(stack.server.pid);
	const sampler = new TreeSampler(stack.server.pid).begin();
	const started = process.hrtime.bigint();
	const result = await start(stack, sheetCase, capMinutes * 60_000);
	const answered = await result().catch((error: unknown) => endOf(stack, error, logOffset));
	const reason =
		answered.startsWith('n8n answered') || answered.startsWith('the execution ended')
			? logReason(stack, logOffset)
			: undefined;
	const ended = reason === undefined ? answered : `${answered.replace(/:.*$/, '')}: ${reason}`;
	const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
	if (ended === 'stopped by the cap') await stack.server.stop();
	else if (stack.server.exited() === undefined) await settle(stack.server.pid);
	const tree = sampler.end();
	const count = counted();
	const alive = stack.server.exited() === undefined;
	// The stored run data of a large execution can take n8n longer to send than the REST client waits: noted, not fatal.
	const kept =
		alive && ended === 'done'
			? await stored(stack, sheetCase).catch((error: Error) => ({ unread: error.message.slice(0, 120) }))
			: undefined;
	const written = sheetCase.kind === 'batches' ? readLines(join(folder, PAYROLL_RESULTS)) : undefined;
	return {
		label: sheetCase.label,
		kind: sheetCase.kind,
		...(sheetCase.heapMb === undefined ? {} : { heapMb: sheetCase.heapMb }),
		rows,
		ended,
		...count,
		...(written === undefined ? {} : { written }),
		wallSeconds,
		itemsPerSecond: count.paid / wallSeconds,
		cpuMsPerRow: count.paid > 0 ? tree.cpuMs / count.paid : 0,
		peakRssMb: { main: tree.peakRssMb.main, runner: tree.peakRssMb.runner },
		...(kept === undefined
			? {}
			: 'unread' in kept
				? { storedUnread: kept.unread }
				: { storedMb: kept.mb, executions: kept.executions }),
	};
}

/** Result lines of a CSV without its header; 0 when there is no file. */
function readLines(path: string): number {
	try {
		return Math.max(
			0,
			readFileSync(path, 'utf8')
				.split('\n')
				.filter((line) => line !== '').length - 1,
		);
	} catch {
		return 0;
	}
}
