import { createHash, randomBytes } from 'crypto';

import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { FINAL_STATUSES } from '../shared/contract/statuses';
import type { Callback } from './callback';
import type { RepeatKeys } from './keys';
import { decode, encode, isSaved, liveText, type Saved } from './memoryText';
import type { TriggerOptions } from './triggerOptions';

/*
 * The trigger's repeat memory: the results it emitted, so that HaiPay's resends start nothing. In the process, a map from
 * a digest of each key to the second it was first emitted, in that order, on a clock never stepped; across restarts and
 * processes, one compact text in the workflow's static data, marked for n8n to save at most once per FLUSH_MS and
 * computed when n8n saves it (`live`), taken in where it is new. A result taken back is saved as such, so that no
 * process brings it back from a text saved before.
 */

/** HaiPay resends a callback every 5 minutes, 5 times: every repeat of a result arrives within this span. */
export const RETRY_SERIES_SECONDS = 25 * 60;
/**
 * Results kept, at most: 30 minutes at 1,440 a minute, HaiPay's 25-minute series with 5 minutes to spare. n8n parses the
 * saved text (19 characters a result: 0.8 MB full) with the workflow on every request, about 0.7 ms when full.
 */
export const MEMORY_CAPACITY = 43_200;
/** The most often the memory is written into the static data that n8n saves. */
export const FLUSH_MS = 1_000;
/**
 * HaiPay resends 5 minutes after a delivery without SUCCESS: a first delivery n8n has not answered is given up this long
 * after its connection closed, or twice this long after it came (a connection never closed), before that resend.
 */
export const UNANSWERED_MS = 2 * 60_000;
/** How long static data may lack what this process saved again, before its saves count as lost. */
export const SAVE_GRACE_MS = 60_000;
export const MEMORY_FIELD = 'repeatMemory';
const RECIPE =
	'https://github.com/haipay-n8n/n8n-nodes-haipay/blob/main/docs/queue-mode.md#exactly-once-across-webhook-processors';
let clock = () => performance.now();
/** The clock ages are counted on, in milliseconds: the process's monotonic one, unless a test moves it. */
export const setMemoryClock = (now: () => number = () => performance.now()): number => (clock = now)();
const seconds = () => Math.floor(clock() / 1000);
/** The regression rule: the final status already emitted for the order of a callback whose status never follows one. */
export const finalBefore = (recall: (key: string) => boolean, keys: RepeatKeys): number | undefined =>
	keys.earlier === undefined ? undefined : FINAL_STATUSES.find((final) => recall(`${keys.earlier}|${final}`));
export const digestOf = (key: string): string =>
	createHash('sha256').update(key, 'utf8').digest('base64url').slice(0, 14);
