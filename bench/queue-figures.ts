import type { RepeatGuard } from './queue-workflows';

/** The queue-mode section's settings and the figures it gives: a row per configuration, or how it failed. */

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
	figures: Outcome<{
		rows: number;
		seconds: number;
		payoutsPerSecond: number;
		cpuMsPerPayout: number;
		ranOn: string[];
	}>;
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
	figures: Outcome<{
		distinct: number;
		deliveries: number;
		acknowledged: number;
		executions: number;
		effects: number;
		duplicates: number;
		missing: number;
	}>;
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

/** A configuration that failed, as its row says it: the first line of the error. */
export const failure = (error: unknown) => ({
	error: ((error as Error).message ?? String(error)).split('\n')[0].slice(0, 300),
});
