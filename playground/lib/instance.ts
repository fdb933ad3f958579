import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer } from 'net';
import { join } from 'path';

import { allExamples, FILES, WORKFLOW_IDS } from '../examples';
import { PAYROLL_RESULTS, PAYROLL_SAMPLE_ROWS, PAYROLL_SHEET, payrollCsv, payrollRows } from '../payroll';
import { installPackage, n8nCli, n8nEnv, parseRawOutput, runN8nCli, type ExecutionRun, type N8nOptions } from './n8n';
import { EXAMPLES, INSTALL_DIR, N8N_PORT } from './paths';

/** The major version of the n8n in INSTALL_DIR: the pinned 2.x, or the 1.x of the compatibility test. */
export function installedN8nMajor(): number {
	const manifest = JSON.parse(readFileSync(join(INSTALL_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8')) as {
		version: string;
	};
	return Number(manifest.version.split('.')[0]);
}

/** Resolves when the port can be bound on 127.0.0.1, or fails naming what uses it. */
export function assertPortFree(port: number, what: string): Promise<void> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', () =>
			reject(
				new Error(
					`port ${port} (${what}) is in use: stop what listens there (another npm start, n8n or sandbox) and try again`,
				),
			),
		);
		server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
	});
}

/** The folders the example workflows write into; the file nodes do not create missing parent folders. */
export function prepareFiles(filesDir: string, freshData: boolean): void {
	for (const dir of ['', 'vouchers', 'mit-tokens']) mkdirSync(join(filesDir, FILES, dir), { recursive: true });
	const csv = join(filesDir, FILES, 'payouts.csv');
	if (freshData || !existsSync(csv)) copyFileSync(join(EXAMPLES, 'data', 'payouts.csv'), csv);
	// Example 9's sheet: a sample of its size; `npx tsx playground/payroll.ts 50000` writes a month-end-sized one.
	const payroll = join(filesDir, FILES, PAYROLL_SHEET);
	if (freshData || !existsSync(payroll)) writeFileSync(payroll, payrollCsv(payrollRows(PAYROLL_SAMPLE_ROWS)));
	// Its results name orders of the sandbox's: a fresh sandbox has none of them.
	if (freshData) rmSync(join(filesDir, FILES, PAYROLL_RESULTS), { force: true });
}

/** Writes the example workflows into `dir` with their callback URLs on `webhookUrl` instead of `npm start`'s n8n. */
export function examplesFor(dir: string, webhookUrl: string): string {
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	for (const { file, workflow } of allExamples()) {
		writeFileSync(
			join(dir, file),
			JSON.stringify(workflow, null, 2).split(`http://localhost:${N8N_PORT}/`).join(`${webhookUrl}/`),
		);
	}
	return dir;
}

/**
 * Gives an n8n user folder this package, the sandbox credentials and the example workflows, through n8n's own CLI,
 * and publishes the callbacks workflow so that its production webhooks answer once the server runs. `examplesDir`
 * holds the workflows to import: examples/, or copies of them whose URLs name another port.
 */
export async function provision(
	options: N8nOptions,
	credentialsFile: string,
	log: (line: string) => void,
	examplesDir: string = EXAMPLES,
): Promise<void> {
	installPackage(options.home);
	// CLI commands run beside a server in the e2e tests: they get their own task-runner port.
	const env = n8nEnv({ ...options, runnerPort: options.runnerPort + 10, logLevel: 'warn' });
	log('  importing the sandbox credentials (n8n import:credentials)');
	await n8nCli(['import:credentials', `--input=${credentialsFile}`], env, options.filesDir);
	log('  importing the example workflows (n8n import:workflow)');
	await n8nCli(['import:workflow', '--separate', `--input=${examplesDir}`], env, options.filesDir);
	log('  activating the callbacks workflow');
	await activateWorkflow(options, WORKFLOW_IDS.callbacks);
}

/**
 * Activates an imported workflow through n8n's CLI, while no server runs on the user folder (a server takes it in
 * when it starts): n8n 2 publishes a workflow to activate it; n8n 1 has no publishing and activates it directly.
 */
export async function activateWorkflow(options: N8nOptions, id: string): Promise<void> {
	const env = n8nEnv({ ...options, runnerPort: options.runnerPort + 10, logLevel: 'warn' });
	const activate = installedN8nMajor() >= 2 ? ['publish:workflow'] : ['update:workflow', '--active=true'];
	await n8nCli([...activate, `--id=${id}`], env, options.filesDir);
}

export interface Executed {
	run: ExecutionRun;
	ms: number;
}

/** `n8n execute --id=… --rawOutput`; a run that ends in an error rejects with n8n's message. */
export async function executeWorkflow(options: N8nOptions, id: string, timeoutMs = 180_000): Promise<Executed> {
	const started = Date.now();
	// `execute` prints the run at info level; it gets a runner port of its own so that a server may run beside it.
	const env = n8nEnv({ ...options, runnerPort: options.runnerPort + 11, logLevel: 'info' });
	const result = await runN8nCli(['execute', `--id=${id}`, '--rawOutput'], env, options.filesDir, timeoutMs);
	if (result.code !== 0) {
		// n8n's own message where it printed one; else what it wrote to stderr, which says why it exited (the run it
		// printed on stdout may be a success: the exit code is then about n8n, not the workflow).
		const message =
			/"message":\s*"([^"]+)"/.exec(result.stdout)?.[1] ??
			`exit ${result.code}; stderr: ${result.stderr.slice(-1500)}; stdout: ${result.stdout.slice(-500)}`;
		throw new Error(`workflow ${id} failed: ${message}`);
	}
	return { run: parseRawOutput(result.stdout), ms: Date.now() - started };
}
