import { createHash, randomBytes } from 'crypto';

/*
 * The repeat memory of one trigger in this process, and the text it is kept in between processes.
 *
 * A map from a short digest of each key to the second it was first emitted, with per-minute buckets for eviction
 * by age: every check and every new entry costs the same whatever the memory holds. Saved as one compact text (a
 * digest and an age per entry) that another process, or this one after a restart, takes in when it changes.
 */

/** HaiPay resends a callback every 5 minutes, 5 times: every repeat of a result arrives within this span. */
export const RETRY_SERIES_SECONDS = 25 * 60;

/** The rate of distinct results the memory is sized for, and the span it keeps at that rate. */
export const DESIGN_RATE_PER_MINUTE = 1_440;
/**
 * HaiPay's series is 25 minutes; 5 more are the margin: for a late resend (HaiPay's own delays), and for eviction,
 * which forgets a whole minute at a time. 43,200 entries are 821 KB of saved text.
 */
export const DESIGN_SPAN_SECONDS = 30 * 60;

/** Entries kept, at most: the whole retry series with its margin at DESIGN_RATE_PER_MINUTE. */
export const MEMORY_CAPACITY = (DESIGN_RATE_PER_MINUTE * DESIGN_SPAN_SECONDS) / 60;

/** The most often the memory is written into the static data that n8n saves. */
export const FLUSH_MS = 1_000;

/**
 * How long an entry this process saved may be missing from the static data n8n loads, after this process wrote it
 * at least twice, before the trigger says its saves do not reach n8n's database. Another webhook processor's save
 * can lack it for a moment (it loaded before this one saved); never for a minute across two writes.
 */
export const PERSIST_GRACE_MS = 60_000;

/** The static data field, and the version of its text. */
export const MEMORY_FIELD = 'repeatMemory';
const VERSION = 2;

/** A key's digest: 14 characters of base64url (84 bits), so that 43,200 entries never collide in practice. */
export const DIGEST_LENGTH = 14;
/** An entry's age at the moment it was saved, in seconds, as fixed-width base 36 (up to 690 days). */
const AGE_LENGTH = 5;
const MAX_AGE = 36 ** AGE_LENGTH - 1;
export const RECORD_LENGTH = DIGEST_LENGTH + AGE_LENGTH;

/** What the workflow's static data holds. */
interface Saved {
	v: number;
	/** Who saved it, and which of its saves: a text already taken in is not read again. */
	stamp: string;
	/** The second it was saved: ages are counted back from it. */
	at: number;
	entries: string;
}

export function digestOf(key: string): string {
	return createHash('sha256').update(key, 'utf8').digest('base64url').slice(0, DIGEST_LENGTH);
}

function isSaved(value: unknown): value is Saved {
	const saved = value as Saved;
	return (
		typeof value === 'object' &&
		value !== null &&
		saved.v === VERSION &&
		typeof saved.stamp === 'string' &&
		Number.isSafeInteger(saved.at) &&
		typeof saved.entries === 'string'
	);
}

/** Everything one trigger (workflow and node) remembers in this process. */
export class ScopeMemory {
	/** Digest → second first emitted. */
	private readonly seen = new Map<string, number>();
	/** Minute → digests first emitted in it, for eviction by age without a scan. */
	private readonly buckets = new Map<number, string[]>();
	private taken: string | undefined;
	private lastSaved: Saved | undefined;
	private saves = 0;
	private lastFlushMs = Number.NEGATIVE_INFINITY;
	/** Entries added since the last save. */
	private unsaved = 0;
	/** Whether a request of this process is waiting to save the entries of a burst. */
	saving = false;
	/** Static data objects of recent saves: n8n may store them in any order, so each gets the newest text. */
	private targets: Array<Record<string, unknown>> = [];
	private lastWarnedAt = Number.NEGATIVE_INFINITY;
	/** Names this memory's saves: another process's, or this one's before a restart, carry another. */
	private readonly id = randomBytes(6).toString('base64url');
	/** The newest entry added, and one entry this process saved, watched until n8n loads it back (persisted()). */
	private newest: string | undefined;
	private probe: { digest: string; firstMs: number; writes: number } | undefined;
	private persistenceWarned = false;

