import { spawn } from 'child_process';

import { parseArgs, runCli, type CliOptions } from '../../sandbox/cli';
import type { Sandbox } from '../../sandbox';
import { exited, launchers } from './launchers';
import { ROOT } from './paths';

export const say = (line = '') => process.stdout.write(`${line}\n`);

export function buildPackage(): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0 ? resolve() : reject(new Error(`npm run build failed:\n${output.slice(-3000)}`)),
		);
	});
}

/** The sandbox gateway in this process, with the CLI's own keys and its n8n credential file. */
export async function startSandboxGateway(
	overrides: Partial<CliOptions>,
): Promise<{ sandbox: Sandbox; credentialsFile: string }> {
	const defaults = parseArgs([], {});
	if (defaults === 'help') throw new Error('unexpected help');
	return runCli({ ...defaults, ...overrides });
}

/**
 * Runs `stop` once, then exits, on whatever ends the session and can be caught: Ctrl-C (SIGINT), a terminal hang-up
 * (SIGHUP), SIGTERM, the output going away (`npm start | tee log` whose tee has ended: a write fails with EPIPE), or
 * npm, its shell or tsx ending above it (lib/launchers.ts: a SIGTERM to npm reaches no further). A write to a closed
 * output is dropped rather than thrown, so that the stop runs to its end. What cannot be caught (SIGKILL) is left to
 * the guards of the process groups this process started (lib/guard.js).
 */
export function onStopSignal(stop: (reason: string) => Promise<void>): void {
	let stopping = false;
	const begin = (reason: string) => {
		if (stopping) return;
		stopping = true;
		stop(reason).then(
			() => process.exit(0),
			(error: Error) => {
				process.stderr.write(`${error.message}\n`);
				process.exit(1);
			},
		);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => begin(signal));
	for (const stream of [process.stdout, process.stderr]) stream.on('error', () => begin('output closed'));
	const parent = process.ppid;
	const above = launchers();
	setInterval(() => {
		if (process.ppid !== parent || above.some(exited)) begin('npm (or tsx) above it ended');
	}, 1_000).unref();
}
