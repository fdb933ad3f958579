import { EARLIER_STATUSES, exactStatus, FINAL_STATUSES, REPEATING_STATUSES } from '../shared/contract/statuses';

/**
 * HaiPay retries a callback until it reads `SUCCESS` (every 5 minutes, 5 times), and an answer can be lost on
 * the way back, so the same result can arrive more than once. What has been emitted is remembered in the
 * workflow's static data, which n8n saves with an active workflow and so survives a restart.
 */

/** Key → second it was first emitted. Insertion order is age order, which makes eviction a walk from the front. */
export type SeenCallbacks = Record<string, number>;

/**
 * The store is saved with the workflow after every emitted callback, so it stays small. Up to 80 emitted callbacks
 * a minute (about 115,000 a day), the newest 2000 still span the gateway's whole retry series (25 minutes).
 */
export const DEDUP_LIMIT = 2000;

export const DEFAULT_WINDOW_MINUTES = 1440;

const MAX_KEY_PART = 100;

function part(value: unknown): string {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string') return value.trim().slice(0, MAX_KEY_PART);
	return '';
}

/** A status as the keys spell it: the integer it states, or, for a value that states none, its text marked `~`. */
function statusPart(value: unknown): string {
	const status = exactStatus(value);
	return status !== undefined ? String(status) : `~${part(value)}`;
}

/**
 * `orderNo` (HaiPay's number) with `status`: a later, different status of the same order is a new event. A
 * callback without `orderNo` falls back to the merchant's `orderId`; one with neither cannot be recognised
 * again and is always emitted. A status HaiPay may report several times with different results (partially or
 * over-collected) also keys on the result's `amount` and `payTime`, JSON-encoded so no two values run together.
 */
export function dedupKey(body: Record<string, unknown>): string | undefined {
	const mark = statusMark(body);
	if (mark === undefined) return undefined;
	const status = exactStatus(body.status);
	if (status === undefined || !REPEATING_STATUSES.includes(status)) return mark;
	return `${mark}|${JSON.stringify([part(body.amount), part(body.payTime)])}`;
}

/** The order with its status, `<order>|<status>`: what the regression check looks for (see finalBefore). */
function statusMark(body: Record<string, unknown>): string | undefined {
	const order = orderPart(body);
	return order === undefined ? undefined : `${order}|${statusPart(body.status)}`;
}

/**
 * The key remembered beside a callback's repeat key so that the regression check sees its final status, when the
 * repeat key is not that key itself (a partial or over-collected result); otherwise undefined.
 */
export function finalMark(body: Record<string, unknown>): string | undefined {
	const mark = statusMark(body);
	return mark !== undefined && mark !== dedupKey(body) ? mark : undefined;
}

/** The order a key is about: `no:<orderNo>`, or `id:<orderId>` without one. */
export function orderPart(body: Record<string, unknown>): string | undefined {
	const orderNo = part(body.orderNo);
	const orderId = part(body.orderId);
	const order = orderNo !== '' ? `no:${orderNo}` : orderId !== '' ? `id:${orderId}` : '';
	return order === '' ? undefined : order;
}

/** Statuses as the keys spell them. */
const FINAL = FINAL_STATUSES.map(String);
const EARLIER = EARLIER_STATUSES.map(String);