	get size(): number {
		return this.seen.size;
	}

	/**
	 * Whether the key was emitted less than `windowSeconds` ago, or at a time this clock has not reached: a clock
	 * stepped back never makes a remembered result new again (and another process's clock does not reach here:
	 * absorb reckons its ages from this one).
	 */
	recall(digest: string, nowSeconds: number, windowSeconds: number): boolean {
		const at = this.seen.get(digest);
		return at !== undefined && (at > nowSeconds || nowSeconds - at < windowSeconds);
	}

	/** Adds a key first emitted at `at`; false when it is already known (its first time is kept). */
	add(digest: string, at: number): boolean {
		const known = this.seen.get(digest);
		if (known !== undefined && known <= at) return false;
		if (known !== undefined) this.drop(digest, known);
		this.seen.set(digest, at);
		this.newest = digest;
		this.unsaved += 1;
		const minute = Math.floor(at / 60);
		const bucket = this.buckets.get(minute);
		if (bucket === undefined) this.buckets.set(minute, [digest]);
		else bucket.push(digest);
		return true;
	}

	/** Forgets one key, so that an emission after its window counts from the new time. */
	forget(digest: string): void {
		const at = this.seen.get(digest);
		if (at === undefined) return;
		this.seen.delete(digest);
		this.drop(digest, at);
	}

	/** Takes back an emission n8n did not start: the next save leaves it out. Only the entry recorded `at`. */
	withdraw(digest: string, at: number): void {
		if (this.seen.get(digest) !== at) return;
		this.forget(digest);
		this.unsaved += 1;
	}

	private drop(digest: string, at: number): void {
		const bucket = this.buckets.get(Math.floor(at / 60));
		if (bucket === undefined) return;
		const index = bucket.indexOf(digest);
		if (index >= 0) bucket.splice(index, 1);
	}

	/**
	 * Forgets entries older than the window, then the oldest minutes while over capacity. Returns the youngest
	 * age, in seconds, of an entry forgotten for want of room (undefined when none was).
	 */
	evict(nowSeconds: number, windowSeconds: number, capacity: number): number | undefined {
		const oldest = Math.floor((nowSeconds - windowSeconds) / 60);
		let crowdedOut: number | undefined;
		for (const minute of [...this.buckets.keys()].sort((a, b) => a - b)) {
			const expired = minute < oldest;
			if (!expired && this.seen.size <= capacity) break;
			for (const digest of this.buckets.get(minute) ?? []) {
				const at = this.seen.get(digest);
				if (at === undefined || Math.floor(at / 60) !== minute) continue;
				this.seen.delete(digest);
				if (!expired || nowSeconds - at < windowSeconds) crowdedOut = Math.min(crowdedOut ?? Infinity, nowSeconds - at);
			}
			this.buckets.delete(minute);
		}
		return crowdedOut;
	}

	/**
	 * Takes in a text saved by another process, or by this one before a restart, once. When this process holds
	 * entries the text lacks (another process saved last without them), they wait for this process's next save:
	 * the stored text converges on every process's entries instead of keeping only the last writer's.
	 */
	absorb(stored: unknown, nowSeconds: number): void {
		if (!isSaved(stored) || stored.stamp === this.taken) return;
		this.taken = stored.stamp;
		const { entries } = stored;
		// Ages are reckoned from this process's clock: another process's clock, skewed or stepped, does not matter.
		const at = nowSeconds;
		// What is taken in is saved already: it waits for no save of this process's.
		const unsaved = this.unsaved;
		let held = 0;
		for (let offset = 0; offset + RECORD_LENGTH <= entries.length; offset += RECORD_LENGTH) {
			const age = parseInt(entries.slice(offset + DIGEST_LENGTH, offset + RECORD_LENGTH), 36);
			if (!Number.isSafeInteger(age)) continue;
			this.add(entries.slice(offset, offset + DIGEST_LENGTH), at - age);
			held += 1;
		}
		this.unsaved = this.seen.size > held ? Math.max(unsaved, this.seen.size - held) : unsaved;
	}

