/**
 * The trigger's repeat memory on its own (test/trigger/memory-requests.ts stands in for n8n): HaiPay's whole retry
 * series at 1,440 distinct results a minute with the stated margin, eviction by age and by room, one warning when room
 * runs out too early, what survives a restart, what another process saved, ages on a clock of the memory's own, and
 * saves at most once per FLUSH_MS. Static data travels as n8n stores it: JSON text, loaded fresh for every request.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	digestOf,
	FLUSH_MS,
	MEMORY_CAPACITY,
	MEMORY_FIELD,
	RETRY_SERIES_SECONDS,
	setMemoryClock,
} from '../../nodes/HaiPayTrigger/memory';
import { callbackOf, Database, deliver, newProcess, request, TestClock } from './memory-requests';

const MINUTE = 60_000;
const DAY = 24 * 60;

describe('the repeat memory', () => {
	let clock: TestClock;
	beforeEach(() => {
		clock = new TestClock();
	});
	afterEach(() => setMemoryClock());
	const recognised = async (process: string, db: Database, orderNo: string) =>
		!(await deliver(process, db, callbackOf(orderNo)));

	it('holds the 25-minute retry series and 5 minutes more at exactly 1,440 distinct results a minute', async () => {
		const [db, process] = [new Database(), newProcess()];
		const staticData = db.load();
		// 240 results every 10 seconds, for 31 minutes: 44,640 results, more than the memory keeps.
		const batches = 31 * 6;
		for (let batch = 0; batch < batches; batch++, clock.advance(10_000)) {
			for (let index = 0; index < 240; index++)
				expect(await deliver(process, db, callbackOf(`HP${batch}-${index}`), { staticData })).toBe(true);
		}
		clock.advance(-10_000);
		const ageOfBatch = (batch: number) => ((batches - 1 - batch) * 10_000) / MINUTE;
		// HaiPay's last resend of a result, 25 minutes after the first delivery: every one of that batch is known.
		const series = batches - 1 - (RETRY_SERIES_SECONDS * 1000) / 10_000;
		expect(ageOfBatch(series)).toBe(25);
		for (let index = 0; index < 240; index += 7)
			expect(await recognised(process, db, `HP${series}-${index}`)).toBe(true);
		// The margin: the oldest results kept are 29 minutes 50 seconds old; 30 minutes is beyond what is kept.
		expect(ageOfBatch(6)).toBeCloseTo(29 + 5 / 6);
		expect(await recognised(process, db, 'HP6-0')).toBe(true);
		expect(await recognised(process, db, 'HP6-239')).toBe(true);
		expect(await recognised(process, db, 'HP5-239')).toBe(false);
		// The saved text holds them too: a restarted process knows the 25-minute-old result.
		const saved = (JSON.parse(JSON.stringify(staticData)) as IDataObject)[MEMORY_FIELD] as IDataObject;
		expect((saved.entries as string).length).toBe(MEMORY_CAPACITY * 19);
		db.store(staticData);
		expect(await recognised(newProcess(), db, `HP${series}-0`)).toBe(true);
	});

	it('no two of the keys it can hold share a digest', () => {
		const digests = new Set(Array.from({ length: MEMORY_CAPACITY }, (_, index) => digestOf(`no:HP${index}|2`)));
		expect(digests.size).toBe(MEMORY_CAPACITY);
	});

	it('forgets a result once its window has passed, and counts a new emission from then', async () => {
		const [db, process, windowMinutes] = [new Database(), newProcess(), 30];
		expect(await deliver(process, db, callbackOf('HP1'), { windowMinutes })).toBe(true);
		clock.advance(windowMinutes * MINUTE - 1_000);
		expect(await deliver(process, db, callbackOf('HP1'), { windowMinutes })).toBe(false);
		clock.advance(1_000);
		expect(await deliver(process, db, callbackOf('HP1'), { windowMinutes })).toBe(true);
		clock.advance(MINUTE);
		expect(await deliver(process, db, callbackOf('HP1'), { windowMinutes })).toBe(false);
	});

	it('survives a restart: a new process takes in what the old one saved', async () => {
		const db = new Database();
		expect(await deliver(newProcess(), db, callbackOf('HP-R1'))).toBe(true);
		clock.advance(5 * MINUTE);
		const restarted = newProcess();
		expect(await deliver(restarted, db, callbackOf('HP-R1'))).toBe(false);
		expect(await deliver(restarted, db, callbackOf('HP-R1', 3))).toBe(true);
	});

	it('counts the ages in a saved text from taking it in, whatever the clock of the process that saved it said', async () => {
		const [db, windowMinutes] = [new Database(), 30];
		const entries = `${digestOf('no:HP-SKEW|2')}${(60).toString(36).padStart(5, '0')}`;
		// Saved a minute after the result, by a process whose wall clock was an hour ahead, or a day behind.
		for (const at of [Math.floor(Date.now() / 1000) + 3_600, Math.floor(Date.now() / 1000) - 86_400]) {
			db.store({ [MEMORY_FIELD]: { v: 2, stamp: `other.${at}`, at, entries } });
			const process = newProcess();
			expect(await deliver(process, db, callbackOf('HP-SKEW'), { windowMinutes })).toBe(false);
			clock.advance((windowMinutes - 2) * MINUTE);
			expect(await deliver(process, db, callbackOf('HP-SKEW'), { windowMinutes })).toBe(false);
			clock.advance(2 * MINUTE);
			expect(await deliver(process, db, callbackOf('HP-SKEW'), { windowMinutes })).toBe(true);
		}
	});

	it('takes in what another webhook processor saved, and keeps both when they save in turn', async () => {
		const [db, a, b] = [new Database(), newProcess(), newProcess()];
		expect(await deliver(a, db, callbackOf('HP-A'))).toBe(true);
		clock.advance(FLUSH_MS);
		expect(await deliver(b, db, callbackOf('HP-B'))).toBe(true);
		clock.advance(FLUSH_MS);
		expect(await deliver(a, db, callbackOf('HP-A2'))).toBe(true);
		clock.advance(FLUSH_MS);
		const restarted = newProcess();
		for (const orderNo of ['HP-A', 'HP-B', 'HP-A2']) expect(await recognised(restarted, db, orderNo)).toBe(true);
	});

	it('when another processor saved last without its entries, saves them again at its next request, a repeat too', async () => {
		const [db, a, b] = [new Database(), newProcess(), newProcess()];
		// Both load the same text; a's save lands first, b's (without a's entry) overwrites it.
		const [fromA, fromB] = [request(a, db, callbackOf('HP-L1')), request(b, db, callbackOf('HP-L2'))];
		for (const { memory } of [fromA, fromB]) expect(await memory.repeatOf()).toBeUndefined();
		for (const { memory, answer, done } of [fromA, fromB]) {
			void memory.remember();
			answer();
			done();
		}
		expect(await recognised(newProcess(), db, 'HP-L1')).toBe(false);
		// a's next request, a repeat of b's result that emits nothing, sees the stored text lack its entry and saves both.
		clock.advance(FLUSH_MS);
		expect(await deliver(a, db, callbackOf('HP-L2'))).toBe(false);
		const restarted = newProcess();
		for (const orderNo of ['HP-L1', 'HP-L2']) expect(await recognised(restarted, db, orderNo)).toBe(true);
	});

	it('of callbacks in flight together, every entry is kept whichever request n8n saves last', async () => {
		const [db, process] = [new Database(), newProcess()];
		// Three requests load the same static data before any of them is saved; n8n saves them in another order.
		const requests = ['HP-C1', 'HP-C2', 'HP-C3'].map((orderNo) => request(process, db, callbackOf(orderNo)));
		for (const { memory } of requests) expect(await memory.repeatOf()).toBeUndefined();
		await Promise.all(requests.map(async ({ memory }) => await memory.remember()));
		for (const { answer } of requests) answer();
		for (const index of [2, 0, 1]) requests[index].done();
		for (const orderNo of ['HP-C1', 'HP-C2', 'HP-C3']) expect(await recognised(newProcess(), db, orderNo)).toBe(true);
	});

	it('saves the first emission after a quiet spell at once, then at most once per FLUSH_MS, whatever the rate', async () => {
		const [db, process] = [new Database(), newProcess()];
		let saves = 0;
		for (let index = 0; index < 500; index++, clock.advance(10)) {
			const before = db.text;
			await deliver(process, db, callbackOf(`HP-L${index}`));
			if (db.text !== before) saves += 1;
		}
		// 500 emissions over 5 s: the first at once, then one per FLUSH_MS.
		expect(saves).toBe(1 + Math.floor((499 * 10) / FLUSH_MS));
		// What was not saved yet is still known to this process.
		expect(await recognised(process, db, 'HP-L499')).toBe(true);
		expect(await recognised(newProcess(), db, 'HP-L499')).toBe(false);
	});

	it("saves a burst's last entries before one of its requests answers, without a callback after them", async () => {
		setMemoryClock();
		const [db, process] = [new Database(), newProcess()];
		await deliver(process, db, callbackOf('HP-B0'));
		// Three more at once, within FLUSH_MS of that save: one request waits out the rest and saves them all.
		const burst = ['HP-B1', 'HP-B2', 'HP-B3'].map((orderNo) => request(process, db, callbackOf(orderNo)));
		for (const { memory } of burst) expect(await memory.repeatOf()).toBeUndefined();
		await Promise.all(burst.map(async ({ memory }) => await memory.remember()));
		expect(burst.filter(({ staticData }) => staticData[MEMORY_FIELD] !== undefined).length).toBeGreaterThanOrEqual(1);
		for (const { answer, done } of burst) {
			answer();
			done();
		}
		for (const orderNo of ['HP-B0', 'HP-B1', 'HP-B2', 'HP-B3'])
			expect(await recognised(newProcess(), db, orderNo)).toBe(true);
	});

	it('saves a burst entry whose answer deadline has come, without a later callback', async () => {
		setMemoryClock();
		const [db, process] = [new Database(), newProcess()];
		await deliver(process, db, callbackOf('HP-D0'));
		// Within FLUSH_MS of the last save, at the answer deadline: the wait is cut to nothing, and it is saved.
		const late = request(process, db, callbackOf('HP-D1'), { deadlineAt: performance.now() });
		expect(await late.memory.repeatOf()).toBeUndefined();
		await late.memory.remember();
		expect(late.staticData[MEMORY_FIELD]).toBeDefined();
		late.answer();
		late.done();
		expect(await recognised(newProcess(), db, 'HP-D1')).toBe(true);
	});

	it('does not save again what it took in from another process', async () => {
		const [db, a, b] = [new Database(), newProcess(), newProcess()];
		await deliver(a, db, callbackOf('HP-T1'));
		const saved = db.text;
		clock.advance(MINUTE);
		expect(await deliver(b, db, callbackOf('HP-T1'))).toBe(false);
		expect(db.text).toBe(saved);
	});

	it('keeps at most its capacity, and warns once per window when room runs out inside the retry series', async () => {
		const [db, process, warnings] = [new Database(), newProcess(), [] as string[]];
		const staticData = db.load();
		for (let index = 0; index < MEMORY_CAPACITY + 500; index++)
			await deliver(process, db, callbackOf(`HP-F${index}`), { staticData, warnings });
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(
			new RegExp(`covers only the last 0 minutes .* a minute, at most ${MEMORY_CAPACITY} kept`),
		);
		clock.advance(MINUTE);
		expect(await deliver(process, db, callbackOf('HP-G'), { warnings })).toBe(true);
		expect(warnings).toHaveLength(1);
		expect(await recognised(process, db, `HP-F${MEMORY_CAPACITY + 499}`)).toBe(true);
		expect(await recognised(process, db, 'HP-F0')).toBe(false);
	});

	it('warns when the Repeat Window is shorter than the retry series, once per window', async () => {
		const [db, process, warnings, windowMinutes] = [new Database(), newProcess(), [] as string[], 10];
		await deliver(process, db, callbackOf('HP-W1'), { windowMinutes, warnings });
		clock.advance(MINUTE);
		await deliver(process, db, callbackOf('HP-W2'), { windowMinutes, warnings });
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain('Repeat Window 10 minutes');
		clock.advance(25 * MINUTE);
		await deliver(process, db, callbackOf('HP-W3'), { windowMinutes, warnings });
		expect(warnings).toHaveLength(2);
	});

	it('does not warn while the memory covers the retry series', async () => {
		const [db, process, warnings] = [new Database(), newProcess(), [] as string[]];
		// One copy of the static data for all: the warning is the memory's own reckoning, not what n8n loads.
		const staticData = db.load();
		for (let index = 0; index < 3_000; index++, clock.advance(1_000))
			await deliver(process, db, callbackOf(`HP-Q${index}`), { windowMinutes: DAY, warnings, staticData });
		expect(warnings).toEqual([]);
	});
});
