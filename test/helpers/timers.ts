/**
 * Which waits code sets, and in what order they end, without measuring time: every timer set through the global
 * `setTimeout` (n8n-workflow's `sleep`, the sandbox's `delay`) is written to `events` as `set <ms>` when it is set
 * and `fired <ms>` when it fires, among whatever else the test writes there (a request received, an answer). The
 * timers still run as set. A test then asserts that a wait of exactly the expected length stood between two events.
 */
export function recordTimers(events: string[], onSet?: (ms: number) => void): () => void {
	const original = global.setTimeout;
	const spy = jest.spyOn(global, 'setTimeout').mockImplementation(((
		callback: (...args: unknown[]) => void,
		ms?: number,
		...args: unknown[]
	) => {
		events.push(`set ${ms ?? 0}`);
		// What holds at the moment the wait begins, written right after it: `onSet` may push events of its own.
		onSet?.(ms ?? 0);
		return original(
			(...given: unknown[]) => {
				events.push(`fired ${ms ?? 0}`);
				callback(...given);
			},
			ms,
			...args,
		);
	}) as unknown as typeof setTimeout);
	return () => spy.mockRestore();
}

/** The position of each event in the log, failing the test when one is missing or appears twice. */
export function positions(events: string[], wanted: string[]): number[] {
	return wanted.map((event) => {
		const first = events.indexOf(event);
		if (first < 0 || events.lastIndexOf(event) !== first)
			throw new Error(`"${event}" is not in the log exactly once: ${events.join(', ')}`);
		return first;
	});
}
