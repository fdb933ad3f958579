import { sleep } from 'n8n-workflow';

import { digestOf, heldScopeMemory, MEMORY_CAPACITY, MEMORY_FIELD, RETRY_SERIES_SECONDS, scopeMemory, type ScopeMemory } from './scopeMemory';

/*
 * The trigger's repeat memory: which results it has emitted, for as long as HaiPay may send them again.
 *
 * Held in the process, where every check and every new entry costs the same whatever the memory holds: a map from
 * a short digest of each key to the second it was first emitted, with per-minute buckets for eviction by age.
 * Kept across restarts in the workflow's static data, as one compact text that n8n saves with the workflow. n8n
 * writes the whole static data to its database whenever a request changed it, so the text is written at most once
 * every FLUSH_MS: at once for the first emission after a quiet spell; the others of a burst are saved by one
 * request that waits out the rest of FLUSH_MS before it answers. Its cost, spread over the callbacks of a burst,
 * stays the same per callback at any rate, and no emission waits unsaved for a callback that may never come.
 * Another process's saved text (a webhook processor in queue mode, or this process before a restart) is taken in
 * when it changes. n8n 2.x forgets to save what a request wrote when that request starts an execution: the emitted
 * item writes it again in time (carry.ts).
 */

export { DIGEST_LENGTH, digestOf, FLUSH_MS, MEMORY_CAPACITY, MEMORY_FIELD, RECORD_LENGTH, RETRY_SERIES_SECONDS } from './scopeMemory';

/** The static data field of the memory's first version: an object of key → second, read once and then dropped. */
const FIRST_VERSION_FIELD = 'seenCallbacks';

function takeFirstVersion(memory: ScopeMemory, staticData: Record<string, unknown>): void {
	const stored = staticData[FIRST_VERSION_FIELD];
	if (stored === undefined) return;
	if (typeof stored === 'object' && stored !== null && !Array.isArray(stored)) {
		for (const [key, at] of Object.entries(stored as Record<string, unknown>)) {
			if (typeof at === 'number' && Number.isSafeInteger(at)) memory.add(digestOf(key), at);
		}
	}
	delete staticData[FIRST_VERSION_FIELD];
}

/** What one callback sees of the memory: the check, and the record of an emission. */
export interface RepeatMemory {
	/** Whether the key was emitted within the window, by this process or by one whose save it has taken in. */
	recall(key: string): boolean;
	/** Records an emission; false when the key was already there within the window (a repeat). */
	remember(key: string): boolean;
	/**
	 * Resolves once what this request remembered is in a static data object n8n will save: at once, or, for one
	 * request of a burst, after the rest of FLUSH_MS (the others resolve at once, and that request saves theirs).
	 * The wait never runs past `latestMs` (the callback's answer deadline): then it saves at once.
	 */
	saved(latestMs: number): Promise<void>;
	/** Takes back what `remember` recorded in this request: n8n did not start the workflow, HaiPay sends it again. */
	withdraw(key: string): void;
	/**
	 * When this request wrote the memory into its static data: a function that writes the newest text there again.
	 * n8n 2.x can drop the mark of that change before it saves (carry.ts); the emitted item calls it in time.
	 */
	resaver(): (() => void) | undefined;
}

export interface MemoryContext {
	scope: string;
	staticData: Record<string, unknown>;
	nowMs: number;
	windowSeconds: number;
	warn: (message: string) => void;
}

const lastEviction = new WeakMap<ScopeMemory, number>();

