import { sleep } from 'n8n-workflow';

/** Spaces request starts evenly when a rate is set, on the monotonic clock; shared by every worker of the run. */
export function pacer(requestsPerSecond: number): () => Promise<void> {
	if (requestsPerSecond <= 0) return async () => {};
	const interval = 1000 / requestsPerSecond;
	let next = 0;
	return async () => {
		const now = performance.now();
		const start = Math.max(now, next);
		next = start + interval;
		if (start > now) await sleep(start - now);
	};
}

/** Runs `work` over the entries with at most `limit` in flight, until done or `stopped()` says so. */
export async function pool<T>(
	entries: T[],
	limit: number,
	stopped: () => boolean,
	work: (entry: T) => Promise<void>,
): Promise<void> {
	let cursor = 0;
	const worker = async () => {
		while (cursor < entries.length && !stopped()) await work(entries[cursor++]);
	};
	await Promise.all(Array.from({ length: Math.min(limit, Math.max(entries.length, 1)) }, worker));
}
