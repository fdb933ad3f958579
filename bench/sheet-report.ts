import { PAYROLL_BATCH } from '../playground/payroll';
import type { SheetCase, SheetFigures } from './sheet';
import type { Target } from './targets';

/** The sheet part's configurations, its section's tables and its targets (bench/sheet.ts measures them). */

/** n8n's task-runner settings that let one Code node task sign a whole sheet: its heartbeat and time-out, 10 minutes. */
export const LONG_TASKS = { N8N_RUNNERS_HEARTBEAT_INTERVAL: '600', N8N_RUNNERS_TASK_TIMEOUT: '600' };

export function sheetCases(heapMb: number, smallHeapMb: number): SheetCase[] {
	const baseline = 'Code + HTTP Request (baseline), one execution';
	const all: SheetCase[] = [
		{ label: 'one HaiPay node, one execution', kind: 'haipay' },
		{ label: 'one HaiPay node, one execution', kind: 'haipay', heapMb },
		{ label: 'one HaiPay node, one execution', kind: 'haipay', heapMb: 512 },
		{ label: 'one HaiPay node, one execution', kind: 'haipay', heapMb: smallHeapMb },
		{ label: baseline, kind: 'baseline' },
		{ label: baseline, kind: 'baseline', heapMb },
		{ label: `${baseline}, task runner heartbeat and time-out 600 s`, kind: 'baseline', env: LONG_TASKS },
		{ label: `${baseline}, task runner heartbeat and time-out 600 s`, kind: 'baseline', heapMb, env: LONG_TASKS },
		{ label: `example 9: batches of ${PAYROLL_BATCH.toLocaleString('en-US')} through a sub-workflow`, kind: 'batches' },
	];
	// BENCH_SHEET_SMALL_HEAP_MB=512 names a configuration already in the list: it is measured once.
	return all.filter(
		(c, index) => all.findIndex((o) => o.label === c.label && o.kind === c.kind && o.heapMb === c.heapMb) === index,
	);
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);
const heap = (figures: SheetFigures) => (figures.heapMb === undefined ? "n8n's default" : `${f0(figures.heapMb)} MB`);

/** What a run's end reads as in the table. */
function ending(f: SheetFigures): string {
	if (f.ended === 'done') return 'done';
	if (f.ended === 'out of memory') return `**out of memory** at ${f0(f.paid)} rows`;
	if (f.ended === 'stopped by the cap') return `**stopped** after ${f0(f.paid)} rows (the cap)`;
	return `**${f.ended}** after ${f0(f.paid)} rows`;
}

/** The baseline measured at the same heap limit in the same run, if one finished. */
function baselineOf(all: SheetFigures[], f: SheetFigures): SheetFigures | undefined {
	return all.find((other) => other.kind === 'baseline' && other.heapMb === f.heapMb && other.ended === 'done');
}

