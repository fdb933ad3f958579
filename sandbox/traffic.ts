import type { EventEmitter } from 'events';

import type { RequestLogEntry } from './types';

/** What reached the gateway's API: the request log, the applies counted per appId, and the requests in flight. */
export class Traffic {
	private readonly log: RequestLogEntry[] = [];
	private seq = 0;
	private readonly applies = new Map<number, number>();
	private inFlightNow = 0;
	private inFlightPeak = 0;

	constructor(
		private readonly limit: number,
		private readonly events: EventEmitter,
	) {}

	logRequest(entry: Omit<RequestLogEntry, 'seq' | 'at'>, startedAt: number): void {
		const full: RequestLogEntry = { seq: ++this.seq, at: new Date(startedAt).toISOString(), ...entry };
		this.log.push(full);
		// Trimmed in batches: a shift per request would copy the whole log every time.
		if (this.log.length > this.limit * 1.25) this.log.splice(0, this.log.length - this.limit);
		this.events.emit('request', full);
	}

	requests(): RequestLogEntry[] {
		return this.log.slice(-this.limit);
	}

	/** Counts an apply (a payout, a collection, a refund) as received, whatever then happens to it: tests use this to prove a create was sent once. */
	noteReceived(path: string, body: unknown): void {
		if (!/\/(pay|mit|collect|refund)\/apply$/.test(path) || body === null || typeof body !== 'object') return;
		const appId = (body as Record<string, unknown>).appId;
		if (Number.isInteger(appId)) this.applies.set(appId as number, (this.applies.get(appId as number) ?? 0) + 1);
	}

	appliesReceived(appId?: number): number {
		if (appId !== undefined) return this.applies.get(appId) ?? 0;
		let total = 0;
		for (const count of this.applies.values()) total += count;
		return total;
	}

	appliesByAppId(): Record<string, number> {
		return Object.fromEntries(this.applies);
	}

	/** Gateway requests (not control or cashier ones) from their arrival until their answer has closed and their handling is done. */
	requestStarted(): void {
		this.inFlightNow += 1;
		if (this.inFlightNow > this.inFlightPeak) this.inFlightPeak = this.inFlightNow;
	}

	requestEnded(): void {
		this.inFlightNow -= 1;
	}

	/** `max` is the high-water mark since the start or the last `resetInFlightPeak`. */
	inFlight(): { now: number; max: number } {
		return { now: this.inFlightNow, max: this.inFlightPeak };
	}

	/** Starts a new high-water mark from the requests in flight now; returns the previous one. */
	resetInFlightPeak(): number {
		const previous = this.inFlightPeak;
		this.inFlightPeak = this.inFlightNow;
		return previous;
	}

	/** Forgets the log and the counts; requests in flight stay counted, since their answers are still to come. */
	clear(): void {
		this.log.length = 0;
		this.applies.clear();
	}
}
