import type { BulkFigures } from '../../bench/bulk';
import type { CallbackFigures } from '../../bench/callbacks';
import { loadSentence, machine as readMachine, machineLine } from '../../bench/machine';
import { QUEUE_SETTINGS, type QueueFigures } from '../../bench/queue-figures';
import { queueFailures, queueMarkdown } from '../../bench/queue-report';
import { sandboxLines, sandboxTargets, type CapacityRun, type SandboxFigures } from '../../bench/sandbox-capacity';
import type { SheetFigures } from '../../bench/sheet';
import { sheetTargets } from '../../bench/sheet-report';
import {
	failedRun,
	markdown,
	sectionBody,
	targets,
	type Machine,
	type Settings,
	type Target,
} from '../../bench/report';

/** The benchmark's verdicts: each target on both sides of its edge, from figures made up for the purpose. */

const SETTINGS: Settings = { latencyMs: 50, inFlight: 16, limit: 320, batchInterval: 50, callbackConcurrency: 20 };

function bulk(overrides: Partial<BulkFigures> & Pick<BulkFigures, 'side' | 'setting'>): BulkFigures {
	return {
		label: `${overrides.side} ${overrides.setting}`,
		rows: 10_000,
		wallSeconds: 40,
		itemsPerSecond: 250,
		cpuMsPerItem: 2,
		cpuMsPerItemByRole: { main: 1.9, runner: 0.1 },
		sandboxCpuMsPerItem: 1,
		peakRssMb: { main: 900, runner: 150 },
		rssGrowthMb: { main: 200, runner: 5 },
		maxInFlight: 16,
		nodeSeconds: {},
		sendingItemsPerSecond: 0,
		applies: 10_000,
		orders: 10_000,
		settled: true,
		...overrides,
	};
}

const CALLBACKS: CallbackFigures = {
	genuine: {
		sent: 2000,
		acknowledged: 2000,
		refused: 0,
		other: 0,
		seconds: 10,
		perSecond: 200,
		p50: 20,
		p99: 80,
		max: 120,
		executions: 2000,
		executionsSucceeded: 2000,
		lost: 0,
		stuck: 0,
		cpuMsPerCallback: 5,
		drainSeconds: 12,
		executionsPerSecond: 166,
	},
	forged: {
		sent: 200,
		acknowledged: 0,
		refused: 200,
		other: 0,
		seconds: 1,
		perSecond: 200,
		p50: 5,
		p99: 9,
		max: 10,
		executions: 0,
	},
};

const BASELINE = bulk({
	side: 'baseline',
	setting: 'tuned',
	itemsPerSecond: 200,
	cpuMsPerItem: 2.4,
	rssGrowthMb: { main: 460, runner: 80 },
});

function verdict(all: Target[], startsWith: string, contains: string): Target {
	const found = all.find((t) => t.what.startsWith(startsWith) && t.what.includes(contains));
	if (!found) throw new Error(`no target "${startsWith} ... ${contains}" in ${all.map((t) => t.what).join(' | ')}`);
	return found;
}

const fieldExpressions = 'HaiPay node (field expressions)';