/** One request's hold on a result until n8n says whether its workflow started. */
type Claim = {
	key?: string;
	recorded: string[];
	emitted: boolean;
	started?: boolean;
	openedAt: number;
	closedAt?: number;
};
/** Everything one trigger remembers in this process. */
class ScopeMemory {
	readonly seen = new Map<string, number>();
	/** Results taken back: how many times, the last when. A text that knows fewer take-backs cannot bring one back. */
	readonly back = new Map<string, { times: number; at: number }>();
	/** Counts the changes, so that a text is computed again only after one. */
	version = 0;
	private text?: { version: number; saved: Saved };
	/** What n8n serialises as the saved text whenever it saves a static data this process wrote into. */
	readonly live = liveText(() => this.current());
	readonly open = new Set<Claim>();
	private readonly id = randomBytes(6).toString('base64url');
	saves = 0;
	private lastFlushMs = -Infinity;
	/** The last text of another process taken in, and how many saves this process had made by then. */
	private taken?: { stamp: string; saves: number };
	/** Static data n8n loaded lacked the last save: `save` is the one made again, at `since`. */
	private lacking?: { save: number; since?: number };
	unsaved = 0;
	saving = false;
	private warnedShortAt = -Infinity;
	lostWarned = false;
	/** Whether a result is remembered: whatever its time, unless the window has passed since. */
	has = (digest: string, windowSeconds: number): boolean =>
		seconds() - (this.seen.get(digest) ?? -Infinity) < windowSeconds;
	/** Adds an entry as the newest, or keeps the earlier of two times for one already there. */
	add(digest: string, at: number): void {
		if ((this.seen.get(digest) ?? Infinity) <= at) return;
		this.seen.set(digest, at);
		[this.unsaved, this.version] = [this.unsaved + 1, this.version + 1];
	}
	/** Takes a result back out: n8n could not start its workflow. */
	takeBack(digest: string): void {
		this.seen.delete(digest);
		const times = (this.back.get(digest)?.times ?? 0) + 1;
		// Deleted first, so that the newest take-back is the last: keepBounded stops at the first within the window.
		this.back.delete(digest);
		this.back.set(digest, { times, at: seconds() });
		[this.unsaved, this.version] = [this.unsaved + 1, this.version + 1];
	}
	/** Forgets from the oldest end what the window passed, and while over capacity; warns once a window if room or it is short. */
	keepBounded(windowSeconds: number, warn: (message: string) => void): void {
		const [now, series] = [seconds(), RETRY_SERIES_SECONDS];
		let short = windowSeconds < series ? windowSeconds : undefined;
		for (const [digest, at] of this.seen) {
			const expired = now - at >= windowSeconds;
			if (!expired && this.seen.size <= MEMORY_CAPACITY) break;
			this.seen.delete(digest);
			this.version += 1;
			if (!expired && now - at < Math.min(short ?? series, windowSeconds)) short = now - at;
		}
		for (const [digest, { at }] of this.back) {
			if (now - at < windowSeconds && this.back.size <= MEMORY_CAPACITY) break;
			this.back.delete(digest);
		}
		if (short === undefined || now - this.warnedShortAt < Math.max(windowSeconds, series)) return;
		this.warnedShortAt = now;
		warn(
			`the repeat memory covers only the last ${Math.round(short / 60)} minutes of results (about ${Math.round(this.seen.size / Math.max(short / 60, 1))} a minute, at most ${MEMORY_CAPACITY} kept, Repeat Window ${Math.round(windowSeconds / 60)} minutes), but HaiPay resends a callback for ${series / 60} minutes: a resend older than that starts the workflow again. Make the steps after the trigger idempotent (see the exactly-once recipe: ${RECIPE}).`,
		);
	}
	/** How many of this process's saves `stored` is known to follow: 0 for no text, undefined for one never seen here. */
	asOf(stored: unknown): number | undefined {
		if (stored === this.live) return this.saves;
		if (!isSaved(stored)) return 0;
		if (stored.stamp.startsWith(`${this.id}.`)) return Number(stored.stamp.slice(this.id.length + 1));
		return stored.stamp === this.taken?.stamp ? this.taken.saves : undefined;
	}

	/**
	 * Takes in a text not seen here, ages reckoned from now (no other clock counts); one lacking what is held is saved
	 * over. A result the text knows taken back more often than here is taken back here; one taken back here more often
	 * than the text knows stays out, whatever the text says of it.
	 */
	takeIn(stored: unknown): void {
		// Static data that still holds this process's live text (no copy from a database): nothing to take in or save.
		if (stored === this.live) return;
		const known = this.asOf(stored);
		if (!isSaved(stored) || known !== undefined) {
			if (this.seen.size + this.back.size > 0 && (!isSaved(stored) || (known ?? 0) < this.saves))
				[this.unsaved, this.version] = [this.unsaved || 1, this.version + 1];
			return;
		}
		const [before, timesThere] = [this.unsaved, new Map<string, number>()];
		this.taken = { stamp: stored.stamp, saves: this.saves };
		for (const { digest, at, times = 0 } of decode(stored.back ?? '', seconds(), MEMORY_CAPACITY, true)) {
			timesThere.set(digest, times);
			if (times <= (this.back.get(digest)?.times ?? 0)) continue;
			this.back.delete(digest);
			this.back.set(digest, { times, at });
			this.seen.delete(digest);
		}
		let count = 0;
		for (const { digest, at } of decode(stored.entries, seconds(), MEMORY_CAPACITY)) {
			count += 1;
			if ((timesThere.get(digest) ?? 0) >= (this.back.get(digest)?.times ?? 0)) this.add(digest, at);
		}
		const behind = [...this.back].some(([digest, { times }]) => (timesThere.get(digest) ?? 0) < times);
		this.unsaved = Math.max(before, this.seen.size - count, behind ? 1 : 0);
		this.version += 1;
	}

