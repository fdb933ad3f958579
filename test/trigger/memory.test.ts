/**
 * The trigger's repeat memory on its own: HaiPay's whole retry series at 1,000 distinct results a minute and more,
 * eviction by age and by room, one warning when room runs out too early, what survives a restart, and what another
 * process saved. Static data travels as n8n stores it: JSON text, loaded fresh for every request.
 */
import {
	digestOf,
	FLUSH_MS,
	MEMORY_CAPACITY,
	MEMORY_FIELD,
	openMemory,
	RETRY_SERIES_SECONDS,
	type MemoryContext,
} from '../../nodes/HaiPayTrigger/memory';

const DAY = 24 * 60 * 60;
const T0 = 1_800_000_000_000;
let scopes = 0;

/** A fresh scope: what a new process (after a restart), or another webhook processor, starts with. */
function newProcess(): string {
	scopes += 1;
	return `test-workflow/trigger-${scopes}`;
}

/** n8n's view of one workflow's static data: saved as JSON, loaded fresh for every request. */
class Database {
	text = '{}';

	load(): Record<string, unknown> {
		return JSON.parse(this.text) as Record<string, unknown>;
	}

	store(data: Record<string, unknown>): void {
		this.text = JSON.stringify(data);
	}
}

function request(scope: string, db: Database, nowMs: number, windowSeconds = DAY, warnings: string[] = []) {
	const staticData = db.load();
	const before = JSON.stringify(staticData);
	const context: MemoryContext = { scope, staticData, nowMs, windowSeconds, warn: (line) => warnings.push(line) };
	const memory = openMemory(context);
	// n8n saves static data after a request only when the request changed it.
	const done = () => {
		if (JSON.stringify(staticData) !== before) db.store(staticData);
	};
	return { memory, done, staticData };
}

/** One callback through the memory: a repeat check, then the record of its emission. */
function callback(scope: string, db: Database, key: string, nowMs: number, windowSeconds = DAY, warnings: string[] = []): boolean {
	const { memory, done } = request(scope, db, nowMs, windowSeconds, warnings);
	const fresh = !memory.recall(key) && memory.remember(key);
	done();
	return fresh;
}