describe('bench targets', () => {
	it('80% of the limit: 256 items/s passes, just under it misses', () => {
		const at = (itemsPerSecond: number) =>
			verdict(
				targets([bulk({ side: 'haipay', setting: 'tuned', itemsPerSecond }), BASELINE], CALLBACKS, SETTINGS, 10_000),
				fieldExpressions,
				'>= 80%',
			);
		expect(at(256).pass).toBe(true);
		expect(at(255.9).pass).toBe(false);
		expect(at(255.9).measured).toBe('255.9 items/s (80%)');
	});

	it('the mixed sheet: 75% of its 640 items/s bound passes at 480 and misses just under it', () => {
		const at = (itemsPerSecond: number) =>
			verdict(
				targets([bulk({ side: 'haipay', setting: 'input', itemsPerSecond }), BASELINE], CALLBACKS, SETTINGS, 10_000),
				'HaiPay node (one node',
				'>= 75%',
			);
		expect(at(480).pass).toBe(true);
		expect(at(479.9).pass).toBe(false);
	});

	it("the mixed sheet: at most half the baseline's CPU per item passes at 0.5x and misses just over it", () => {
		const at = (cpuMsPerItem: number) =>
			verdict(
				targets([bulk({ side: 'haipay', setting: 'input', cpuMsPerItem }), BASELINE], CALLBACKS, SETTINGS, 10_000),
				'HaiPay node (one node',
				'at most half',
			);
		expect(at(1.2).pass).toBe(true);
		expect(at(1.2).measured).toBe('0.50x (1.20 vs 2.40 ms)');
		expect(at(1.21).pass).toBe(false);
	});

	it('beating the baseline means strictly more items/s and strictly less CPU per item', () => {
		const run = (itemsPerSecond: number, cpuMsPerItem: number) =>
			targets(
				[bulk({ side: 'haipay', setting: 'tuned', itemsPerSecond, cpuMsPerItem }), BASELINE],
				CALLBACKS,
				SETTINGS,
				10_000,
			);
		expect(verdict(run(200.1, 2.39), fieldExpressions, "baseline's items/s").pass).toBe(true);
		expect(verdict(run(200, 2.39), fieldExpressions, "baseline's items/s").pass).toBe(false);
		expect(verdict(run(200.1, 2.39), fieldExpressions, "baseline's CPU").pass).toBe(true);
		expect(verdict(run(200.1, 2.4), fieldExpressions, "baseline's CPU").pass).toBe(false);
	});

	it('RSS growth under 300 MB passes at 299 and misses at 300, and names the baseline figure', () => {
		const at = (main: number) =>
			verdict(
				targets(
					[bulk({ side: 'haipay', setting: 'tuned', rssGrowthMb: { main, runner: 0 } }), BASELINE],
					CALLBACKS,
					SETTINGS,
					10_000,
				),
				fieldExpressions,
				'peak RSS',
			);
		expect(at(299).pass).toBe(true);
		expect(at(300).pass).toBe(false);
		expect(at(300).measured).toBe('+300 MB (baseline +460 MB)');
	});

	it('a run with a heap limit is judged on its own and never stands in for the default run', () => {
		const defaultRun = bulk({ side: 'haipay', setting: 'tuned', rssGrowthMb: { main: 700, runner: 5 } });
		const cappedRun = bulk({
			side: 'haipay',
			setting: 'tuned',
			heapMb: 1024,
			itemsPerSecond: 221,
			rssGrowthMb: { main: 127, runner: 5 },
		});
		const cappedBase = bulk({
			side: 'baseline',
			setting: 'tuned',
			heapMb: 1024,
			itemsPerSecond: 210,
			rssGrowthMb: { main: 140, runner: 80 },
		});
		const all = targets([cappedRun, defaultRun, cappedBase, BASELINE], CALLBACKS, SETTINGS, 10_000);

		const atDefault = verdict(all, fieldExpressions, 'peak RSS');
		expect(atDefault.pass).toBe(false);
		expect(atDefault.measured).toBe('+700 MB (baseline +460 MB)');
		const capped = verdict(all, fieldExpressions, '--max-old-space-size=1024');
		expect(capped.pass).toBe(true);
		expect(capped.measured).toBe('+127 MB at 221.0 items/s (baseline +140 MB at 210.0 items/s)');

		const over = targets(
			[bulk({ ...cappedRun, rssGrowthMb: { main: 300, runner: 5 } }), defaultRun, BASELINE],
			CALLBACKS,
			SETTINGS,
			10_000,
		);
		expect(verdict(over, fieldExpressions, '--max-old-space-size').pass).toBe(false);
		expect(
			targets([defaultRun, BASELINE], CALLBACKS, SETTINGS, 10_000).some((t) => t.what.includes('--max-old-space-size')),
		).toBe(false);
	});

	it('callbacks: one lost, one never run or one forged callback accepted is a MISS', () => {
		const judge = (callbacks: CallbackFigures) => targets([], callbacks, SETTINGS, 10_000);
		expect(judge(CALLBACKS).every((t) => t.pass)).toBe(true);
		expect(
			verdict(judge({ ...CALLBACKS, genuine: { ...CALLBACKS.genuine, lost: 1 } }), 'callbacks: lost', '').pass,
		).toBe(false);
		expect(
			verdict(judge({ ...CALLBACKS, genuine: { ...CALLBACKS.genuine, stuck: 1 } }), 'callbacks: executions', '').pass,
		).toBe(false);
		const forgedLet = { ...CALLBACKS, forged: { ...CALLBACKS.forged, refused: 199, acknowledged: 1, executions: 1 } };
		expect(verdict(judge(forgedLet), 'forged', '').pass).toBe(false);
	});

	it('refusing the largest body: under 50 ms of the trigger main thread passes, 50 ms misses', () => {
		const refusal = {
			bytes: 16 * 2 ** 20,
			fields: 1_192_555,
			refuseMs: 49.9,
			refusedWith: 413,
			genuineMs: 0.2,
			n8nParseMs: 2100,
		};
		const judge = (refuseMs: number) =>
			verdict(
				targets([], undefined, SETTINGS, 10_000, { ...refusal, refuseMs }),
				'refusing the largest body',
				'< 50 ms',
			);
		expect(judge(49.9).pass).toBe(true);
		expect(judge(50).pass).toBe(false);
		expect(targets([], undefined, SETTINGS, 10_000).some((t) => t.what.includes('refusing'))).toBe(false);
	});

	it('the table labels runs with a heap limit, states the default limit and shows the callback reference', () => {
		const machine: Machine = {
			cores: 2,
			cpu: 'test CPU',
			memoryGb: 24,
			kernel: '6.1',
			benchNode: 'v20.0.0',
			n8nNode: 'v24.0.0',
			n8n: '2.40.7',
			openssl: 'OpenSSL 3',
			n8nHeapLimitMb: 4288,
			loadBefore: [0.1, 0.2, 0.3],
		};
		const figures = [
			bulk({ side: 'haipay', setting: 'tuned' }),
			BASELINE,
			bulk({ side: 'haipay', setting: 'tuned', heapMb: 1024 }),
			bulk({ side: 'baseline', setting: 'tuned', heapMb: 1024, itemsPerSecond: 125 }),
		];
		const text = markdown({
			machine,
			date: '2026-01-01T00:00:00Z',
			command: 'npm run bench',
			minutes: 1,
			settings: SETTINGS,
			bulk: figures,
			callbacks: CALLBACKS,
			plainWebhook: { ...CALLBACKS, genuine: { ...CALLBACKS.genuine, seconds: 4, cpuMsPerCallback: 66 } },
			signing: {
				signPerSecond: 900,
				verifyPerSecond: 30_000,
				poolSignPerSecond: 1_700,
				poolVerifyPerSecond: 50_000,
				inFlight: 8,
				threadPoolSize: 4,
				canonicalPerSecond: 1e6,
				opensslSignPerSecond: 1000,
				opensslVerifyPerSecond: 33_000,
				cores: 2,
				opensslMultiSignPerSecond: 2_000,
				opensslMultiVerifyPerSecond: 66_000,
				ratioToOpenssl: 0.9,
			},
			targets: targets(figures, CALLBACKS, SETTINGS, 10_000),
		});
		expect(text).toContain('| 10,000 | HaiPay node, concurrency 16, field expressions; n8n heap limit 1,024 MB |');
		expect(text).toContain('| both at 16 in flight, field expressions, n8n heap limit 1,024 MB | 10,000 | 2.00x |');
		expect(text).toContain('| both at 16 in flight, field expressions | 10,000 | 1.25x |');
		expect(text).toContain("V8's default heap limit for n8n: 4,288 MB");
		expect(text).toContain(
			"| 2,000 into n8n's Webhook node alone (reference: no signature check, no deduplication) | 500.0 |",
		);
		expect(text).toMatch(/\| 2,000 signed, distinct \| 200\.0 \|.*\| 5 \|\n\| 200 forged \|/);
		// The shipped sign() beside openssl on one core, and on the thread pool beside openssl on every core.
		expect(text).toContain("the package's shipped `sign()` and `verify()`");
		expect(text).toContain('| signatures/s, one at a time | 900 | 1,000 (1 core) | 90% |');
		expect(text).toContain('| signatures/s, 8 in flight | 1,700 | 2,000 (2 cores) | 85% |');
		expect(text).toContain('| verifications/s, 8 in flight | 50,000 | 66,000 (2 cores) | 76% |');
	});

	it('prints no row of what it could not measure: a machine fact it cannot read, or a configuration that failed, is an error', () => {
		const known: Machine = {
			cores: 2,
			cpu: 'test CPU',
			memoryGb: 24,
			kernel: '6.1',
			benchNode: 'v20.0.0',
			n8nNode: 'v24.0.0',
			n8n: '2.40.7',
			openssl: 'OpenSSL 3',
			n8nHeapLimitMb: 4288,
			loadBefore: [0.1, 0.2, 0.3],
		};
		expect(sectionBody(['| a | b |'], [], known)).toContain(
			"n8n 2.40.7 on Node v24.0.0; OpenSSL 3; V8's default heap limit for n8n: 4,288 MB",
		);
		// A run on a machine whose n8n was not read (it was installed after the facts were taken) made "n8n unknown".
		expect(() => sectionBody([], [], { ...known, n8n: undefined, n8nHeapLimitMb: undefined })).toThrow(
			/n8n's version, Node and heap limit/,
		);
		expect(() => machineLine({ ...known, n8nNode: undefined })).toThrow();
		const withoutN8n = readMachine({ n8n: false });
		expect(withoutN8n.n8n).toBeUndefined();
		expect(withoutN8n.openssl).toMatch(/OpenSSL/);

		const failedQueue: QueueFigures = {
			settings: QUEUE_SETTINGS,
			loadBefore: [0.1],
			payouts: [{ workers: 1, webhooks: 1, figures: { error: 'res.once is not a function' } }],
			callbacks: [],
			repeats: [],
			confirmOption: true,
			minutes: 1,
		};
		expect(queueFailures(failedQueue)).toEqual([
			{ part: 'queue', what: 'bulk payouts, 1 worker(s), 1 webhook processor(s)', error: 'res.once is not a function' },
		]);
		expect(() => queueMarkdown(failedQueue)).toThrow(/res.once is not a function/);
		expect(
			failedRun([{ part: 'callbacks', what: 'refusal cost of the largest body', error: 'res.once is not a function' }])
				.message,
		).toBe(
			'bench: 1 configuration(s) failed; their sections of bench/results.md are kept as they were (callbacks):\n- callbacks: refusal cost of the largest body: res.once is not a function',
		);
	});
});

