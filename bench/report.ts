import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { cpus, loadavg, release, totalmem } from 'os';
import { join } from 'path';

import { INSTALL_DIR, NODE24 } from '../playground/lib/paths';
import type { BulkFigures, Setting } from './bulk';
import { refusalRow, type CallbackFigures, type RefusalFigures } from './callbacks';
import type { SigningFigures } from './signing';

/** The results table, the targets with PASS or MISS, and the machine they were measured on. */

export interface Machine {
	cores: number;
	cpu: string;
	memoryGb: number;
	kernel: string;
	benchNode: string;
	n8nNode: string;
	n8n: string;
	openssl: string;
	/** V8's heap limit for n8n's Node on this machine when nothing sets one (it follows the memory). */
	n8nHeapLimitMb: number;
	/** 1, 5 and 15 minute load averages before the run: other work on the machine skews every figure. */
	loadBefore: number[];
}

export function machine(): Machine {
	const safe = (run: () => string) => {
		try {
			return run();
		} catch {
			return 'unknown';
		}
	};
	return {
		cores: cpus().length,
		cpu: cpus()[0]?.model ?? 'unknown',
		memoryGb: Math.round(totalmem() / 2 ** 30),
		kernel: release(),
		benchNode: process.version,
		n8nNode: safe(() => execFileSync(NODE24, ['--version'], { encoding: 'utf8' }).trim()),
		n8n: safe(() => (JSON.parse(readFileSync(join(INSTALL_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8')) as { version: string }).version),
		openssl: safe(() => execFileSync('openssl', ['version'], { encoding: 'utf8' }).trim()),
		n8nHeapLimitMb: Number(safe(() => execFileSync(NODE24, ['-p', "Math.round(require('v8').getHeapStatistics().heap_size_limit / 2 ** 20)"], { encoding: 'utf8' }).trim())),
		loadBefore: loadavg().map((value) => Math.round(value * 100) / 100),
	};
}

export interface Settings {
	latencyMs: number;
	inFlight: number;
	limit: number;
	batchInterval: number;
	callbackConcurrency: number;
}

/** A configuration that did not give figures, and how it failed: the run went on without it. */
export interface Failure {
	what: string;
	error: string;
	/** The section it belongs to (bulk, callbacks, e2e, ...). */
	part?: string;
}

export interface Target {
	what: string;
	measured: string;
	pass: boolean;
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

/** Without `heapMb`, the run at V8's default heap limit. */
function find(bulk: BulkFigures[], side: BulkFigures['side'], setting: Setting, rows: number, heapMb?: number): BulkFigures | undefined {
	return bulk.find((b) => b.side === side && b.setting === setting && b.rows === rows && b.heapMb === heapMb);
}

const RSS_GROWTH_LIMIT_MB = 300;

/** The bulk targets for each way of setting up the HaiPay node at the tuned concurrency, then the callback ones. */
/** The trigger's own main-thread time to refuse the largest body n8n accepts. */
export const REFUSAL_GOAL_MS = 50;

export function targets(bulk: BulkFigures[], callbacks: CallbackFigures | undefined, settings: Settings, rows: number, refusal?: RefusalFigures): Target[] {
	return [...bulkTargets(bulk, settings, rows), ...callbackTargets(callbacks, refusal)];
}

/** The targets of the bulk section, judged on the runs of `rows` rows. */
export function bulkTargets(bulk: BulkFigures[], settings: Settings, rows: number): Target[] {
	const base = find(bulk, 'baseline', 'tuned', rows);
	const out: Target[] = [];
	for (const setting of ['tuned', 'input'] as const) {
		const node = find(bulk, 'haipay', setting, rows);
		if (!node || !base) continue;
		const floor = settings.limit * 0.8;
		const who = setting === 'input' ? 'HaiPay node (fields from input)' : 'HaiPay node (field expressions)';
		out.push(
			{
				what: `${who} reaches >= 80% of the ${settings.limit} items/s limit on ${f0(rows)} rows (>= ${f0(floor)} items/s)`,
				measured: `${f1(node.itemsPerSecond)} items/s (${f0((node.itemsPerSecond / settings.limit) * 100)}%)`,
				pass: node.itemsPerSecond >= floor,
			},
			{
				what: `${who} beats the baseline's items/s on ${f0(rows)} rows`,
				measured: `${f1(node.itemsPerSecond)} vs ${f1(base.itemsPerSecond)}`,
				pass: node.itemsPerSecond > base.itemsPerSecond,
			},
			{
				what: `${who} beats the baseline's CPU per item on ${f0(rows)} rows`,
				measured: `${f2(node.cpuMsPerItem)} vs ${f2(base.cpuMsPerItem)} ms`,
				pass: node.cpuMsPerItem < base.cpuMsPerItem,
			},
			{
				what: `${who}: peak RSS of n8n's main process grows < ${RSS_GROWTH_LIMIT_MB} MB over ${f0(rows)} rows`,
				measured: `+${f0(node.rssGrowthMb.main)} MB (baseline +${f0(base.rssGrowthMb.main)} MB)`,
				pass: node.rssGrowthMb.main < RSS_GROWTH_LIMIT_MB,
			},
		);
	}
	const capped = bulk.find((b) => b.side === 'haipay' && b.setting === 'tuned' && b.rows === rows && b.heapMb !== undefined);
	const cappedBase = capped && find(bulk, 'baseline', 'tuned', rows, capped.heapMb);
	if (capped) {
		out.push({
			what: `HaiPay node (field expressions), n8n run with --max-old-space-size=${capped.heapMb}: peak RSS of the main process grows < ${RSS_GROWTH_LIMIT_MB} MB over ${f0(rows)} rows`,
			measured: `+${f0(capped.rssGrowthMb.main)} MB at ${f1(capped.itemsPerSecond)} items/s${cappedBase ? ` (baseline +${f0(cappedBase.rssGrowthMb.main)} MB at ${f1(cappedBase.itemsPerSecond)} items/s)` : ''}`,
			pass: capped.rssGrowthMb.main < RSS_GROWTH_LIMIT_MB,
		});
	}
	return out;
}

/** The targets of the callbacks section: the refusal cost, and the distinct and forged callbacks. */
export function callbackTargets(callbacks: CallbackFigures | undefined, refusal?: RefusalFigures): Target[] {
	const out: Target[] = [];
	if (refusal) {
		out.push({
			what: `refusing the largest body n8n accepts: the trigger's main-thread time < ${REFUSAL_GOAL_MS} ms`,
			measured: `${f2(refusal.refuseMs)} ms (genuine callback ${f2(refusal.genuineMs)} ms)`,
			pass: refusal.refuseMs < REFUSAL_GOAL_MS,
		});
	}
	if (!callbacks) return out;
	const { genuine, forged } = callbacks;
	out.push(
		{
			what: `callbacks: executions started = distinct callbacks (${f0(genuine.sent)})`,
			measured: `${f0(genuine.executions - genuine.stuck)} ran${genuine.stuck > 0 ? `, ${f0(genuine.stuck)} stored but never ran` : ''}`,
			pass: genuine.executions - genuine.stuck === genuine.sent && genuine.stuck === 0,
		},
		{
			what: 'callbacks: lost = 0 (each acknowledged SUCCESS and its execution ran to its end)',
			measured: `${f0(genuine.lost)} (${f0(genuine.sent - genuine.executions)} never stored, ${f0(genuine.stuck)} never ran, ${f0(genuine.executions - genuine.stuck - genuine.executionsSucceeded)} failed)`,
			pass: genuine.lost === 0,
		},
		{
			what: `forged callbacks: all ${f0(forged.sent)} answered 401, 0 executions`,
			measured: `${f0(forged.refused)} x 401, ${f0(forged.executions)} executions`,
			pass: forged.refused === forged.sent && forged.executions === 0,
		},
	);
	return out;
}

function describeSetting(b: BulkFigures, settings: Settings): string {
	const how = describeWorkflow(b, settings);
	return b.heapMb === undefined ? how : `${how}; n8n heap limit ${f0(b.heapMb)} MB`;
}

function describeWorkflow(b: BulkFigures, settings: Settings): string {
	if (b.side === 'haipay') {
		if (b.setting === 'default') return 'HaiPay node, default (concurrency 8), field expressions';
		return `HaiPay node, concurrency ${settings.inFlight}, ${b.setting === 'input' ? 'fields from input' : 'field expressions'}`;
	}
	return b.setting === 'default'
		? 'Code + HTTP Request, default (no batching)'
		: `Code + HTTP Request, batches of ${settings.inFlight} every ${settings.batchInterval} ms`;
}

/** Where each run's time went, from n8n's own run data. */
function timeByNode(bulk: BulkFigures[], settings: Settings): string[] {
	const lines = [
		'',
		'Where the time went, from the run data n8n stored: seconds each node ran, and the rows over the seconds the sending nodes ran (the two HaiPay nodes, or the HTTP Request node).',
		'',
		'| rows | workflow | seconds per node | sending nodes items/s (% of limit) |',
		'|---:|---|---|---:|',
	];
	for (const b of bulk) {
		const nodes = Object.entries(b.nodeSeconds)
			.filter(([, seconds]) => seconds >= 0.05)
			.map(([name, seconds]) => `${name} ${f1(seconds)}`)
			.join(', ');
		const sending = b.sendingItemsPerSecond > 0 ? `${f1(b.sendingItemsPerSecond)} (${f0((b.sendingItemsPerSecond / settings.limit) * 100)}%)` : '';
		lines.push(`| ${f0(b.rows)} | ${describeSetting(b, settings)} | ${nodes} | ${sending} |`);
	}
	return lines;
}

function genuineRow(what: string, genuine: CallbackFigures['genuine']): string {
	return `| ${what} | ${f1(genuine.acknowledged / genuine.seconds)} | ${f0(genuine.p50)} | ${f0(genuine.p99)} | ${f0(genuine.acknowledged)} x 200 SUCCESS${genuine.other + genuine.refused > 0 ? `, ${f0(genuine.other + genuine.refused)} other` : ''} | ${f0(genuine.executions)} | ${f0(genuine.executions - genuine.stuck)} (${f0(genuine.executionsSucceeded)}) | ${f0(genuine.stuck)} | ${f0(genuine.lost)} | ${f1(genuine.executionsPerSecond)} | ${f0(genuine.cpuMsPerCallback)} |`;
}

function forgedRow(forged: CallbackFigures['forged']): string {
	return `| ${f0(forged.sent)} forged | ${f1(forged.perSecond)} answered/s | ${f0(forged.p50)} | ${f0(forged.p99)} | ${f0(forged.refused)} x 401${forged.acknowledged + forged.other > 0 ? `, ${f0(forged.acknowledged + forged.other)} other` : ''} | ${f0(forged.executions)} | | | | | |`;
}

/** The configurations that gave no figures, each with how it failed. */
export function failureLines(failures: Failure[]): string[] {
	if (failures.length === 0) return [];
	return ['', 'Configurations that failed (the run went on without them):', '', '| configuration | how it failed |', '|---|---|', ...failures.map((f) => `| ${f.what} | ${f.error.replace(/\|/g, '\\|')} |`)];
}

export interface ReportInput {
	machine: Machine;
	date: string;
	command: string;
	minutes: number;
	settings: Settings;
	bulk: BulkFigures[];
	/** Absent when the callback configuration failed (it is then among `failures`). */
	callbacks?: CallbackFigures;
	/** The same callbacks into n8n's Webhook node alone: n8n's own cost per callback. */
	plainWebhook?: CallbackFigures;
	/** Callbacks into the HaiPay Trigger with Confirm With HaiPay on. */
	confirmed?: CallbackFigures;
	/** The trigger's cost to refuse the largest body n8n accepts. */
	refusal?: RefusalFigures;
	/** Configurations that failed, with how. */
	failures?: Failure[];
	signing?: SigningFigures;
	targets: Target[];
}

/** The bulk tables: runs, where the time went, and the HaiPay node against the baseline. */
export function bulkLines(settings: Settings, bulk: BulkFigures[], m: Machine): string[] {
	const lines: string[] = [];
	lines.push(
		`Bulk payouts: valid TZS and NGN rows (half each) made by the same Code node, driven through a Webhook on a running n8n; the sandbox adds ${settings.latencyMs} ms to every request, so ${settings.inFlight} in flight allow at most ${settings.limit} items/s. CPU is utime+stime of n8n's process tree (main + task runner) from the request until n8n is idle again (the execution saved), per row; RSS is polled every 100 ms.`,
		'',
		'| rows | workflow | max in flight | wall s | items/s | % of limit | CPU ms/item (main + runner) | peak RSS MB main / runner | RSS growth MB main |',
		'|---:|---|---:|---:|---:|---:|---|---|---:|',
	);
	for (const b of bulk) {
		lines.push(
			`| ${f0(b.rows)} | ${describeSetting(b, settings)} | ${b.maxInFlight} | ${f1(b.wallSeconds)} | ${f1(b.itemsPerSecond)} | ${f0((b.itemsPerSecond / settings.limit) * 100)}% | ${f2(b.cpuMsPerItem)} (${f2(b.cpuMsPerItemByRole.main)} + ${f2(b.cpuMsPerItemByRole.runner)}) | ${f0(b.peakRssMb.main)} / ${f0(b.peakRssMb.runner)} | +${f0(b.rssGrowthMb.main)} |`,
		);
	}
	lines.push(
		'',
		'- Both sides make the same rows with the same Code node. The HaiPay side routes them with an IF node to one HaiPay node per App ID (a credential holds one App ID); the baseline signs every row in a second Code node (task runner) and posts it with one HTTP Request node.',
		`- The HTTP Request node's batching starts ${settings.inFlight} requests every ${settings.batchInterval} ms without waiting for the batch before, so it holds more than ${settings.inFlight} in flight when answers take longer than the interval; without batching it starts every row at once.`,
		"- The baseline does not verify the gateway's answers; the HaiPay node verifies each one.",
		"- Field expressions: one `{{ $json.field }}` per field, the node's default. Fields from input: `fieldsFrom: \"input\"`, the node reads the item's fields by their gateway names.",
		`- n8n runs at V8's default heap limit (${f0(m.n8nHeapLimitMb)} MB for n8n's Node on this machine), except in the rows marked with a heap limit: there n8n's main process runs with \`--max-old-space-size\`, the setting n8n's docs give for bounding its memory.`,
	);
	lines.push(...timeByNode(bulk, settings));
	lines.push('', '| HaiPay node / baseline | rows | items/s | CPU ms/item |', '|---|---:|---:|---:|');
	const heapMb = bulk.find((b) => b.heapMb !== undefined)?.heapMb;
	const pairs: Array<{ node: Setting; base: Setting; heapMb?: number; what: string }> = [
		{ node: 'tuned', base: 'tuned', what: `both at ${settings.inFlight} in flight, field expressions` },
		{ node: 'input', base: 'tuned', what: `both at ${settings.inFlight} in flight, fields from input` },
		{ node: 'default', base: 'default', what: 'both at their defaults' },
		...(heapMb === undefined ? [] : [{ node: 'tuned' as const, base: 'tuned' as const, heapMb, what: `both at ${settings.inFlight} in flight, field expressions, n8n heap limit ${f0(heapMb)} MB` }]),
	];
	for (const pair of pairs) {
		for (const rows of [...new Set(bulk.map((b) => b.rows))]) {
			const node = find(bulk, 'haipay', pair.node, rows, pair.heapMb);
			const base = find(bulk, 'baseline', pair.base, rows, pair.heapMb);
			if (!node || !base) continue;
			lines.push(`| ${pair.what} | ${f0(rows)} | ${f2(node.itemsPerSecond / base.itemsPerSecond)}x | ${f2(node.cpuMsPerItem / base.cpuMsPerItem)}x |`);
		}
	}
	return lines;
}

/** The callback table (HaiPay Trigger, forged, Confirm With HaiPay, n8n's Webhook node) and the refusal cost. */
export function callbackLines(input: Pick<ReportInput, 'settings' | 'callbacks' | 'plainWebhook' | 'confirmed' | 'refusal'>): string[] {
	const { callbacks } = input;
	return [
		`Callbacks: payout results posted to the active HaiPay Trigger workflow's production URL by a separate process, ${input.settings.callbackConcurrency} at a time; executions counted through n8n's REST API once none is running. Accepted/s counts SUCCESS answers over the client's time; executions/s counts from the first callback until the last execution ended.`,
		'',
		'| callbacks | accepted/s | p50 ms | p99 ms | answers | executions stored | ran to an end (succeeded) | never ran | lost | executions/s | CPU ms/callback |',
		'|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|',
		...(callbacks ? [genuineRow(`${f0(callbacks.genuine.sent)} signed, distinct`, callbacks.genuine), forgedRow(callbacks.forged)] : []),
		...(input.confirmed ? [genuineRow(`${f0(input.confirmed.genuine.sent)} signed, Confirm With HaiPay on (one order query each)`, input.confirmed.genuine)] : []),
		...(input.plainWebhook ? [genuineRow(`${f0(input.plainWebhook.genuine.sent)} into n8n's Webhook node alone (reference: no signature check, no deduplication)`, input.plainWebhook.genuine)] : []),
		...(input.refusal ? ['', '| refusal | measured | goal |', '|---|---|---|', refusalRow(input.refusal)] : []),
	];
}

export function signingLines(signing: SigningFigures): string[] {
	const pct = (part: number, whole: number) => `${f0((part / whole) * 100)}%`;
	return [
		`Signing: the package's shipped \`sign()\` and \`verify()\` (nodes/shared/signing/signature.ts: canonical string, SHA-256, RSA-2048 PKCS#1 v1.5 on libuv's thread pool, base64), against \`openssl speed rsa2048\` on the same machine in the same run. One at a time: each call awaited before the next, against openssl on one core. Thread pool: ${f0(signing.inFlight)} calls in flight on ${f0(signing.threadPoolSize)} pool threads, against \`openssl speed -multi ${f0(signing.cores)}\` (one process per core).`,
		'',
		`| measure | this package | openssl speed rsa2048 | ratio |`,
		'|---|---:|---:|---:|',
		`| signatures/s, one at a time | ${f0(signing.signPerSecond)} | ${f0(signing.opensslSignPerSecond)} (1 core) | ${pct(signing.signPerSecond, signing.opensslSignPerSecond)} |`,
		`| verifications/s, one at a time | ${f0(signing.verifyPerSecond)} | ${f0(signing.opensslVerifyPerSecond)} (1 core) | ${pct(signing.verifyPerSecond, signing.opensslVerifyPerSecond)} |`,
		`| signatures/s, ${f0(signing.inFlight)} in flight | ${f0(signing.poolSignPerSecond)} | ${f0(signing.opensslMultiSignPerSecond)} (${f0(signing.cores)} cores) | ${pct(signing.poolSignPerSecond, signing.opensslMultiSignPerSecond)} |`,
		`| verifications/s, ${f0(signing.inFlight)} in flight | ${f0(signing.poolVerifyPerSecond)} | ${f0(signing.opensslMultiVerifyPerSecond)} (${f0(signing.cores)} cores) | ${pct(signing.poolVerifyPerSecond, signing.opensslMultiVerifyPerSecond)} |`,
		`| canonical strings/s (main thread) | ${f0(signing.canonicalPerSecond)} | | |`,
	];
}

export function targetLines(list: Target[]): string[] {
	if (list.length === 0) return [];
	return ['', '| target | measured | |', '|---|---|---|', ...list.map((t) => `| ${t.what} | ${t.measured} | ${t.pass ? 'PASS' : 'MISS'} |`)];
}

export function machineLine(m: Machine): string {
	return `Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, Linux ${m.kernel}; the benchmark and the sandbox on Node ${m.benchNode}, n8n ${m.n8n} on Node ${m.n8nNode}; ${m.openssl}; V8's default heap limit for n8n: ${f0(m.n8nHeapLimitMb)} MB. Load average before the run: ${m.loadBefore.join(', ')}.`;
}

/** One section's body: its tables, the configurations of it that failed, its targets, and the machine. */
export function sectionBody(lines: string[], failures: Failure[], list: Target[], m: Machine): string {
	return `${[...lines, ...failureLines(failures), ...targetLines(list), '', machineLine(m)].join('\n')}\n`;
}

/** Everything the single-n8n parts measured, as one text: the console's summary (the file is written per section). */
export function markdown(input: ReportInput): string {
	const lines = [
		...bulkLines(input.settings, input.bulk, input.machine),
		'',
		...callbackLines(input),
		...failureLines(input.failures ?? []),
		...(input.signing ? ['', ...signingLines(input.signing)] : []),
		...targetLines(input.targets),
		'',
		machineLine(input.machine),
		`Date: ${input.date}. Command: \`${input.command}\` (${f1(input.minutes)} minutes).`,
	];
	return `${lines.join('\n')}\n`;
}
