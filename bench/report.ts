import type { BulkFigures, Setting } from './bulk';
import type { CallbackFigures } from './callbacks';
import { machineLine, n8nFacts, type Machine } from './machine';
import { refusalRow, type RefusalFigures } from './refusal';
import type { SigningFigures } from './signing-figures';
import { findRun, limitOf, type Settings, type Target } from './targets';

/** The results tables of the single-n8n parts, and the console's summary of a run. */

// What bench/signing.ts and test/unit/bench-targets.test.ts, in other hands, read from here; new code imports
// from targets.ts and machine.ts.
export { targets } from './targets';
export type { Settings, Target } from './targets';
export { machine } from './machine';
export type { Machine } from './machine';

/**
 * A configuration that did not give figures, and how it failed. The run goes on to measure the others, then fails:
 * its part's section is not written (bench/results.md keeps the one before), so that no report reads "failed".
 */
export interface Failure {
	what: string;
	error: string;
	/** The section it belongs to (bulk, callbacks, e2e, ...). */
	part?: string;
}

/** The error a run ends with when configurations failed: each named, and their sections kept as they were. */
export function failedRun(failures: Failure[]): Error {
	const list = failures.map((failure) => `- ${failure.part ?? ''}: ${failure.what}: ${failure.error}`).join('\n');
	const parts = [...new Set(failures.map((failure) => failure.part))].join(', ');
	return new Error(
		`bench: ${failures.length} configuration(s) failed; their sections of bench/results.md are kept as they were (${parts}):\n${list}`,
	);
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

function describeSetting(b: BulkFigures, settings: Settings): string {
	const how = describeWorkflow(b, settings);
	return b.heapMb === undefined ? how : `${how}; n8n heap limit ${f0(b.heapMb)} MB`;
}

function describeWorkflow(b: BulkFigures, settings: Settings): string {
	if (b.side === 'haipay') {
		if (b.setting === 'default') return 'HaiPay node, default (concurrency 8), field expressions';
		return `HaiPay node, concurrency ${settings.inFlight}, ${b.setting === 'input' ? 'one node for every currency, currency and fields from each row' : 'field expressions'}`;
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
		const sending =
			b.sendingItemsPerSecond > 0
				? `${f1(b.sendingItemsPerSecond)} (${f0((b.sendingItemsPerSecond / limitOf(b.setting, settings)) * 100)}%)`
				: '';
		lines.push(`| ${f0(b.rows)} | ${describeSetting(b, settings)} | ${nodes} | ${sending} |`);
	}
	return lines;
}

function genuineRow(what: string, genuine: CallbackFigures['genuine']): string {
	return `| ${what} | ${f1(genuine.acknowledged / genuine.seconds)} | ${f0(genuine.p50)} | ${f0(genuine.p99)} | ${f0(genuine.acknowledged)} x 200 SUCCESS${genuine.other + genuine.refused > 0 ? `, ${f0(genuine.other + genuine.refused)} other` : ''} | ${f0(genuine.executions)} | ${f0(genuine.executions - genuine.stuck)} (${f0(genuine.executionsSucceeded)}) | ${f0(genuine.stuck)} | ${f0(genuine.lost)} | ${f1(genuine.executionsPerSecond)} | ${f0(genuine.cpuMsPerCallback)} |`;
}

/** Forged callbacks (four kinds in turn, callbacks-client.ts), with n8n's CPU per request when it was sampled. */
function forgedRow(forged: CallbackFigures['forged']): string {
	const size = forged.bytes === undefined ? '' : `, ${f0(forged.bytes / 1000)} KB each`;
	const cpu = forged.cpuMsPerRequest === undefined ? '' : f1(forged.cpuMsPerRequest);
	return `| ${f0(forged.sent)} forged${size} | ${f1(forged.perSecond)} answered/s | ${f0(forged.p50)} | ${f0(forged.p99)} | ${f0(forged.refused)} x 401${forged.acknowledged + forged.other > 0 ? `, ${f0(forged.acknowledged + forged.other)} other` : ''} | ${f0(forged.executions)} | | | | | ${cpu} |`;
}

export interface ReportInput {
	machine: Machine;
	date: string;
	command: string;
	minutes: number;
	settings: Settings;
	bulk: BulkFigures[];
	/** Absent when the callback configuration failed (the run then fails, after measuring the others). */
	callbacks?: CallbackFigures;
	/** The same callbacks into n8n's Webhook node alone: n8n's own cost per callback. */
	plainWebhook?: CallbackFigures;
	/** Callbacks into the HaiPay Trigger with Confirm With HaiPay on. */
	confirmed?: CallbackFigures;
	/** The trigger's cost to refuse the largest body n8n accepts. */
	refusal?: RefusalFigures;
	signing?: SigningFigures;
	targets: Target[];
}

/** What the bulk tables measure, and how. */
function bulkIntro(settings: Settings): string {
	return `Bulk payouts: valid TZS and NGN rows (half each) made by the same Code node, driven through a Webhook on a running n8n; the sandbox adds ${settings.latencyMs} ms to every request, so ${settings.inFlight} in flight allow at most ${settings.limit} items/s for each App ID that sends at once (the % of limit of one node for every currency is of twice that: it keeps ${settings.inFlight} in flight for each of the two). CPU is utime+stime of n8n's process tree (main + task runner) from the request until n8n is idle again (the execution saved), per row; the sandbox's is that of the benchmark's own process, where the sandbox runs (with the benchmark's polling); the CPU ceiling is the rate at which n8n and the sandbox together would use every core of the machine (cores x 1,000 / their CPU ms per item), a bound no tuning of the node passes on this machine; RSS is polled every 100 ms.`;
}

/** The bulk tables: runs, where the time went, and the HaiPay node against the baseline. */
export function bulkLines(settings: Settings, bulk: BulkFigures[], m: Machine): string[] {
	const lines: string[] = [];
	lines.push(
		bulkIntro(settings),
		'',
		'| rows | workflow | max in flight | wall s | items/s | % of limit | CPU ms/item (main + runner) | sandbox CPU ms/item | CPU ceiling items/s | peak RSS MB main / runner | RSS growth MB main |',
		'|---:|---|---:|---:|---:|---:|---|---:|---:|---|---:|',
	);
	for (const b of bulk) {
		lines.push(
			`| ${f0(b.rows)} | ${describeSetting(b, settings)} | ${b.maxInFlight} | ${f1(b.wallSeconds)} | ${f1(b.itemsPerSecond)} | ${f0((b.itemsPerSecond / limitOf(b.setting, settings)) * 100)}% | ${f2(b.cpuMsPerItem)} (${f2(b.cpuMsPerItemByRole.main)} + ${f2(b.cpuMsPerItemByRole.runner)}) | ${b.sandboxCpuMsPerItem === undefined ? '' : f2(b.sandboxCpuMsPerItem)} | ${b.sandboxCpuMsPerItem === undefined ? '' : f0((m.cores * 1000) / (b.cpuMsPerItem + b.sandboxCpuMsPerItem))} | ${f0(b.peakRssMb.main)} / ${f0(b.peakRssMb.runner)} | +${f0(b.rssGrowthMb.main)} |`,
		);
	}
	lines.push(
		'',
		'- Both sides make the same rows with the same Code node. The HaiPay side routes them with an IF node to one HaiPay node per App ID (a credential holds one App ID); the baseline signs every row in a second Code node (task runner) and posts it with one HTTP Request node.',
		`- The HTTP Request node's batching starts ${settings.inFlight} requests every ${settings.batchInterval} ms without waiting for the batch before, so it holds more than ${settings.inFlight} in flight when answers take longer than the interval; without batching it starts every row at once.`,
		"- The baseline does not verify the gateway's answers; the HaiPay node verifies each one.",
		'- Field expressions: one `{{ $json.field }}` per field, the node\'s default. Fields from input: `fieldsFrom: "input"`, the node reads the item\'s fields by their gateway names.',
		`- n8n runs at V8's default heap limit (${f0(n8nFacts(m).n8nHeapLimitMb)} MB for n8n's Node on this machine), except in the rows marked with a heap limit: there n8n's main process runs with \`--max-old-space-size\`, the setting n8n's docs give for bounding its memory.`,
	);
	lines.push(...timeByNode(bulk, settings));
	lines.push('', '| HaiPay node / baseline | rows | items/s | CPU ms/item |', '|---|---:|---:|---:|');
	const heapMb = bulk.find((b) => b.heapMb !== undefined)?.heapMb;
	const pairs: Array<{ node: Setting; base: Setting; heapMb?: number; what: string }> = [
		{ node: 'tuned', base: 'tuned', what: `both at ${settings.inFlight} in flight, field expressions` },
		{
			node: 'input',
			base: 'tuned',
			what: `both at ${settings.inFlight} in flight, one HaiPay node with the currency from each row`,
		},
		{ node: 'default', base: 'default', what: 'both at their defaults' },
		...(heapMb === undefined
			? []
			: [
					{
						node: 'tuned' as const,
						base: 'tuned' as const,
						heapMb,
						what: `both at ${settings.inFlight} in flight, field expressions, n8n heap limit ${f0(heapMb)} MB`,
					},
				]),
	];
	for (const pair of pairs) {
		for (const rows of [...new Set(bulk.map((b) => b.rows))]) {
			const node = findRun(bulk, 'haipay', pair.node, rows, pair.heapMb);
			const base = findRun(bulk, 'baseline', pair.base, rows, pair.heapMb);
			if (!node || !base) continue;
			lines.push(
				`| ${pair.what} | ${f0(rows)} | ${f2(node.itemsPerSecond / base.itemsPerSecond)}x | ${f2(node.cpuMsPerItem / base.cpuMsPerItem)}x |`,
			);
		}
	}
	return lines;
}

/** The callback table (HaiPay Trigger, forged, Confirm With HaiPay, n8n's Webhook node) and the refusal cost. */
export function callbackLines(
	input: Pick<ReportInput, 'settings' | 'callbacks' | 'plainWebhook' | 'confirmed' | 'refusal'>,
): string[] {
	const { callbacks } = input;
	return [
		`Callbacks: payout results posted to the active HaiPay Trigger workflow's production URL by a separate process, ${input.settings.callbackConcurrency} at a time; executions counted through n8n's REST API once none is running. Accepted/s counts SUCCESS answers over the client's time; executions/s counts from the first callback until the last execution ended.`,
		'',
		'| callbacks | accepted/s | p50 ms | p99 ms | answers | executions stored | ran to an end (succeeded) | never ran | lost | executions/s | CPU ms/callback |',
		'|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|',
		...(callbacks
			? [
					genuineRow(`${f0(callbacks.genuine.sent)} signed, distinct`, callbacks.genuine),
					forgedRow(callbacks.forged),
					...(callbacks.forgedLarge ? [forgedRow(callbacks.forgedLarge)] : []),
				]
			: []),
		...(input.confirmed
			? [
					genuineRow(
						`${f0(input.confirmed.genuine.sent)} signed, Confirm With HaiPay on (one order query each)`,
						input.confirmed.genuine,
					),
				]
			: []),
		...(input.plainWebhook
			? [
					genuineRow(
						`${f0(input.plainWebhook.genuine.sent)} into n8n's Webhook node alone (reference: no signature check, no deduplication)`,
						input.plainWebhook.genuine,
					),
				]
			: []),
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
	return [
		'',
		'| target | measured | |',
		'|---|---|---|',
		...list.map((t) => `| ${t.what} | ${t.measured} | ${t.pass ? 'PASS' : 'MISS'} |`),
	];
}

/** One section's body: its tables, its targets, and the machine (`line`: its line for a section without n8n). */
export function sectionBody(lines: string[], list: Target[], m: Machine, line = machineLine): string {
	return `${[...lines, ...targetLines(list), '', line(m)].join('\n')}\n`;
}

/** Everything the single-n8n parts measured, as one text: the console's summary (the file is written per section). */
export function markdown(input: ReportInput): string {
	const lines = [
		...bulkLines(input.settings, input.bulk, input.machine),
		'',
		...callbackLines(input),
		...(input.signing ? ['', ...signingLines(input.signing)] : []),
		...targetLines(input.targets),
		'',
		machineLine(input.machine),
		`Date: ${input.date}. Command: \`${input.command}\` (${f1(input.minutes)} minutes).`,
	];
	return `${lines.join('\n')}\n`;
}