/** Forgets by age once a minute, and by room whenever over capacity; warns when room runs out too early. */
function keepBounded(memory: ScopeMemory, nowSeconds: number, context: MemoryContext): void {
	const minute = Math.floor(nowSeconds / 60);
	if (lastEviction.get(memory) === minute && memory.size <= MEMORY_CAPACITY) return;
	lastEviction.set(memory, minute);
	const crowdedOut = memory.evict(nowSeconds, context.windowSeconds, MEMORY_CAPACITY);
	const covers = Math.min(context.windowSeconds, RETRY_SERIES_SECONDS);
	const short = crowdedOut !== undefined && crowdedOut < covers ? crowdedOut : context.windowSeconds < RETRY_SERIES_SECONDS ? context.windowSeconds : undefined;
	if (short === undefined || !memory.shouldWarn(nowSeconds, context.windowSeconds)) return;
	const perMinute = Math.round(memory.size / Math.max(short / 60, 1));
	context.warn(
		`HaiPay Trigger: the repeat memory covers only the last ${Math.round(short / 60)} minutes of results (about ${perMinute} a minute, at most ${MEMORY_CAPACITY} kept, Repeat Window ${Math.round(context.windowSeconds / 60)} minutes), but HaiPay resends a callback for ${RETRY_SERIES_SECONDS / 60} minutes: a resend older than that starts the workflow again. Make the steps after the trigger idempotent (see the exactly-once recipe).`,
	);
}

export function openMemory(context: MemoryContext): RepeatMemory {
	const memory = scopeMemory(context.scope);
	const nowSeconds = Math.floor(context.nowMs / 1000);
	let wrote = false;
	const write = (atMs: number) => {
		memory.save(context.staticData, Math.floor(atMs / 1000), atMs);
		wrote = true;
	};
	takeFirstVersion(memory, context.staticData);
	if (memory.notPersisted(context.staticData[MEMORY_FIELD], context.nowMs)) {
		context.warn(
			"HaiPay Trigger: the repeat memory this process saved more than a minute ago is missing from the workflow's static data n8n loads, so n8n does not store it: repeats are no longer remembered across restarts or webhook processors. Make the steps after the trigger idempotent with the exactly-once recipe (docs/queue-mode.md#exactly-once-across-webhook-processors), and check whether this n8n version saves a webhook node's static data.",
		);
	}
	memory.absorb(context.staticData[MEMORY_FIELD], nowSeconds);
	keepBounded(memory, nowSeconds, context);
	// Entries that another process's last save left out are saved by whichever request comes next, a repeat too.
	if (memory.dueForSave(context.nowMs) && !memory.saving) write(context.nowMs);
	return {
		recall: (key) => memory.recall(digestOf(key), nowSeconds, context.windowSeconds),
		remember: (key) => {
			const digest = digestOf(key);
			if (memory.recall(digest, nowSeconds, context.windowSeconds)) return false;
			memory.forget(digest);
			memory.add(digest, nowSeconds);
			if (memory.dueForSave(context.nowMs)) write(context.nowMs);
			if (memory.size > MEMORY_CAPACITY) keepBounded(memory, nowSeconds, context);
			return true;
		},
		saved: async (latestMs) => {
			if (!memory.waitingToBeSaved || memory.saving) return;
			memory.saving = true;
			try {
				await sleep(Math.min(memory.untilDue(Date.now()), Math.max(0, latestMs - Date.now())));
				if (memory.waitingToBeSaved) write(Date.now());
			} finally {
				memory.saving = false;
			}
		},
		withdraw: (key) => memory.withdraw(digestOf(key), nowSeconds),
		resaver: () =>
			wrote
				? () => {
						const latest = memory.latest;
						if (latest !== undefined) context.staticData[MEMORY_FIELD] = latest;
					}
				: undefined,
	};
}

/**
 * Writes this process's memory into the static data of an execution the trigger started (HaiPayTrigger.execute).
 * n8n runs the execution on its own copy of the static data, loaded as it starts, before the request that started
 * it saved the memory, and saves that copy whole at its end when any node changed it (a Code node keeping a count,
 * say): over the request's save. Written here, the newest memory is in whichever copy n8n saves last. Only a process
 * that holds a memory for the trigger writes: a queue-mode worker, which received none of its callbacks, would
 * otherwise write back the stale text it loaded.
 */
export function keepInExecution(scope: string, staticData: Record<string, unknown>, nowMs: number): void {
	const memory = heldScopeMemory(scope);
	if (memory === undefined || memory.latest === undefined) return;
	memory.absorb(staticData[MEMORY_FIELD], Math.floor(nowMs / 1000));
	const stored = staticData[MEMORY_FIELD] as { stamp?: unknown } | undefined;
	if (stored?.stamp === memory.latest.stamp && !memory.waitingToBeSaved) return;
	memory.save(staticData, Math.floor(nowMs / 1000), nowMs);
}
