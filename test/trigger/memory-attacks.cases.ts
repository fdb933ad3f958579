/**
 * Attacks on the repeat memory's saved text (memory.ts, memoryText.ts) by whatever can write the workflow's static data
 * — a step, an import, an older or newer version of the package — and by processes racing over one database: junk,
 * huge and prototype-polluting values in the saved member and its `back` field, texts of the version before take-backs
 * were saved, a save between a result's emission and its take-back, every way n8n copies static data, the cap on
 * take-backs. test/trigger/memory-requests.ts stands in for n8n, as in memory.cases.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, Workflow } from 'n8n-workflow';
import { deepCopy, jsonStringify } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';

import { digestOf, FLUSH_MS, MEMORY_CAPACITY, MEMORY_FIELD, setMemoryClock } from '../../nodes/HaiPayTrigger/memory';
import { isSaved, type Saved } from '../../nodes/HaiPayTrigger/memoryText';
import { testNodeDescription, webhookServer, type WebhookServer } from '../harness';
import {
	credentials,
	deliver,
	expectAcknowledgedOnly,
	expectEmitted,
	freshOrder,
	payoutCallback,
	signedByPlatform,
	stepMemoryClockPerDelivery,
	TRIGGER,
} from './callbacks';
import { callbackOf, Database, deliver as deliverTo, newProcess, request, TestClock } from './memory-requests';

const MINUTE = 60_000;
const keyOf = (orderNo: string) => `no:${orderNo}|2`;
/** A record of the saved text: a result's digest and its age in seconds. */
const record = (orderNo: string, age: string) => digestOf(keyOf(orderNo)) + age;
const savedIn = (db: Database): Saved => (JSON.parse(db.text) as IDataObject)[MEMORY_FIELD] as Saved;
const withMemory = (member: unknown): Database =>
	Object.assign(new Database(), { text: JSON.stringify({ [MEMORY_FIELD]: member }) });
/** One delivery whose workflow n8n could not start: the result is taken back. */
async function failedStart(process: string, db: Database, orderNo: string): Promise<void> {
	const { memory, answer, done } = request(process, db, callbackOf(orderNo));
	expect(await memory.repeatOf()).toBeUndefined();
	void memory.remember();
	answer(500);
	done();
}
/**
 * The saved text as version 2 of the package read it before take-backs were saved (`git show
 * de6f0ea:nodes/HaiPayTrigger/memory.ts`): `v` 2, string `stamp` and `entries`, 19-character records; `back` unknown.
 */
const olderReads = (saved: unknown): string[] | undefined => {
	const text = saved as Saved;
	if (text?.v !== 2 || typeof text.stamp !== 'string' || typeof text.entries !== 'string') return undefined;
	return text.entries.match(/.{19}/g)?.map((one) => one.slice(0, 14)) ?? [];
};