	/**
	 * Marks the request's static data for n8n to save, with the memory as n8n serialises it then (`live`): each copy
	 * n8n saves holds the memory of that moment, whichever it saves last.
	 */
	save(staticData: IDataObject): void {
		staticData[MEMORY_FIELD] = this.live as unknown as IDataObject;
		[this.lastFlushMs, this.unsaved] = [clock(), 0];
	}

	/** The saved text of the memory now: computed again only after a change (about 8 ms when full). */
	current(): Saved {
		if (this.text?.version === this.version) return this.text.saved;
		const saved = encode(`${this.id}.${++this.saves}`, seconds(), this.seen, this.back);
		this.text = { version: this.version, saved };
		if (this.lacking?.save === this.saves) this.lacking.since = clock();
		return saved;
	}

	/** One request of a burst waits out the rest of FLUSH_MS and saves the others' entries too, by its deadline. */
	async saveBurst(deadlineAt: number, write: () => void): Promise<void> {
		if (this.untilDue() === Infinity || this.saving) return;
		this.saving = true;
		await sleep(Math.min(this.untilDue(), Math.max(0, deadlineAt - performance.now())));
		this.saving = false;
		if (this.unsaved > 0) write();
	}

	/** Milliseconds until entries waiting to be saved may be: 0 now, Infinity when none wait. */
	untilDue = (): number => (this.unsaved > 0 ? Math.max(this.lastFlushMs + FLUSH_MS - clock(), 0) : Infinity);

	/**
	 * Whether this process's saves do not reach the database: for SAVE_GRACE_MS static data held only texts older than a
	 * save made again on seeing them lack the last. Another's text new here (saves cross in queue mode) starts it again.
	 */
	savesLost(stored: unknown): boolean {
		const known = this.asOf(stored);
		if (this.lostWarned || known === undefined || known >= this.saves) this.lacking = undefined;
		else if (this.lacking === undefined || known >= this.lacking.save) this.lacking = { save: this.saves + 1 };
		else return (this.lostWarned = clock() - (this.lacking.since ?? Infinity) >= SAVE_GRACE_MS);
		return false;
	}
}

const scopes = new Map<string, ScopeMemory>();
const scopeOf = (ctx: IWebhookFunctions | IExecuteFunctions) => `${ctx.getWorkflow().id ?? ''}/${ctx.getNode().id}`;
/** Ends a request's hold: a result whose workflow did not start is taken back out of the memory. */
function settle(memory: ScopeMemory, claim: Claim, started: boolean): void {
	if (claim.started === undefined && !started) for (const digest of claim.recorded) memory.takeBack(digest);
	// Given up as unanswered, it did start after all: remembered again.
	if (claim.started === false && started)
		for (const digest of claim.recorded) if (!memory.seen.has(digest)) memory.add(digest, seconds());
	claim.started = claim.started === true || started;
	memory.open.delete(claim);
}

/** Gives up the first deliveries n8n has not answered: closed UNANSWERED_MS ago, or open twice that long. */
function sweep(memory: ScopeMemory): void {
	for (const claim of memory.open)
		if (clock() - (claim.closedAt ?? claim.openedAt + UNANSWERED_MS) >= UNANSWERED_MS) settle(memory, claim, false);
}

