import type { BulkFigures, Setting } from './bulk';
import type { CallbackFigures } from './callbacks';
import type { RefusalFigures } from './refusal';

/** The benchmark's targets, each judged PASS or MISS on the figures of a run. */

/**
 * What the tables and targets quote of a run: the sandbox's latency, the HaiPay node's concurrency and the items/s
 * they allow, the baseline's batch interval, the callback client's concurrency.
 */
export interface Settings {
	latencyMs: number;
	inFlight: number;
	limit: number;
	batchInterval: number;
	callbackConcurrency: number;
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
export function findRun(
	bulk: BulkFigures[],
	side: BulkFigures['side'],
	setting: Setting,
	rows: number,
	heapMb?: number,
): BulkFigures | undefined {
	return bulk.find((b) => b.side === side && b.setting === setting && b.rows === rows && b.heapMb === heapMb);
}

const RSS_GROWTH_LIMIT_MB = 300;

/**
 * The most items/s a run can reach: the in-flight limit over the sandbox's latency, for each App ID that sends at
 * once. The rows are TZS and NGN: one node for every currency keeps 16 in flight for each of the two App IDs.
 */
export function limitOf(setting: Setting, settings: Settings): number {
	return settings.limit * (setting === 'input' ? 2 : 1);
}

/** The trigger's own CPU time to refuse the largest body n8n accepts. */
export const REFUSAL_GOAL_MS = 50;

/** The bulk targets for each way of setting up the HaiPay node at the tuned concurrency, then the callback ones. */
export function targets(
	bulk: BulkFigures[],
	callbacks: CallbackFigures | undefined,
	settings: Settings,
	rows: number,
	refusal?: RefusalFigures,
): Target[] {
	return [...bulkTargets(bulk, settings, rows), ...callbackTargets(callbacks, refusal)];
}

/** The targets of the bulk section, judged on the runs of `rows` rows. */
export function bulkTargets(bulk: BulkFigures[], settings: Settings, rows: number): Target[] {
	const base = findRun(bulk, 'baseline', 'tuned', rows);
	const out: Target[] = [];
	for (const setting of ['tuned', 'input'] as const) {
		const node = findRun(bulk, 'haipay', setting, rows);
		if (!node || !base) continue;
		const limit = limitOf(setting, settings);
		// The mixed sheet's goal is issue 44's (75% of its bound, half the baseline's CPU); field expressions keep 80%.
		const share = setting === 'input' ? 0.75 : 0.8;
		const floor = limit * share;
		const who =
			setting === 'input' ? 'HaiPay node (one node, currency from each row)' : 'HaiPay node (field expressions)';
		out.push(
			{
				what: `${who} reaches >= ${f0(share * 100)}% of the ${f0(limit)} items/s limit on ${f0(rows)} rows (>= ${f0(floor)} items/s)`,
				measured: `${f1(node.itemsPerSecond)} items/s (${f0((node.itemsPerSecond / limit) * 100)}%)`,
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
			...(setting === 'input'
				? [
						{
							what: `${who} uses at most half the baseline's CPU per item on ${f0(rows)} rows`,
							measured: `${f2(node.cpuMsPerItem / base.cpuMsPerItem)}x (${f2(node.cpuMsPerItem)} vs ${f2(base.cpuMsPerItem)} ms)`,
							pass: node.cpuMsPerItem <= base.cpuMsPerItem * 0.5,
						},
					]
				: []),
			{
				what: `${who}: peak RSS of n8n's main process grows < ${RSS_GROWTH_LIMIT_MB} MB over ${f0(rows)} rows`,
				measured: `+${f0(node.rssGrowthMb.main)} MB (baseline +${f0(base.rssGrowthMb.main)} MB)`,
				pass: node.rssGrowthMb.main < RSS_GROWTH_LIMIT_MB,
			},
		);
	}
	const capped = bulk.find(
		(b) => b.side === 'haipay' && b.setting === 'tuned' && b.rows === rows && b.heapMb !== undefined,
	);
	const cappedBase = capped && findRun(bulk, 'baseline', 'tuned', rows, capped.heapMb);
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
/** The issue's goal for a callback's cost: CPU per callback against n8n's Webhook node in the same run. */
export const CALLBACK_CPU_GOAL = 1.5;

export function callbackTargets(
	callbacks: CallbackFigures | undefined,
	refusal?: RefusalFigures,
	plainWebhook?: CallbackFigures,
): Target[] {
	const out: Target[] = [];
	if (refusal) {
		out.push({
			what: `refusing the largest body n8n accepts: the trigger's CPU time < ${REFUSAL_GOAL_MS} ms`,
			measured: `${f2(refusal.refuseMs)} ms (genuine callback ${f2(refusal.genuineMs)} ms)`,
			pass: refusal.refuseMs < REFUSAL_GOAL_MS,
		});
		const forged = refusal.forged;
		if (forged !== undefined)
			out.push({
				what: `refusing a forged ${f0(forged.bytes / 1000)} KB body at ${forged.apps} App IDs: at most twice a small forged body's CPU`,
				measured: `${f2(forged.largeMs)} vs ${f2(forged.smallMs)} ms (${f2(forged.largeMs / forged.smallMs)}x)`,
				pass: forged.largeMs <= 2 * forged.smallMs,
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
	if (plainWebhook) {
		const ratio = genuine.cpuMsPerCallback / plainWebhook.genuine.cpuMsPerCallback;
		out.push({
			what: `callbacks: CPU per callback <= ${CALLBACK_CPU_GOAL}x n8n's Webhook node's, in the same run`,
			measured: `${f0(genuine.cpuMsPerCallback)} vs ${f0(plainWebhook.genuine.cpuMsPerCallback)} ms (${f2(ratio)}x)`,
			pass: ratio <= CALLBACK_CPU_GOAL,
		});
	}
	return out;
}
