import { randomBytes } from 'crypto';
import type { EventEmitter } from 'events';
import http from 'http';
import https from 'https';

/** HaiPay's schedule (docs/haipay-facts.md): after the first attempt, every 5 minutes, 5 more times. */
export const HAIPAY_CALLBACK_SCHEDULE = [300_000, 300_000, 300_000, 300_000, 300_000];

export interface CallbackJob {
	id: string;
	orderNo: string;
	orderId: string;
	appId: number;
	url: string;
	/** The signed body, posted as JSON on every attempt (unless `payload` is set). */
	body: Record<string, unknown>;
	/** The exact text to post instead of the body as JSON: attacks that re-spell or re-split a callback, or pad it. */
	payload?: string;
	/** What attack this job is, when it is one (see SandboxControl.attackCallback). */
	attack?: string;
	attempts: number;
	/** When the next attempt is due (epoch ms); meaningless once the job is no longer pending. */
	nextAt: number;
	state: 'pending' | 'delivered' | 'gave-up';
}

export interface CallbackAttempt {
	jobId: string;
	orderNo: string;
	orderId: string;
	appId: number;
	url: string;
	/** 1 for the first delivery, 2 for the first retry, ... */
	attempt: number;
	at: string;
	durationMs: number;
	httpStatus?: number;
	/** The receiver's answer, cut at 1,000 characters. */
	response?: string;
	error?: string;
	/** The receiver answered HTTP 2xx with the plain text `SUCCESS`. */
	acknowledged: boolean;
	/** No attempt follows this one: acknowledged, or the schedule is used up. */
	last: boolean;
	body: Record<string, unknown>;
}

export interface DispatcherOptions {
	schedule: number[];
	timeoutMs: number;
	/** Attempts on the wire at once; the others wait their turn, and their time-out starts when they are sent. 0: no limit. */
	concurrency?: number;
	events: EventEmitter;
	onChange: () => void;
	now?: () => number;
	/** How many attempts the in-memory log keeps (oldest dropped first). */
	logLimit?: number;
}

interface PostResult {
	httpStatus?: number;
	response?: string;
	error?: string;
}

/**
 * One callback attempt, on `node:http`/`https` rather than the dev side's axios client (dev/http.ts): this is the
 * gateway's own sender, part of the emulator, and it keeps what HaiPay's does: a fresh connection per attempt
 * (`agent: false`), the exact text an attack job posts, at most 64 KiB of the answer kept while the rest is read,
 * and attempts on the wire destroyed when the dispatcher closes.
 */
function post(url: string, payload: string, timeoutMs: number, active: Set<http.ClientRequest>): Promise<PostResult> {
	return new Promise((resolve) => {
		let target: URL;
		try {
			target = new URL(url);
		} catch {
			resolve({ error: 'invalid notifyUrl' });
			return;
		}
		const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
		if (!client) {
			resolve({ error: `unsupported protocol ${target.protocol}` });
			return;
		}
		let settled = false;
		const finish = (result: PostResult) => {
			if (settled) return;
			settled = true;
			resolve(result);
		};
		const request = client.request(
			target,
			{
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'Content-Length': Buffer.byteLength(payload),
					'User-Agent': 'haipay-sandbox',
				},
				timeout: timeoutMs,
				agent: false,
			},
			(response) => {
				const chunks: Buffer[] = [];
				let size = 0;
				response.on('data', (chunk: Buffer) => {
					if (size < 65_536) chunks.push(chunk);
					size += chunk.length;
				});
				response.on('end', () =>
					finish({ httpStatus: response.statusCode, response: Buffer.concat(chunks).toString('utf8') }),
				);
				response.on('error', (error) => finish({ httpStatus: response.statusCode, error: error.message }));
			},
		);
		active.add(request);
		request.on('close', () => active.delete(request));
		request.on('timeout', () => {
			request.destroy();
			finish({ error: `no answer within ${timeoutMs} ms` });
		});
		request.on('error', (error) => finish({ error: error.message }));
		request.end(payload);
	});
}

/** Delivers callbacks, retrying on the schedule until the receiver answers `SUCCESS`, and logs every attempt. */
export class CallbackDispatcher {
	private readonly jobs = new Map<string, CallbackJob>();
	private readonly timers = new Map<string, NodeJS.Timeout>();
	private readonly inFlight = new Map<string, Promise<void>>();
	private readonly log: CallbackAttempt[] = [];
	private readonly active = new Set<http.ClientRequest>();
	/** Attempts waiting for a place on the wire, when the concurrency is limited. */
	private readonly queued: Array<() => void> = [];
	private sending = 0;
	private closed = false;
	private readonly now: () => number;

	constructor(private readonly options: DispatcherOptions) {
		this.now = options.now ?? Date.now;
	}

	get schedule(): number[] {
		return this.options.schedule;
	}

	set schedule(value: number[]) {
		this.options.schedule = value;
	}

	attempts(): CallbackAttempt[] {
		return [...this.log];
	}