describe('the payroll sheet targets', () => {
	const sheet = (kind: SheetFigures['kind'], itemsPerSecond: number, ended = 'done'): SheetFigures => ({
		label: kind === 'batches' ? 'example 9' : 'one HaiPay node',
		kind,
		rows: 50_000,
		ended,
		paid: 50_000,
		applies: 50_000,
		sentTwice: 0,
		...(kind === 'batches' ? { written: 50_000 } : {}),
		wallSeconds: 100,
		itemsPerSecond,
		cpuMsPerRow: 2,
		peakRssMb: { main: 900, runner: 150 },
	});
	const judged = (batches: number, one: number, ended = 'done') =>
		verdict(sheetTargets([sheet('haipay', one), sheet('batches', batches, ended)], 50_000), 'example 9', '80%');

	it('example 9 at 80% of the one-execution rate passes, just under it misses, and a run that did not end misses', () => {
		expect(judged(320, 400).pass).toBe(true);
		expect(judged(320, 400).measured).toBe('320.0 vs 400.0 items/s (80%)');
		expect(judged(319.9, 400).pass).toBe(false);
		expect(judged(400, 400, 'stopped by the cap').pass).toBe(false);
	});

	it('no example 9 target without both runs at the default heap', () => {
		expect(sheetTargets([sheet('haipay', 400)], 50_000).some((t) => t.what.includes('80%'))).toBe(false);
	});
});