/**
 * Holds the result for this request until n8n says whether its workflow started (`answered`, called from n8n's end of
 * the response: hooks.ts).
 */
function hold(memory: ScopeMemory, key?: string): Claim {
	const claim: Claim = { key, recorded: [], emitted: false, openedAt: clock() };
	memory.open.add(claim);
	return claim;
}

/** Records each key not remembered yet as emitted now, held by `claim` until n8n answers its delivery. */
function record(memory: ScopeMemory, claim: Claim, keys: Array<string | undefined>, windowSeconds: number): void {
	for (const digest of [...new Set(keys)].flatMap((key) => (key === undefined ? [] : [digestOf(key)]))) {
		if (memory.has(digest, windowSeconds)) continue;
		memory.seen.delete(digest);
		memory.add(digest, seconds());
		claim.recorded.push(digest);
	}
}

/** Why a callback whose keys HaiPay's answer proved (keys.ts `provenKeys`) starts nothing, or undefined. */
function provenRepeatOf(
	recall: (key: string) => boolean,
	proven: RepeatKeys,
	deduplicate: boolean,
	repeatedWhy: string,
): string | undefined {
	const final = finalBefore(recall, proven);
	if (final !== undefined)
		return `its status comes before the final status ${final} already emitted for the order HaiPay's answer names`;
	return deduplicate && proven.dedupKey !== undefined && recall(proven.dedupKey) ? repeatedWhy : undefined;
}

const SAVES_LOST = `its saves of the repeat memory do not reach n8n's database (static data n8n loads lacks what it saved, twice, over a minute ago), so repeats are no longer remembered across restarts: after one, HaiPay's resends of results already emitted start the workflow again. To run a step once per result whatever n8n keeps, claim dedupKey in a database: ${RECIPE}`;

/** A copy's wait until n8n has answered the first delivery of its result, or `deadlineAt` (on `performance.now()`). */
async function awaitFirst(memory: ScopeMemory, first: Claim, deadlineAt: number): Promise<void> {
	while (first.started === undefined && performance.now() < deadlineAt) {
		await sleep(Math.min(100, deadlineAt - performance.now()));
		sweep(memory);
	}
}

/** n8n's answer to a request holding `claim`: 2xx after an emission keeps its result, anything else takes it back. */
function answered(memory: ScopeMemory, claim: Claim | undefined, statusCode: number): void {
	if (claim === undefined) return;
	settle(memory, claim, claim.emitted && statusCode >= 200 && statusCode < 300);
}

/**
 * The memory as one callback's request uses it: `repeatOf()`, then `remember()` and `resaver()` for an emission, and
 * `answered()` and `hungUp()` as n8n ends the request (installed by hooks.ts `hookMemory`).
 */
