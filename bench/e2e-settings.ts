/* The end-to-end part's settings: the run (e2e.ts) uses them and its figures (e2e-figures.ts) report them. */

/** A whole positive number from the environment, or the fallback. */
const setting = (name: string, fallback: number) => {
	const value = Number(process.env[name] ?? fallback);
	return Number.isInteger(value) && value > 0 ? value : fallback;
};

export const E2E_SETTINGS = {
	rows: setting('BENCH_E2E_ROWS', 5_000),
	/** The sandbox's answer time and the HaiPay node's concurrency, as in the bulk rows. */
	latencyMs: 50,
	inFlight: 16,
	/** An order is final this long after it is created; its callback goes then. */
	finalMs: 1_000,
	/** HaiPay's schedule is 5 retries 5 minutes apart; here 5 retries this far apart. */
	retryMs: setting('BENCH_E2E_RETRY_MS', 15_000),
	retries: 5,
	/** How long the sandbox waits for n8n's answer to one attempt: its default; HaiPay does not publish its own. */
	timeoutMs: setting('BENCH_E2E_TIMEOUT_MS', 10_000),
	/** Callback attempts the sandbox has on the wire at once: HaiPay does not publish its dispatcher's either. */
	concurrency: setting('BENCH_E2E_CALLBACK_CONCURRENCY', 10),
	/** In every 50 rows, these go to a payee the sandbox fails (status 3), TZS and NGN alike (12%)... */
	failing: [8, 9, 28, 29, 48, 49],
	/** ...and the first attempt of these callbacks fails on purpose (4%), by turns refused and answer lost. */
	injected: [8, 33],
};