describe('the sandbox alone', () => {
	const run = (label: string, perSecond: number, errors = 0): CapacityRun => ({
		label,
		requests: 6_000,
		errors,
		seconds: 6_000 / perSecond,
		perSecond,
		p50: 5,
		p90: 8,
		p99: 12,
		max: 20,
		cpuMsPerApply: 0.4,
	});
	const figures = (fresh: number, overrides: Partial<SandboxFigures> = {}): SandboxFigures => ({
		concurrency: 32,
		baseline: run('no-op node:http server', 7_000),
		keepAlive: run('sandbox, keep-alive', 2_800),
		fresh: run('sandbox, a new connection each', fresh),
		paced: run('sandbox, 640/s offered', 640),
		pacedRate: 640,
		orders: 16_500,
		expectedOrders: 16_500,
		...overrides,
	});
	const headroom = (f: SandboxFigures) => verdict(sandboxTargets(f, 640), 'the sandbox alone', '3x');
	const complete = (f: SandboxFigures) => verdict(sandboxTargets(f, 640), 'every apply', 'order');

	it('three times the bulk bound over new connections passes, just under misses, and keep-alive does not count', () => {
		expect(headroom(figures(1_920)).pass).toBe(true);
		expect(headroom(figures(1_920)).measured).toBe('1,920 applies/s (3.00x), keep-alive 2,800');
		expect(headroom(figures(1_919)).pass).toBe(false);
		expect(headroom(figures(1_000, { keepAlive: run('sandbox, keep-alive', 5_000) })).pass).toBe(false);
		expect(headroom({ ...figures(2_000), fresh: run('sandbox, a new connection each', 2_000, 1) }).pass).toBe(false);
	});

	it('an error answer or an order too few or too many misses', () => {
		expect(complete(figures(2_000)).pass).toBe(true);
		expect(complete(figures(2_000, { orders: 16_499 })).pass).toBe(false);
		expect(complete(figures(2_000, { orders: 16_501 })).pass).toBe(false);
		expect(complete(figures(2_000, { paced: run('sandbox, 640/s offered', 640, 1) })).pass).toBe(false);
	});

	it('its section shows every server and the machine line both loads', () => {
		const text = sandboxLines(figures(2_000)).join('\n');
		expect(text).toContain('| sandbox, a new connection each | 2,000 | 5.00 | 12.00 | 0.40 | 0 |');
		expect(text).toContain('| no-op node:http server | 7,000 |');
		const m = readMachine({ n8n: false });
		expect(loadSentence({ ...m, loadBefore: [1, 2, 3] })).toBe('Load average before the run: 1, 2, 3.');
		expect(loadSentence({ ...m, loadBefore: [1, 2, 3], loadAfter: [4, 5, 6] })).toBe(
			'Load average before the run: 1, 2, 3; after it: 4, 5, 6.',
		);
	});
});