	/** How long until the next save is due. */
	untilDue(nowMs: number): number {
		return Math.min(Math.max(this.lastFlushMs + FLUSH_MS - nowMs, 0), FLUSH_MS);
	}

	get waitingToBeSaved(): boolean {
		return this.unsaved > 0;
	}

	/** Whether entries wait to be saved and the last save is FLUSH_MS old (or from before a clock step back). */
	dueForSave(nowMs: number): boolean {
		return this.unsaved > 0 && (nowMs - this.lastFlushMs >= FLUSH_MS || nowMs < this.lastFlushMs);
	}

	/** The text of the last save, to write again where n8n dropped it (carry.ts). */
	get latest(): Saved | undefined {
		return this.lastSaved;
	}

	/** Writes the whole memory as one compact text into the request's static data (and recent ones). */
	save(staticData: Record<string, unknown>, nowSeconds: number, nowMs: number): void {
		const parts: string[] = [];
		for (const [digest, at] of this.seen) {
			const age = Math.min(Math.max(nowSeconds - at, 0), MAX_AGE);
			parts.push(digest + age.toString(36).padStart(AGE_LENGTH, '0'));
		}
		this.saves += 1;
		const saved: Saved = { v: VERSION, stamp: `${this.id}.${this.saves}`, at: nowSeconds, entries: parts.join('') };
		this.taken = saved.stamp;
		this.lastSaved = saved;
		this.targets = [...this.targets.filter((target) => target !== staticData), staticData].slice(-8);
		for (const target of this.targets) target[MEMORY_FIELD] = saved;
		this.lastFlushMs = nowMs;
		this.unsaved = 0;
		if (this.probe !== undefined && this.seen.has(this.probe.digest)) this.probe.writes += 1;
		else this.probe = this.newest !== undefined && this.seen.has(this.newest) ? { digest: this.newest, firstMs: nowMs, writes: 1 } : undefined;
	}

	/**
	 * Whether what n8n loaded shows that this process's saves do not reach n8n's database: it lacks an entry this
	 * process wrote twice, the first time more than PERSIST_GRACE_MS ago. True once per process at most.
	 */
	notPersisted(stored: unknown, nowMs: number): boolean {
		const probe = this.probe;
		if (probe === undefined || this.persistenceWarned) return false;
		const entries = isSaved(stored) ? stored.entries : '';
		for (let at = entries.indexOf(probe.digest); at >= 0; at = entries.indexOf(probe.digest, at + 1)) {
			if (at % RECORD_LENGTH === 0) {
				this.probe = undefined;
				return false;
			}
		}
		if (probe.writes < 2 || nowMs - probe.firstMs <= PERSIST_GRACE_MS) return false;
		this.persistenceWarned = true;
		return true;
	}

	/** At most one warning per window that the memory cannot hold HaiPay's retry series. */
	shouldWarn(nowSeconds: number, windowSeconds: number): boolean {
		if (nowSeconds - this.lastWarnedAt < Math.max(windowSeconds, RETRY_SERIES_SECONDS)) return false;
		this.lastWarnedAt = nowSeconds;
		return true;
	}
}

const scopes = new Map<string, ScopeMemory>();

/** The memory this process holds for a trigger, without making one: a process that received none of its callbacks has none. */
export function heldScopeMemory(scope: string): ScopeMemory | undefined {
	return scopes.get(scope);
}

export function scopeMemory(scope: string): ScopeMemory {
	let memory = scopes.get(scope);
	if (memory === undefined) {
		memory = new ScopeMemory();
		scopes.set(scope, memory);
	}
	return memory;
}