	allJobs(): CallbackJob[] {
		return [...this.jobs.values()];
	}

	pending(): CallbackJob[] {
		return this.allJobs().filter((job) => job.state === 'pending');
	}

	enqueue(url: string, body: Record<string, unknown>, extra: { payload?: string; attack?: string } = {}): CallbackJob {
		const job: CallbackJob = {
			...extra,
			id: `cb_${randomBytes(8).toString('hex')}`,
			orderNo: String(body.orderNo),
			orderId: String(body.orderId),
			appId: Number(body.appId),
			url,
			body,
			attempts: 0,
			nextAt: this.now(),
			state: 'pending',
		};
		this.jobs.set(job.id, job);
		this.options.onChange();
		this.arm(job, 0);
		return job;
	}

	private arm(job: CallbackJob, delayMs: number): void {
		if (this.closed) return;
		const existing = this.timers.get(job.id);
		if (existing) clearTimeout(existing);
		const timer = setTimeout(
			() => {
				this.timers.delete(job.id);
				void this.run(job);
			},
			Math.max(0, delayMs),
		);
		this.timers.set(job.id, timer);
	}

	private run(job: CallbackJob): Promise<void> {
		const running = this.inFlight.get(job.id);
		if (running) return running;
		if (job.state !== 'pending' || this.closed) return Promise.resolve();
		const promise = this.attempt(job).finally(() => this.inFlight.delete(job.id));
		this.inFlight.set(job.id, promise);
		return promise;
	}

	private async attempt(job: CallbackJob): Promise<void> {
		const timer = this.timers.get(job.id);
		if (timer) {
			clearTimeout(timer);
			this.timers.delete(job.id);
		}
		await this.place();
		const started = this.now();
		let result: PostResult = { error: 'the sandbox closed' };
		try {
			if (!this.closed)
				result = await post(job.url, job.payload ?? JSON.stringify(job.body), this.options.timeoutMs, this.active);
		} finally {
			this.sending -= 1;
			this.queued.shift()?.();
		}
		if (this.closed) return;
		job.attempts += 1;
		const ok =
			result.error === undefined &&
			result.httpStatus !== undefined &&
			result.httpStatus >= 200 &&
			result.httpStatus < 300 &&
			(result.response ?? '').trim() === 'SUCCESS';
		const retriesLeft = this.options.schedule.length - (job.attempts - 1);
		if (ok) job.state = 'delivered';
		else if (retriesLeft <= 0) job.state = 'gave-up';
		else {
			job.nextAt = this.now() + this.options.schedule[job.attempts - 1];
			this.arm(job, this.options.schedule[job.attempts - 1]);
		}
		const entry: CallbackAttempt = {
			jobId: job.id,
			orderNo: job.orderNo,
			orderId: job.orderId,
			appId: job.appId,
			url: job.url,
			attempt: job.attempts,
			at: new Date(started).toISOString(),
			durationMs: this.now() - started,
			httpStatus: result.httpStatus,
			response: result.response?.slice(0, 1000),
			error: result.error,
			acknowledged: ok,
			last: job.state !== 'pending',
			body: job.body,
		};
		this.log.push(entry);
		const limit = this.options.logLimit ?? 10_000;
		if (this.log.length > limit) this.log.splice(0, this.log.length - limit);
		this.options.onChange();
		this.options.events.emit('callback', entry);
	}

	/** Resolves when the attempt may go on the wire: at once, or when one of the `concurrency` sending ends. */
	private place(): Promise<void> {
		const limit = this.options.concurrency ?? 0;
		if (limit <= 0 || this.sending < limit) {
			this.sending += 1;
			return Promise.resolve();
		}
		return new Promise((resolve) => this.queued.push(() => ((this.sending += 1), resolve())));
	}

	/** Makes every pending attempt now, without waiting for its turn in the schedule, and waits for them. */
	async flush(): Promise<void> {
		await Promise.all(this.pending().map((job) => this.run(job)));
	}

	/** Waits for attempts already on the wire, so that a close or a snapshot sees their outcome. */
	async settle(): Promise<void> {
		await Promise.all([...this.inFlight.values()]);
	}

	clear(): void {
		for (const timer of this.timers.values()) clearTimeout(timer);
		this.timers.clear();
		this.jobs.clear();
		this.log.length = 0;
	}

	/** Stops all timers and aborts deliveries on the wire: a receiver that never answers cannot hold up a close. */
	close(): void {
		this.closed = true;
		for (const timer of this.timers.values()) clearTimeout(timer);
		this.timers.clear();
		for (const request of this.active) request.destroy();
		for (const go of this.queued.splice(0)) go();
	}

	snapshot(): CallbackJob[] {
		return this.pending();
	}

	/** Pending jobs from a saved state resume their schedule; an attempt that was due while down goes now. */
	restore(jobs: CallbackJob[]): void {
		for (const job of jobs) {
			this.jobs.set(job.id, job);
			if (job.state === 'pending') this.arm(job, job.nextAt - this.now());
		}
	}
}
