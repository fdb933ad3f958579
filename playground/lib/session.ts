import { spawn } from 'child_process';

import { parseArgs, runCli, type CliOptions } from '../../sandbox/cli';
import type { Sandbox } from '../../sandbox';
import { ROOT } from './paths';

export const say = (line = '') => process.stdout.write(`${line}\n`);

export function buildPackage(): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`npm run build failed:\n${output.slice(-3000)}`))));
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

/** Runs `stop` once on Ctrl-C, a terminal hang-up or a termination signal, then exits. */
export function onStopSignal(stop: (signal: string) => Promise<void>): void {
	let stopping = false;
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			if (stopping) return;
			stopping = true;
			stop(signal).then(
				() => process.exit(0),
				(error: Error) => {
					process.stderr.write(`${error.message}\n`);
					process.exit(1);
				},
			);
		});
	}
}
