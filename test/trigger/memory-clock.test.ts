/**
 * The repeat memory against clocks and rates: a clock stepped back, two webhook processors an hour apart, HaiPay's
 * whole retry series at exactly the rate the memory is sized for, and amounts keyed by their value. Static data
 * travels as n8n stores it: JSON text, loaded fresh for every request.
 */
import { repeatKeys } from '../../nodes/HaiPayTrigger/dedup';
import { MEMORY_CAPACITY, openMemory, RETRY_SERIES_SECONDS } from '../../nodes/HaiPayTrigger/memory';
import { DESIGN_RATE_PER_MINUTE, DESIGN_SPAN_SECONDS } from '../../nodes/HaiPayTrigger/scopeMemory';

const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;
const DAY_SECONDS = 24 * 60 * 60;
let processes = 0;

function newProcess(): string {
	processes += 1;
	return `clock-workflow/trigger-${processes}`;
}

/** One request of one process at `nowMs`: its memory, and n8n's save of the static data when it changed. */
function request(scope: string, db: { text: string }, nowMs: number, windowSeconds = DAY_SECONDS) {
	const staticData = JSON.parse(db.text) as Record<string, unknown>;
	const before = JSON.stringify(staticData);
	const memory = openMemory({ scope, staticData, nowMs, windowSeconds, warn: () => undefined });
	return {
		memory,
		done: () => {
			if (JSON.stringify(staticData) !== before) db.text = JSON.stringify(staticData);
		},
	};
}

/** Whether one callback with `key` at `nowMs` is new (and then remembered). */
function emitted(scope: string, db: { text: string }, key: string, nowMs: number, windowSeconds?: number): boolean {
	const { memory, done } = request(scope, db, nowMs, windowSeconds);
	const fresh = memory.remember(key);
	done();
	return fresh;
}

describe('the repeat memory and the clock', () => {
	it('still knows a result when the clock is stepped back an hour, and with a window shorter than the step', () => {
		const db = { text: '{}' };
		const scope = newProcess();
		expect(emitted(scope, db, 'no:HP-C1|2', T0)).toBe(true);
		expect(emitted(scope, db, 'no:HP-C1|2', T0 - HOUR)).toBe(false);
		expect(emitted(scope, db, 'no:HP-C1|2', T0 - HOUR, 30 * 60)).toBe(false);
		// And after a restart at the stepped-back time.
		expect(emitted(newProcess(), db, 'no:HP-C1|2', T0 - HOUR)).toBe(false);
	});

	it('takes in what a webhook processor an hour ahead saved, and what one an hour behind saved', () => {
		const db = { text: '{}' };
		const [ahead, local, behind] = [newProcess(), newProcess(), newProcess()];
		expect(emitted(ahead, db, 'no:HP-AHEAD|2', T0 + HOUR)).toBe(true);
		expect(emitted(local, db, 'no:HP-AHEAD|2', T0)).toBe(false);
		expect(emitted(behind, db, 'no:HP-AHEAD|2', T0 - HOUR, 30 * 60)).toBe(false);
		expect(emitted(behind, db, 'no:HP-BEHIND|3', T0 - HOUR)).toBe(true);
		expect(emitted(ahead, db, 'no:HP-BEHIND|3', T0 + HOUR, 30 * 60)).toBe(false);
	});

	it('forgets by age only: a result older than the window on this clock is new again', () => {
		const db = { text: '{}' };
		const scope = newProcess();
		expect(emitted(scope, db, 'no:HP-W|2', T0, 30 * 60)).toBe(true);
		expect(emitted(scope, db, 'no:HP-W|2', T0 + 30 * 60_000, 30 * 60)).toBe(true);
	});
});