export function sheetLines(
	all: SheetFigures[],
	settings: { rows: number; capMinutes: number; latencyMs: number; inFlight: number },
): string[] {
	const rows = all.map((f) => {
		const base = f.kind === 'baseline' ? undefined : baselineOf(all, f);
		const ratio = base && f.ended === 'done' ? `${(f.itemsPerSecond / base.itemsPerSecond).toFixed(2)}x` : '';
		const unread = f.storedUnread === undefined ? '' : 'not read: n8n did not send it in time';
		const kept =
			f.storedMb === undefined
				? unread
				: `${f1(f.storedMb)}${f.executions !== undefined && f.executions > 1 ? ` (${f.executions} executions)` : ''}`;
		const written = f.written === undefined ? '' : ` (${f0(f.written)} written)`;
		return `| ${f.label} | ${heap(f)} | ${ending(f)} | ${f0(f.paid)}${written} | ${f1(f.wallSeconds)} | ${f1(f.itemsPerSecond)} | ${ratio} | ${f.cpuMsPerRow.toFixed(2)} | ${f0(f.peakRssMb.main)} / ${f0(f.peakRssMb.runner)} | ${kept} | ${f0(f.applies)} | ${f0(f.sentTwice)} |`;
	});
	return [
		`A payroll-sized sheet: ${f0(settings.rows)} valid rows, TZS, NGN and ZAR by turns (playground/payroll.ts), written as a CSV that each workflow reads with n8n's Read/Write Files and Extract from File, every configuration with orderIds of its own, in a fresh n8n process with the heap limit given (\`--max-old-space-size\`), within a cap of ${settings.capMinutes} minutes. The sandbox adds ${settings.latencyMs} ms to every request. The HaiPay node (one for every currency, fields from each row) and example 9's Pay node keep ${settings.inFlight} in flight per App ID; the baseline starts batches of ${settings.inFlight} every 50 ms. Items/s counts the rows the sandbox made orders for over the run's wall time; CPU is utime+stime of n8n's process tree (main and task runner) per row paid; RSS is polled every 100 ms. Stored: the run data n8n kept in its database for the run's executions (example 9: the sheet's and every batch's). An n8n process that ran out of memory, and the cap, end a configuration as measured.`,
		'',
		'| configuration | n8n heap limit | ended | rows paid | wall s | items/s | items/s vs the baseline at the same heap | CPU ms/row | peak RSS MB main / runner | stored MB | creates received | orderIds sent twice |',
		'|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|',
		...rows,
		'',
		'- "orderIds sent twice" counts creates the sandbox received for an orderId it had received before: 0 means no row was sent twice. Rows paid are distinct orderIds the sandbox made an order for.',
		"- The baseline signs every row in one Code node task. At n8n's task-runner defaults (a heartbeat every 30 s, a task time-out of 300 s) a task that long can be ended by n8n; the rows marked with a heartbeat and time-out of 600 s set `N8N_RUNNERS_HEARTBEAT_INTERVAL` and `N8N_RUNNERS_TASK_TIMEOUT` for that run, the settings a merchant would change for it. The HaiPay configurations run at n8n's defaults.",
		"- Example 9 runs as shipped but for its Pay node's concurrency, set to that of the one-execution HaiPay node; it starts from n8n's REST API as the editor's *Execute workflow* does, and its rows written are the lines of its results file.",
	];
}

export function sheetTargets(all: SheetFigures[], rows: number): Target[] {
	const paid = all.map((f) => ({
		what: `${f.label}, ${heap(f)} heap: no orderId sent twice${f.kind === 'baseline' ? '' : `, ${f0(rows)} rows paid`}`,
		measured: `${f0(f.sentTwice)} sent twice, ${f0(f.paid)} paid${f.written === undefined ? '' : `, ${f0(f.written)} written`}`,
		pass:
			f.sentTwice === 0 &&
			(f.kind === 'baseline' || (f.paid === rows && (f.written === undefined || f.written === rows))),
	}));
	return [...paid, ...batchesTargets(all)];
}

/** Example 9 pays at least 80% of the one-execution rate, both at n8n's default heap in the same run. */
function batchesTargets(all: SheetFigures[]): Target[] {
	const batches = all.find((f) => f.kind === 'batches' && f.heapMb === undefined);
	const one = all.find((f) => f.kind === 'haipay' && f.heapMb === undefined);
	if (batches === undefined || one === undefined) return [];
	const ratio = one.itemsPerSecond > 0 ? batches.itemsPerSecond / one.itemsPerSecond : 0;
	return [
		{
			what: `${batches.label}: at least 80% of the one-execution rate (one HaiPay node), n8n's default heap`,
			measured: `${f1(batches.itemsPerSecond)} vs ${f1(one.itemsPerSecond)} items/s (${f0(ratio * 100)}%)`,
			pass: batches.ended === 'done' && one.ended === 'done' && ratio >= 0.8,
		},
	];
}