describe('the repeat memory', () => {
	it("holds HaiPay's whole 25-minute retry series at 1,000 distinct results a minute (25,000 entries)", () => {
		const db = new Database();
		const scope = newProcess();
		const perMinute = 1_000;
		// A request per second, of about 17 callbacks each: the rate of 1,000 a minute.
		for (let second = 0; second < 25 * 60; second++) {
			const { memory, done } = request(scope, db, T0 + second * 1_000);
			for (let index = Math.floor((second * perMinute) / 60); index < Math.floor(((second + 1) * perMinute) / 60); index++) {
				const key = `no:HP${Math.floor(index / perMinute)}-${index % perMinute}|2`;
				expect(!memory.recall(key) && memory.remember(key)).toBe(true);
			}
			done();
		}
		// HaiPay's last resend of the very first result, 25 minutes on, and every other one: all repeats.
		const end = T0 + RETRY_SERIES_SECONDS * 1000;
		const { memory } = request(scope, db, end);
		let recalled = 0;
		for (let minute = 0; minute < 25; minute++) {
			for (let index = 0; index < perMinute; index++) if (memory.recall(`no:HP${minute}-${index}|2`)) recalled += 1;
		}
		expect(recalled).toBe(25_000);
		expect(memory.recall('no:HP-never|2')).toBe(false);
		expect(memory.remember('no:HP0-0|2')).toBe(false);
	});

	it('no two of the keys it can hold share a digest', () => {
		const digests = new Set(Array.from({ length: MEMORY_CAPACITY }, (_, index) => digestOf(`no:HP${index}|2`)));
		expect(digests.size).toBe(MEMORY_CAPACITY);
	});

	it('forgets a result once its window has passed, and counts a new emission from then', () => {
		const db = new Database();
		const scope = newProcess();
		const window = 30 * 60;
		expect(callback(scope, db, 'no:HP1|2', T0, window)).toBe(true);
		expect(callback(scope, db, 'no:HP1|2', T0 + (window - 1) * 1000, window)).toBe(false);
		expect(callback(scope, db, 'no:HP1|2', T0 + window * 1000, window)).toBe(true);
		expect(callback(scope, db, 'no:HP1|2', T0 + (window + 60) * 1000, window)).toBe(false);
	});

	it('survives a restart: a new process takes in what the old one saved', () => {
		const db = new Database();
		const first = newProcess();
		expect(callback(first, db, 'no:HP-R1|2', T0)).toBe(true);
		const restarted = newProcess();
		expect(callback(restarted, db, 'no:HP-R1|2', T0 + 300_000)).toBe(false);
		expect(callback(restarted, db, 'no:HP-R1|3', T0 + 300_000)).toBe(true);
	});

	it('takes in what another webhook processor saved, and keeps both when they save in turn', () => {
		const db = new Database();
		const [a, b] = [newProcess(), newProcess()];
		expect(callback(a, db, 'no:HP-A|2', T0)).toBe(true);
		expect(callback(b, db, 'no:HP-B|2', T0 + 1_000)).toBe(true);
		expect(callback(a, db, 'no:HP-A2|2', T0 + 2_000)).toBe(true);
		const restarted = newProcess();
		const { memory } = request(restarted, db, T0 + 3_000);
		expect(['no:HP-A|2', 'no:HP-B|2', 'no:HP-A2|2'].map((key) => memory.recall(key))).toEqual([true, true, true]);
	});

	it('when another processor saved last without its entries, saves them again at its next request, a repeat too', () => {
		const db = new Database();
		const [a, b] = [newProcess(), newProcess()];
		// Both load the same text; a's save lands first, b's (without a's entry) overwrites it.
		const fromA = request(a, db, T0);
		const fromB = request(b, db, T0);
		expect(fromA.memory.remember('no:HP-L1|2')).toBe(true);
		expect(fromB.memory.remember('no:HP-L2|2')).toBe(true);
		fromA.done();
		fromB.done();
		expect(request(newProcess(), db, T0 + 1).memory.recall('no:HP-L1|2')).toBe(false);
		// a's next request, a repeat of b's result that emits nothing, sees the stored text lack its entry and saves both.
		expect(callback(a, db, 'no:HP-L2|2', T0 + FLUSH_MS)).toBe(false);
		const { memory } = request(newProcess(), db, T0 + FLUSH_MS + 1);
		expect(['no:HP-L1|2', 'no:HP-L2|2'].map((key) => memory.recall(key))).toEqual([true, true]);
	});

	it('of callbacks in flight together, every entry is kept whichever request n8n saves last', () => {
		const db = new Database();
		const scope = newProcess();
		// Three requests load the same static data before any of them is saved.
		const requests = ['no:HP-C1|2', 'no:HP-C2|2', 'no:HP-C3|2'].map((key) => ({ key, ...request(scope, db, T0) }));
		for (const entry of requests) expect(entry.memory.remember(entry.key)).toBe(true);
		for (const entry of [requests[2], requests[0], requests[1]]) entry.done();
		// The process knows all three at once; the saved text gets the two after the first at the next save.
		expect(requests.map((entry) => request(scope, db, T0 + 1).memory.recall(entry.key))).toEqual([true, true, true]);
		const later = request(scope, db, T0 + FLUSH_MS);
		later.memory.remember('no:HP-C4|2');
		later.done();
		const { memory } = request(newProcess(), db, T0 + FLUSH_MS + 1);
		expect(requests.map((entry) => memory.recall(entry.key))).toEqual([true, true, true]);
	});

	it('reads the first version of the memory (an object of keys) once, and then drops it', () => {
		const db = new Database();
		db.store({ seenCallbacks: { 'no:HP-OLD|2': Math.floor(T0 / 1000) - 60 } });
		const scope = newProcess();
		expect(callback(scope, db, 'no:HP-OLD|2', T0)).toBe(false);
		expect(callback(scope, db, 'no:HP-NEW|2', T0)).toBe(true);
		expect(db.load()).not.toHaveProperty('seenCallbacks');
		expect(db.load()).toHaveProperty(MEMORY_FIELD);
	});

	it('saves the first emission after a quiet spell at once, then at most once per FLUSH_MS, whatever the rate', () => {
		const db = new Database();
		const scope = newProcess();
		let saves = 0;
		for (let index = 0; index < 500; index++) {
			const before = db.text;
			callback(scope, db, `no:HP-L${index}|2`, T0 + index * 10);
			if (db.text !== before) saves += 1;
		}
		// 500 emissions over 5 s: the first at once, then one per FLUSH_MS.
		expect(saves).toBe(1 + Math.floor((499 * 10) / FLUSH_MS));
		// What was not saved yet is still known to this process.
		expect(callback(scope, db, 'no:HP-L499|2', T0 + 4_999)).toBe(false);
		expect(request(newProcess(), db, T0 + 5_000).memory.recall('no:HP-L499|2')).toBe(false);
	});

	it("saves a burst's last entries before one of its requests answers, without a callback after them", async () => {
		const db = new Database();
		const scope = newProcess();
		callback(scope, db, 'no:HP-B0|2', Date.now());
		// Three more at once, within FLUSH_MS of that save: one request waits out the rest and saves them all.
		const burst = ['no:HP-B1|2', 'no:HP-B2|2', 'no:HP-B3|2'].map((key) => ({ key, ...request(scope, db, Date.now()) }));
		for (const entry of burst) expect(entry.memory.remember(entry.key)).toBe(true);
		await Promise.all(burst.map(async (entry) => await entry.memory.saved(Date.now() + 10_000)));
		const changed = burst.filter((entry) => entry.staticData[MEMORY_FIELD] !== undefined);
		expect(changed.length).toBeGreaterThanOrEqual(1);
		for (const entry of burst) entry.done();
		const { memory } = request(newProcess(), db, Date.now());
		expect(['no:HP-B0|2', ...burst.map((entry) => entry.key)].map((key) => memory.recall(key))).toEqual([true, true, true, true]);
	});

	it('saves a burst entry whose answer deadline has come, without a later callback', async () => {
		const db = new Database();
		const scope = newProcess();
		callback(scope, db, 'no:HP-D0|2', Date.now());
		const late = request(scope, db, Date.now());
		expect(late.memory.remember('no:HP-D1|2')).toBe(true);
		// Within FLUSH_MS of the last save, with the answer deadline now: the wait is cut to nothing, and it is saved.
		await late.memory.saved(Date.now());
		expect(late.staticData[MEMORY_FIELD]).toBeDefined();
		late.done();
		expect(request(newProcess(), db, Date.now()).memory.recall('no:HP-D1|2')).toBe(true);
	});

	it('does not save again what it took in from another process', () => {
		const db = new Database();
		const [a, b] = [newProcess(), newProcess()];
		callback(a, db, 'no:HP-T1|2', T0);
		const saved = db.text;
		expect(callback(b, db, 'no:HP-T1|2', T0 + 60_000)).toBe(false);
		expect(db.text).toBe(saved);
	});

	it('keeps at most its capacity, and warns once per window when room runs out inside the retry series', () => {
		const db = new Database();
		const scope = newProcess();
		const warnings: string[] = [];
		const { memory, done } = request(scope, db, T0, DAY, warnings);
		for (let index = 0; index < MEMORY_CAPACITY + 500; index++) memory.remember(`no:HP-F${index}|2`);
		done();
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(new RegExp(`covers only the last 0 minutes .* a minute, at most ${MEMORY_CAPACITY} kept`));
		const later = request(scope, db, T0 + 60_000, DAY, warnings);
		later.memory.remember('no:HP-G|2');
		later.done();
		expect(warnings).toHaveLength(1);
		expect(later.memory.recall(`no:HP-F${MEMORY_CAPACITY + 499}|2`)).toBe(true);
	});

	it('warns when the Repeat Window is shorter than the retry series, once per window', () => {
		const warnings: string[] = [];
		const db = new Database();
		const scope = newProcess();
		callback(scope, db, 'no:HP-W1|2', T0, 10 * 60, warnings);
		callback(scope, db, 'no:HP-W2|2', T0 + 60_000, 10 * 60, warnings);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain('Repeat Window 10 minutes');
		callback(scope, db, 'no:HP-W3|2', T0 + 26 * 60_000, 10 * 60, warnings);
		expect(warnings).toHaveLength(2);
	});

	it('does not warn while the memory covers the retry series', () => {
		const warnings: string[] = [];
		const db = new Database();
		const scope = newProcess();
		for (let index = 0; index < 3_000; index++) callback(scope, db, `no:HP-Q${index}|2`, T0 + index * 1_000, DAY, warnings);
		expect(warnings).toEqual([]);
	});
});