describe('the repeat memory under attack', () => {
	let clock: TestClock;
	beforeEach(() => {
		clock = new TestClock();
	});
	afterEach(() => setMemoryClock());

	describe('junk in the saved member', () => {
		const junk: Array<[string, unknown]> = [
			['null', null],
			['a number', 42],
			['a string', 'repeatMemory'],
			['an array', [{ v: 2, stamp: 's', entries: '' }]],
			['an empty object', {}],
			['a future version', { v: 3, stamp: 's', at: 0, entries: record('HPJ1', '00000') }],
			['a numeric stamp', { v: 2, stamp: 7, at: 0, entries: '' }],
			['entries not a string', { v: 2, stamp: 's', at: 0, entries: ['x'] }],
			['back not a string', { v: 2, stamp: 's', at: 0, entries: '', back: { length: 1e9 } }],
			['a cut record', { v: 2, stamp: 's', at: 0, entries: 'abc', back: 'abcdefghij' }],
			['ages not in base 36', { v: 2, stamp: 's', at: 0, entries: 'x'.repeat(14) + '!?#%&', back: 'y'.repeat(20) }],
			[
				'names of prototype members',
				{ v: 2, stamp: '__proto__', at: 0, entries: '__proto__12345constructor', back: 'hasOwnProperty000001' },
			],
			[
				'non-ASCII and NUL',
				{ v: 2, stamp: '\u0000', at: 0, entries: '\u{1F4A9}'.repeat(19), back: '\u0000'.repeat(40) },
			],
		];

		it.each(junk)('%s: a new result runs once, its resend runs nothing, the text saved is sound', async (_, member) => {
			const [db, process] = [withMemory(member), newProcess()];
			expect(await deliverTo(process, db, callbackOf('HPJ1'))).toBe(true);
			expect(await deliverTo(process, db, callbackOf('HPJ1'))).toBe(false);
			const saved = savedIn(db);
			expect(isSaved(saved)).toBe(true);
			expect(saved.entries).toContain(digestOf(keyOf('HPJ1')));
			// Another process (or a restart) reads it the same way.
			expect(await deliverTo(newProcess(), db, callbackOf('HPJ1'))).toBe(false);
		});

		it('a JSON "__proto__" member pollutes no prototype and is not taken for a text', async () => {
			const text = `{"${MEMORY_FIELD}":{"__proto__":{"v":2,"stamp":"p","at":0,"entries":"${record('HPP1', '00000')}"},"polluted":1}}`;
			const db = Object.assign(new Database(), { text });
			expect(await deliverTo(newProcess(), db, callbackOf('HPP1'))).toBe(true);
			expect(({} as IDataObject).polluted).toBeUndefined();
			expect(({} as IDataObject).v).toBeUndefined();
			expect(Object.getPrototypeOf(savedIn(db))).toBe(Object.prototype);
		});

		it('an age below zero keeps a result no longer than its Repeat Window', async () => {
			// "-zzzz" reads as 1.7 million seconds in the future: 19 days remembered, were it taken as it reads.
			const db = withMemory({ v: 2, stamp: 's', at: 0, entries: record('HPN1', '-zzzz') });
			const process = newProcess();
			expect(await deliverTo(process, db, callbackOf('HPN1'), { windowMinutes: 30 })).toBe(false);
			clock.advance(31 * MINUTE);
			expect(await deliverTo(process, db, callbackOf('HPN1'), { windowMinutes: 30 })).toBe(true);
		});

		it('a take-back below zero years old stays no longer than the Repeat Window either', async () => {
			const db = withMemory({ v: 2, stamp: 's', at: 0, entries: '', back: record('HPN2', '-zzzz') + '1' });
			const process = newProcess();
			expect(await deliverTo(process, db, callbackOf('HPN2'), { windowMinutes: 30 })).toBe(true);
			clock.advance(31 * MINUTE);
			await deliverTo(process, db, callbackOf('HPN3'), { windowMinutes: 30 });
			expect(savedIn(db).back ?? '').not.toContain(digestOf(keyOf('HPN2')));
		});

		it('a huge text (2 million records and as many take-backs) is read for its newest records and cut to capacity', async () => {
			const records = (count: number, tail: string) =>
				Array.from(
					{ length: count },
					(_, index) => (tail === '' ? 'e' : 'b') + index.toString(36).padStart(13, '0') + '00000' + tail,
				).join('');
			const huge = { v: 2, stamp: 'huge', at: 0, entries: records(2_000_000, ''), back: records(2_000_000, '1') };
			const full = { v: 2, stamp: 'full', at: 0, entries: records(MEMORY_CAPACITY, '') };
			// No timing is asserted (tests never depend on it): reading all 2 million records took 40.7 s, past jest's
			// 30 s for a test; reading the newest 43,200 takes about what a full memory does (bench/refusal.ts measures).
			const delivered = async (member: unknown, orderNo: string) => {
				const staticData: IDataObject = { [MEMORY_FIELD]: member as IDataObject };
				expect(await deliverTo(newProcess(), new Database(), callbackOf(orderNo), { staticData })).toBe(true);
				return JSON.parse(JSON.stringify(staticData[MEMORY_FIELD])) as Saved;
			};
			await delivered(full, 'HPH-full');
			const saved = await delivered(huge, 'HPH-huge');
			expect(saved.entries.length).toBeLessThanOrEqual(MEMORY_CAPACITY * 19);
			expect((saved.back ?? '').length).toBeLessThanOrEqual(MEMORY_CAPACITY * 20);
		});
	});

	describe('versions', () => {
		it("a text of the version before take-backs were saved is taken in whole: its results' resends run nothing", async () => {
			const db = withMemory({
				v: 2,
				stamp: 'older.3',
				at: Math.floor(Date.now() / 1000) - 5,
				entries: record('HPV1', '0000a') + record('HPV2', '00001'),
			});
			const process = newProcess();
			expect(await deliverTo(process, db, callbackOf('HPV1'))).toBe(false);
			expect(await deliverTo(process, db, callbackOf('HPV2'))).toBe(false);
			expect(await deliverTo(process, db, callbackOf('HPV3'))).toBe(true);
			expect(olderReads(savedIn(db))).toEqual(['HPV1', 'HPV2', 'HPV3'].map((orderNo) => digestOf(keyOf(orderNo))));
		});

		it('rolled back, the older version reads every result this one emitted and none it took back', async () => {
			const [db, process] = [new Database(), newProcess()];
			expect(await deliverTo(process, db, callbackOf('HPR1'))).toBe(true);
			clock.advance(FLUSH_MS);
			await failedStart(process, db, 'HPR2');
			clock.advance(FLUSH_MS);
			expect(await deliverTo(process, db, callbackOf('HPR3'))).toBe(true);
			const saved = savedIn(db);
			expect(saved.back).toContain(digestOf(keyOf('HPR2')));
			// The older version: HPR1 and HPR3 are repeats to it, HPR2 (never run) runs on its resend.
			expect(olderReads(saved)).toEqual(['HPR1', 'HPR3'].map((orderNo) => digestOf(keyOf(orderNo))));
		});

		it('rolled back, then upgraded again: a result taken back runs once, on the older version, and never again', async () => {
			const db = new Database();
			await failedStart(newProcess(), db, 'HPR5');
			const older = olderReads(savedIn(db)) ?? [];
			expect(older).not.toContain(digestOf(keyOf('HPR5')));
			// The older version runs HPR5's resend and saves its text, which knows no take-backs.
			const entries = [...older, digestOf(keyOf('HPR5'))].map((digest) => digest + '00000').join('');
			db.text = JSON.stringify({ [MEMORY_FIELD]: { v: 2, stamp: 'older.1', at: 0, entries } });
			clock.advance(MINUTE);
			expect(await deliverTo(newProcess(), db, callbackOf('HPR5'))).toBe(false);
		});

		it('both versions at once: a result this process took back stays out, whatever a text of the older version says', async () => {
			// The older version's text names HPR4, which this process took back: a copy of HPR4 still pending, saved again
			// before it heard of the take-back, or HPR4 run there on a resend; the older text cannot say which. Taken as
			// pending, HPR4's resend runs again here: a repeat the exactly-once recipe catches, never a result lost.
			const [db, process] = [new Database(), newProcess()];
			await failedStart(process, db, 'HPR4');
			clock.advance(MINUTE);
			db.text = JSON.stringify({ [MEMORY_FIELD]: { v: 2, stamp: 'older.9', at: 0, entries: record('HPR4', '00000') } });
			expect(await deliverTo(process, db, callbackOf('HPR4'))).toBe(true);
			clock.advance(FLUSH_MS);
			expect(await deliverTo(process, db, callbackOf('HPR4'))).toBe(false);
		});
	});

	describe('every way n8n copies static data', () => {
		const copies: Array<[string, (data: IDataObject) => IDataObject]> = [
			[
				'JSON (the database, queue-mode workers, n8n export:workflow)',
				(data) => JSON.parse(JSON.stringify(data)) as IDataObject,
			],
			["n8n-workflow's deepCopy", (data) => deepCopy(data)],
			[
				"n8n-workflow's jsonStringify (the task broker's messages to a runner)",
				(data) => JSON.parse(jsonStringify(data, { replaceCircularRefs: true })) as IDataObject,
			],
			['structuredClone', (data) => structuredClone(data)],
			[
				'an object spread of each part',
				(data) => ({ ...data, [MEMORY_FIELD]: { ...(data[MEMORY_FIELD] as IDataObject) } }),
			],
		];

		it.each(copies)('%s: the copy holds the memory of the moment it was made', async (_, copy) => {
			const [db, process] = [new Database(), newProcess()];
			const staticData = db.load();
			expect(await deliverTo(process, db, callbackOf('HPC1'), { staticData })).toBe(true);
			await failedStart(process, db, 'HPC0');
			expect(await deliverTo(process, db, callbackOf('HPC2'), { staticData })).toBe(true);
			const copied = JSON.parse(JSON.stringify(copy(staticData))) as IDataObject;
			expect(isSaved(copied[MEMORY_FIELD])).toBe(true);
			const restarted = Object.assign(new Database(), { text: JSON.stringify(copied) });
			for (const orderNo of ['HPC1', 'HPC2'])
				expect(await deliverTo(newProcess(), restarted, callbackOf(orderNo))).toBe(false);
		});
	});

	describe('two processes racing', () => {
		it('many keys, resends and failed starts in any order between two processes: each result runs exactly once', async () => {
			const db = new Database();
			const processes = [newProcess(), newProcess()];
			const runs = new Map<string, number>();
			let seed = 41;
			const random = (below: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % below;
			for (let step = 0; step < 3000; step++, clock.advance(FLUSH_MS + random(400))) {
				const orderNo = `HPX${random(400)}`;
				const process = processes[random(2)];
				if (random(10) === 0) {
					const { memory, answer, done } = request(process, db, callbackOf(orderNo));
					if ((await memory.repeatOf()) === undefined) void memory.remember();
					answer(500);
					done();
				} else if (await deliverTo(process, db, callbackOf(orderNo))) runs.set(orderNo, (runs.get(orderNo) ?? 0) + 1);
			}
			expect([...runs.values()].filter((count) => count > 1)).toEqual([]);
		});
	});

	describe('the cap on take-backs', () => {
		it(`keeps at most ${MEMORY_CAPACITY} take-backs, the newest`, async () => {
			const [db, process] = [new Database(), newProcess()];
			const staticData = db.load();
			for (let index = 0; index < MEMORY_CAPACITY + 100; index++) {
				const { memory, answer } = request(process, db, callbackOf(`HPT${index}`), { staticData });
				await memory.repeatOf();
				void memory.remember();
				answer(500);
			}
			// No timing is asserted: with a pass over every take-back per request, recording these took 95 s, past
			// jest's 30 s for a test; bounded from the oldest, about 2 s.
			clock.advance(FLUSH_MS);
			await deliverTo(process, db, callbackOf('HPT-last'), { staticData });
			const saved = JSON.parse(JSON.stringify(staticData[MEMORY_FIELD])) as Saved;
			expect((saved.back ?? '').length).toBe(MEMORY_CAPACITY * 20);
			expect(saved.back).toContain(digestOf(keyOf(`HPT${MEMORY_CAPACITY + 99}`)));
			expect(saved.back).not.toContain(digestOf(keyOf('HPT0')));
		});
	});
});

/** What a careless step hands back as the run's static data (as a task runner does), its member for the trigger: */
let junkForTrigger: unknown;

/**
 * A step that replaces the run's static data, as n8n 2.x does with a Code node's task-runner copy
 * (`workflow.overrideStaticData`), with the trigger's saved member and its `back` field overwritten by `junkForTrigger`.
 */
class WritesJunk implements INodeType {
	description = testNodeDescription('Writes Junk', 'writesJunk', "Overwrites the trigger's static data");

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const workflow = (this as unknown as { workflow: Workflow }).workflow;
		const copy = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		const part = (copy[`node:${TRIGGER}`] ??= {}) as IDataObject;
		part[MEMORY_FIELD] = junkForTrigger as IDataObject;
		workflow.overrideStaticData(copy);
		return [this.getInputData()];
	}
}