export function openMemory(
	ctx: IWebhookFunctions,
	options: Pick<TriggerOptions, 'deduplicate' | 'windowMinutes'>,
	callback: Callback,
	/** The answer deadline, on `performance.now()` (HaiPayTrigger.node.ts). */
	deadlineAt: number,
	/** In place of the callback's keys (unproven.ts). */
	keys: RepeatKeys = callback.keys,
) {
	const memory = scopes.get(scopeOf(ctx)) ?? new ScopeMemory();
	scopes.set(scopeOf(ctx), memory);
	const [staticData, windowSeconds] = [ctx.getWorkflowStaticData('node'), options.windowMinutes * 60];
	const warn = (message: string) => ctx.logger.warn(`HaiPay Trigger: ${message}`);
	if (memory.savesLost(staticData[MEMORY_FIELD])) warn(SAVES_LOST);
	memory.takeIn(staticData[MEMORY_FIELD]);
	memory.keepBounded(windowSeconds, warn);
	sweep(memory);
	let wrote = false;
	const write = () => {
		memory.save(staticData);
		wrote = true;
	};
	// What another process's save left out is saved by whichever request comes next, a repeat too.
	if (memory.untilDue() === 0 && !memory.saving) write();
	const recall = (key: string) => memory.has(digestOf(key), windowSeconds);
	const repeated = { why: `a repeated callback (same orderNo and status within ${options.windowMinutes} minutes)` };
	let claim: Claim | undefined;
	return {
		/** Why the callback starts nothing: SUCCESS, or 503 while its first delivery is stored. Undefined: this request holds it. */
		async repeatOf(): Promise<{ why: string; stillStoring?: boolean } | undefined> {
			const final = finalBefore(recall, keys);
			if (final !== undefined)
				return {
					why: `its status ${String(callback.output.status)} comes before the final status ${final} already emitted for this order: an old callback sent again`,
				};
			if (keys.dedupKey === undefined || !options.deduplicate) return undefined;
			const digest = digestOf(keys.dedupKey);
			const first = [...memory.open].find((held) => held.key === digest);
			if (first === undefined && recall(keys.dedupKey)) return repeated;
			if (first === undefined) claim = hold(memory, digest);
			if (first === undefined) return undefined;
			// A copy of a result whose first delivery n8n is still storing waits for the outcome, within its own deadline.
			await awaitFirst(memory, first, deadlineAt);
			if (first.started === undefined)
				return { why: 'the same callback came moments ago and n8n is still storing its execution', stillStoring: true };
			// Its workflow did not start: this copy is the result's delivery now, unless another took that place meanwhile.
			return first.started ? repeated : await this.repeatOf();
		},
		/** As `repeatOf()`, for the keys HaiPay's answer proved. */
		provenRepeat: (proven: RepeatKeys) =>
			provenRepeatOf(recall, proven, options.deduplicate && proven.dedupKey !== keys.dedupKey, repeated.why),
		/** Records the emission (and any keys HaiPay proved); resolves once in static data n8n will save. */
		async remember(proven: RepeatKeys = {}): Promise<void> {
			if (keys.dedupKey === undefined && proven.dedupKey === undefined) return;
			claim ??= hold(memory);
			claim.emitted = true;
			record(memory, claim, [keys.dedupKey, keys.finalMark, proven.dedupKey, proven.finalMark], windowSeconds);
			memory.keepBounded(windowSeconds, warn);
			if (memory.untilDue() === 0) write();
			await memory.saveBurst(deadlineAt, write);
		},
		/** When this request wrote the memory: what writes it again while n8n stores the emitted item (hooks.ts). */
		resaver: () => (wrote ? () => (staticData[MEMORY_FIELD] = memory.live as unknown as IDataObject) : undefined),
		/** n8n's answer to the request (hooks.ts): the result this request holds is kept, or taken back out. */
		answered: (statusCode: number) => answered(memory, claim, statusCode),
		/** The request's connection closed: a result it holds is given up UNANSWERED_MS later if n8n never answers. */
		hungUp(): void {
			if (claim !== undefined) claim.closedAt ??= clock();
		},
	};
}

/** One callback's memory, as webhook() and hooks.ts use it. */
export type RequestMemory = ReturnType<typeof openMemory>;

/**
 * What an execution's trigger step puts into its own static data (hooks.ts `keepMemoryInExecution`), or undefined: n8n
 * runs an execution on static data loaded as it starts, before the request's is saved, and saves it whole at its end
 * when a step changed it (a Code node's own static data), so a memory of that moment would be put back. The memory of
 * the moment n8n saves goes in instead (`live`), with what the loaded text holds taken in first; a queue-mode worker,
 * never sent the callback, has none.
 */
export function memoryForExecution(ctx: IExecuteFunctions, staticData: IDataObject): IDataObject | undefined {
	const memory = scopes.get(scopeOf(ctx));
	if (memory === undefined) return undefined;
	memory.takeIn(staticData[MEMORY_FIELD]);
	return memory.live as unknown as IDataObject;
}
