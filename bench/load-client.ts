import { fork } from 'child_process';

/**
 * What the load clients share: each runs in a child process of its own, so that its bookkeeping does not share an
 * event loop with the server it measures.
 */

/** The p-th percentile of ascending values (nearest rank); 0 for none. */
export function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return 0;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Runs a client script in a child process with one job, and resolves with the result it sends back. */
export function runClient<Job, Result>(script: string, job: Job, who: string, timeoutMs = 300_000): Promise<Result> {
	return new Promise((resolve, reject) => {
		const child = fork(script, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${who} did not finish within ${timeoutMs / 60_000} minutes`));
		}, timeoutMs);
		child.once('message', (result: Result) => {
			clearTimeout(timer);
			resolve(result);
		});
		child.once('exit', (code) => {
			clearTimeout(timer);
			if (code !== 0) reject(new Error(`${who} exited with ${code}`));
		});
		child.send(job as object);
	});
}

/** The child's side: takes one job from the parent, sends the result back and exits. */
export function serveOneJob<Job, Result>(run: (job: Job) => Promise<Result>): void {
	process.once('message', (job: Job) => {
		run(job).then(
			(result) => process.send?.(result, () => process.exit(0)),
			(error: Error) => {
				process.stderr.write(`${error.stack ?? error.message}\n`);
				process.exit(1);
			},
		);
	});
}