describe('the repeat memory at the rate it is sized for', () => {
	it(`holds HaiPay's whole retry series with its margin: ${DESIGN_RATE_PER_MINUTE} results a minute for ${DESIGN_SPAN_SECONDS / 60} minutes`, () => {
		expect(DESIGN_SPAN_SECONDS).toBeGreaterThan(RETRY_SERIES_SECONDS);
		expect(MEMORY_CAPACITY).toBe((DESIGN_RATE_PER_MINUTE * DESIGN_SPAN_SECONDS) / 60);
		const db = { text: '{}' };
		const scope = newProcess();
		const minutes = DESIGN_SPAN_SECONDS / 60 + 2;
		for (let minute = 0; minute < minutes; minute++) {
			// One request a minute stands for the minute's callbacks: the memory saves at most once a second anyway.
			const { memory, done } = request(scope, db, T0 + minute * 60_000);
			for (let index = 0; index < DESIGN_RATE_PER_MINUTE; index++) memory.remember(`no:HP-${minute}-${index}|2`);
			done();
		}
		const now = T0 + minutes * 60_000;
		const { memory } = request(newProcess(), db, now);
		const seen = (minutesAgo: number) => memory.recall(`no:HP-${minutes - minutesAgo}-${DESIGN_RATE_PER_MINUTE - 1}|2`) && memory.recall(`no:HP-${minutes - minutesAgo}-0|2`);
		// HaiPay's last resend comes 25 minutes after the first delivery; the margin holds 4 more whole minutes.
		expect(seen(RETRY_SERIES_SECONDS / 60)).toBe(true);
		expect(seen(DESIGN_SPAN_SECONDS / 60 - 1)).toBe(true);
	});
});

describe('repeat keys of partial results', () => {
	const partial = (amount: unknown, payTime = '2024-05-01 10:00:00') => repeatKeys({ orderNo: 'HPC1', status: 4, amount, payTime }).dedupKey;

	it.each(['10', '10.0', '10.00', 10, '010.00'])('reads the amount %j by its value', (amount) => {
		expect(partial(amount)).toBe(partial('10'));
	});

	it.each(['10.01', '1', '100', '-10'])('tells the amount %j apart from 10', (amount) => {
		expect(partial(amount)).not.toBe(partial('10'));
	});

	it('reads an amount or a time only up to its first &, which HaiPay never writes in one', () => {
		expect(partial('10.00&note=x')).toBe(partial('10'));
		expect(partial('10', '2024-05-01 10:00:00&payerName=Bob')).toBe(partial('10'));
		expect(partial('10', '2024-05-01 10:00:01')).not.toBe(partial('10'));
	});
});

describe('the repeat memory notices when its saves do not reach n8n\'s database', () => {
	const warned = (warnings: string[]) => warnings.filter((line) => /missing from the workflow's static data n8n loads/.test(line));

	/** Callbacks every 10 seconds for `minutes`, each from `processes` in turn, on a database that keeps or drops saves. */
	function traffic(processes: string[], keeps: boolean, minutes = 3): string[] {
		const db = { text: '{}' };
		const warnings: string[] = [];
		for (let second = 0, index = 0; second < minutes * 60; second += 10, index++) {
			const scope = processes[index % processes.length];
			const staticData = JSON.parse(db.text) as Record<string, unknown>;
			const before = JSON.stringify(staticData);
			const memory = openMemory({ scope, staticData, nowMs: T0 + second * 1000, windowSeconds: DAY_SECONDS, warn: (line) => warnings.push(line) });
			memory.remember(`no:HP-P${index}|2`);
			if (keeps && JSON.stringify(staticData) !== before) db.text = JSON.stringify(staticData);
		}
		return warnings;
	}

	it('warns once, after a minute, when n8n never stores what the trigger wrote', () => {
		const warnings = warned(traffic([newProcess()], false));
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/repeats are no longer remembered across restarts.*exactly-once/);
	});

	it('never warns when n8n stores it, for one process or two that save in turn', () => {
		expect(warned(traffic([newProcess()], true))).toEqual([]);
		expect(warned(traffic([newProcess(), newProcess()], true))).toEqual([]);
	});
});
