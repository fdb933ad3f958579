import { say } from '../playground/lib/session';
import type { Failure } from './report';

/** The parts `npm run bench` measures, and how a failed configuration is kept for the end of the run. */

/** The parts a run measures: `BENCH_PARTS` (comma-separated), all by default; `BENCH_QUEUE=0` leaves queue out. */
export const PARTS = ['bulk', 'sheet', 'callbacks', 'e2e', 'signing', 'sandbox', 'queue'] as const;
export type Part = (typeof PARTS)[number];

export function partsOf(env: NodeJS.ProcessEnv): Part[] {
	const asked = (env.BENCH_PARTS ?? '')
		.split(',')
		.map((part) => part.trim())
		.filter((part) => part !== '');
	const unknown = asked.filter((part) => !(PARTS as readonly string[]).includes(part));
	if (unknown.length > 0)
		throw new Error(`BENCH_PARTS: unknown part ${unknown.join(', ')} (known: ${PARTS.join(', ')})`);
	const parts = asked.length > 0 ? (asked as Part[]) : [...PARTS];
	return parts.filter((part) => part !== 'queue' || env.BENCH_QUEUE !== '0');
}

/** Runs one configuration; a failure is kept for the end of the run, and the benchmark goes on with the next. */
export function attempter(failures: Failure[]) {
	return async <T>(part: Part, what: string, run: () => Promise<T>): Promise<T | undefined> => {
		try {
			return await run();
		} catch (error) {
			const message = ((error as Error).message ?? String(error)).split('\n')[0].slice(0, 300);
			say(`  failed: ${message}`);
			failures.push({ what, error: message, part });
			return undefined;
		}
	};
}
