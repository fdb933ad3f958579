/**
 * Requests to the repeat memory without n8n around it (test/trigger/memory.cases.ts, bench/memory.ts): what memory.ts
 * reads of n8n's webhook context, a response n8n ends, and a workflow's static data as n8n keeps it in its database
 * (JSON, loaded fresh for a request and saved after it when the request changed it). A process is a workflow id: a new
 * one is what a restart, or another webhook processor, starts with.
 */
import { EventEmitter } from 'events';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { Callback } from '../../nodes/HaiPayTrigger/callback';
import { repeatKeys } from '../../nodes/HaiPayTrigger/keys';
import { hookMemory } from '../../nodes/HaiPayTrigger/hooks';
import { openMemory, setMemoryClock } from '../../nodes/HaiPayTrigger/memory';
import { ANSWER_DEADLINE_MS } from '../../nodes/HaiPayTrigger/confirm';

let processes = 0;
export function newProcess(): string {
	processes += 1;
	return `memory-test-${processes}`;
}

/** A clock the tests move (milliseconds); the memory counts ages on it. */
export class TestClock {
	constructor(public ms = 1_000_000) {
		setMemoryClock(() => this.ms);
	}

	advance(ms: number): void {
		this.ms += ms;
	}
}

/** n8n's view of one trigger's static data: saved as JSON, loaded fresh for every request. */
export class Database {
	text = '{}';

	load(): IDataObject {
		return JSON.parse(this.text) as IDataObject;
	}

	store(data: IDataObject): void {
		this.text = JSON.stringify(data);
	}
}

/** A callback of `orderNo` with `status`, as the trigger parses it. */
export function callbackOf(orderNo: string, status = 2, more: IDataObject = {}): Callback {
	const output = { orderNo, status, ...more };
	return { output, keys: repeatKeys(output) } as unknown as Callback;
}

export interface Options {
	windowMinutes?: number;
	deduplicate?: boolean;
	warnings?: string[];
	/** Static data used in place of a fresh load, and never saved: one copy that many requests share. */
	staticData?: IDataObject;
	/** The answer deadline, on the monotonic clock (`performance.now()`); ANSWER_DEADLINE_MS from now by default. */
	deadlineAt?: number;
}

/** One webhook request of `process`: the memory it opens, n8n's end of its response, and n8n's save of its static data. */
export function request(process: string, db: Database, callback: Callback, options: Options = {}) {
	const staticData = options.staticData ?? db.load();
	const before = options.staticData === undefined ? JSON.stringify(staticData) : undefined;
	const res = Object.assign(new EventEmitter(), { statusCode: 200, end: () => res });
	const ctx = {
		getWorkflow: () => ({ id: process }),
		getNode: () => ({ id: 'trigger', name: 'HaiPay Trigger' }),
		getWorkflowStaticData: () => staticData,
		getResponseObject: () => res,
		logger: { warn: (line: string) => options.warnings?.push(line) },
	} as unknown as IWebhookFunctions;
	const memory = openMemory(
		ctx,
		{ windowMinutes: options.windowMinutes ?? 1440, deduplicate: options.deduplicate ?? true },
		callback,
		options.deadlineAt ?? performance.now() + ANSWER_DEADLINE_MS,
	);
	hookMemory(ctx, memory);
	return {
		memory,
		staticData,
		/** n8n's answer: 2xx once it stored the execution, another status when it could not start it. */
		answer: (status = 200) => {
			res.statusCode = status;
			res.end();
		},
		/** n8n saves static data after a request only when the request changed it. */
		done: () => {
			if (before !== undefined && JSON.stringify(staticData) !== before) db.store(staticData);
		},
	};
}

/**
 * One callback through the memory and n8n: its repeat check, and for a new result the record of its emission (without
 * waiting out a burst's save), n8n's 2xx, and the save. True when it was emitted.
 */
export async function deliver(
	process: string,
	db: Database,
	callback: Callback,
	options: Options = {},
): Promise<boolean> {
	const { memory, answer, done } = request(process, db, callback, options);
	const repeat = await memory.repeatOf();
	if (repeat === undefined) void memory.remember();
	answer();
	done();
	return repeat === undefined;
}