function isSeenCallbacks(value: unknown): value is SeenCallbacks {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys still inside the window, oldest first; anything malformed is dropped. */
function liveKeys(stored: SeenCallbacks, nowSeconds: number, windowSeconds: number): string[] {
	const live: string[] = [];
	for (const key of Object.keys(stored)) {
		const at = stored[key];
		if (typeof at === 'number' && Number.isFinite(at) && at <= nowSeconds && nowSeconds - at < windowSeconds) live.push(key);
	}
	return live;
}

/*
 * Built by assignment from a key list: Object.entries/fromEntries over a few thousand entries costs ten times
 * more, and this runs on every callback.
 */
function storeOf(keys: string[], at: (key: string) => number, limit: number): SeenCallbacks {
	const store: SeenCallbacks = {};
	for (let index = Math.max(0, keys.length - limit); index < keys.length; index++) store[keys[index]] = at(keys[index]);
	return store;
}

/** Entries still inside the window, newest last, at most `limit` of them. */
export function pruned(stored: unknown, nowSeconds: number, windowSeconds: number, limit = DEDUP_LIMIT): SeenCallbacks {
	if (!isSeenCallbacks(stored)) return {};
	return storeOf(liveKeys(stored, nowSeconds, windowSeconds), (key) => stored[key], limit);
}

export interface DedupResult {
	duplicate: boolean;
	/** The store to save back: pruned, and with this callback added when it is new. */
	next: SeenCallbacks;
	/** True when `next` differs from what was stored, so that an unchanged store is not written again. */
	changed: boolean;
}

/** Checks a key against the store and remembers it when new. The window counts from the first emission. */
export function remember(
	stored: unknown,
	key: string,
	nowSeconds: number,
	windowSeconds: number,
	limit = DEDUP_LIMIT,
): DedupResult {
	const previous: SeenCallbacks = isSeenCallbacks(stored) ? stored : {};
	const live = liveKeys(previous, nowSeconds, windowSeconds);
	const storedCount = isSeenCallbacks(stored) ? Object.keys(stored).length : -1;
	if (live.includes(key)) {
		const next = storeOf(live, (entry) => previous[entry], limit);
		return { duplicate: true, next, changed: Object.keys(next).length !== storedCount };
	}
	live.push(key);
	const next = storeOf(live, (entry) => (entry === key ? nowSeconds : previous[entry]), limit);
	return { duplicate: false, next, changed: true };
}

/** Both stores in one: every key of either, at the earlier of its two times, oldest first. */
export function merged(a: unknown, b: unknown): SeenCallbacks {
	const times = new Map<string, number>();
	for (const store of [a, b]) {
		if (!isSeenCallbacks(store)) continue;
		for (const key of Object.keys(store)) {
			const at = store[key];
			if (typeof at !== 'number' || !Number.isFinite(at)) continue;
			const known = times.get(key);
			if (known === undefined || at < known) times.set(key, at);
		}
	}
	const keys = [...times.keys()].sort((left, right) => (times.get(left) as number) - (times.get(right) as number));
	return storeOf(keys, (key) => times.get(key) as number, Number.MAX_SAFE_INTEGER);
}

/*
 * n8n loads a workflow's static data for each webhook request and saves the whole object after answering, so of
 * two callbacks arriving together, the later save would erase what the earlier one remembered. The process
 * therefore keeps its own copy per trigger, which every request reads and writes at once (JavaScript runs one
 * request's check at a time), and each new entry is also written into the static data objects of requests that
 * may not be saved yet, so that whichever save comes last holds every entry.
 */
interface ProcessMemory {
	seen: SeenCallbacks;
	pending: Array<Record<string, unknown>>;
	/** Keys of callbacks being confirmed with HaiPay right now: a copy arriving meanwhile is not emitted twice. */
	confirming: Set<string>;
}

const PENDING_LIMIT = 32;
const memories = new Map<string, ProcessMemory>();

export function processMemory(scope: string): ProcessMemory {
	let memory = memories.get(scope);
	if (memory === undefined) {
		memory = { seen: {}, pending: [], confirming: new Set() };
		memories.set(scope, memory);
	}
	return memory;
}

/** Checks a callback against what this process and the saved state have seen, and records it everywhere. */
export function rememberShared(
	scope: string,
	staticData: Record<string, unknown>,
	field: string,
	key: string,
	nowSeconds: number,
	windowSeconds: number,
): DedupResult {
	const memory = processMemory(scope);
	const known = merged(staticData[field], memory.seen);
	const result = remember(known, key, nowSeconds, windowSeconds);
	memory.seen = result.next;
	if (result.duplicate) return result;
	memory.pending = [...memory.pending.filter((data) => data !== staticData), staticData].slice(-PENDING_LIMIT);
	for (const data of memory.pending) data[field] = result.next;
	return result;
}

/** Whether this process or the saved state remembers a key inside the window; looked up, nothing is copied. */
export type Recall = (key: string) => boolean;

export function recallShared(
	scope: string,
	staticData: Record<string, unknown>,
	field: string,
	nowSeconds: number,
	windowSeconds: number,
): Recall {
	const stores = [staticData[field], processMemory(scope).seen].filter(isSeenCallbacks);
	return (key) =>
		stores.some((store) => {
			if (!Object.prototype.hasOwnProperty.call(store, key)) return false;
			const at = store[key];
			return typeof at === 'number' && Number.isFinite(at) && at <= nowSeconds && nowSeconds - at < windowSeconds;
		});
}

/**
 * The final status already emitted for the order of a callback whose own status comes before any final one (0, 1,
 * -1), or undefined. A final status is never followed by an earlier one, so such a callback is an old one sent again.
 */
export function finalBefore(recall: Recall, body: Record<string, unknown>): string | undefined {
	const order = orderPart(body);
	const status = statusPart(body.status);
	// A status HaiPay adds later is not known to come before a final one, so it is left to repeat detection.
	if (order === undefined || !EARLIER.includes(status)) return undefined;
	return FINAL.find((final) => recall(`${order}|${final}`));
}