describe("HaiPay Trigger: a step overwriting the trigger's saved memory", () => {
	const servers: WebhookServer[] = [];
	const serve = async (staticData?: IDataObject) => {
		const server = await webhookServer({
			nodeTypes: [HaiPayTrigger, WritesJunk],
			credentials: { haipay: { type: 'haiPayApi', data: credentials() } },
			nodes: [
				{ name: TRIGGER, type: 'haiPayTrigger' },
				{ name: 'After', type: 'writesJunk' },
			],
			staticData,
		});
		servers.push(server);
		return server;
	};
	beforeEach(stepMemoryClockPerDelivery);
	afterEach(async () => {
		for (const server of servers.splice(0)) await server.close();
	});
	const junk: Array<[string, unknown]> = [
		['a string', 'junk'],
		['a huge text', { v: 2, stamp: 'huge', at: 0, entries: 'e'.repeat(19 * 200_000), back: 'b'.repeat(20 * 200_000) }],
		[
			'prototype names',
			JSON.parse(
				'{"__proto__":{"polluted":1},"v":2,"stamp":"constructor","at":0,"entries":"","back":"__proto__00000000000z"}',
			),
		],
		['a back field naming every result', { v: 2, stamp: 'junk', at: 0, entries: '', back: 'x'.repeat(20) }],
	];

	it.each(junk)('%s: what the step saves still holds every result, through a restart', async (_, member) => {
		junkForTrigger = member;
		const server = await serve();
		const [first, second] = [
			signedByPlatform(payoutCallback(freshOrder())),
			signedByPlatform(payoutCallback(freshOrder())),
		];
		expectEmitted(await deliver(server, first));
		expectEmitted(await deliver(server, second));
		await server.idle();
		expect(({} as IDataObject).polluted).toBeUndefined();
		const saved = (server.staticData()[`node:${TRIGGER}`] as IDataObject)[MEMORY_FIELD];
		expect(isSaved(saved)).toBe(true);
		const restarted = await serve(JSON.parse(JSON.stringify(server.staticData())) as IDataObject);
		for (const body of [first, second]) expectAcknowledgedOnly(await deliver(restarted, body));
	});
});
