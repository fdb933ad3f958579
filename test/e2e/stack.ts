import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import type { Sandbox } from '../../sandbox';
import { ensureN8n } from '../../playground/lib/install';
import { assertPortFree, executeWorkflow, prepareFiles, provision, type Executed } from '../../playground/lib/instance';
import { startN8nServer, type N8nOptions, type N8nServer } from '../../playground/lib/n8n';
import { N8N_PORT, RUNNER_PORT } from '../../playground/lib/paths';
import { N8nRest } from '../../playground/lib/rest';
import { startSandboxGateway } from '../../playground/lib/session';

/** One real n8n server with this package, a sandbox gateway in this process, and the examples imported. */
export interface Stack {
	sandbox: Sandbox;
	server: N8nServer;
	rest: N8nRest;
	options: N8nOptions;
	/** Where the example workflows read and write (`<filesDir>/haipay`). */
	files: string;
	/** The sandbox's platform key (PEM): what signs its answers and callbacks. */
	platformPrivateKey: string;
	/** The credentials n8n imported, as `n8n import:credentials` read them (test-only keys). */
	credentialsFile: string;
	execute(workflowId: string): Promise<Executed>;
	stop(): Promise<void>;
}

export async function startStack(log: (line: string) => void): Promise<Stack> {
	await assertPortFree(N8N_PORT, 'n8n');
	// The runner ports of the server and of the CLI commands beside it.
	for (const port of [RUNNER_PORT, RUNNER_PORT + 10, RUNNER_PORT + 11]) await assertPortFree(port, "n8n's task runner");
	await ensureN8n(log);
	const work = mkdtempSync(join(tmpdir(), 'haipay-e2e-'));
	let sandbox: Sandbox | undefined;
	let server: N8nServer | undefined;
	const stop = async () => {
		await server?.stop();
		await sandbox?.close();
		rmSync(work, { recursive: true, force: true });
	};
	try {
		const gateway = await startSandboxGateway({
			port: 0,
			stateDir: join(work, 'sandbox'),
			persist: false,
			processingMs: 100,
			finalMs: 600,
			// Two quick retries instead of HaiPay's five minutes: enough to see that an acknowledged callback stops.
			callbackSchedule: [500, 500],
		});
		sandbox = gateway.sandbox;
		const options: N8nOptions = { home: join(work, 'n8n'), filesDir: join(work, 'files'), port: N8N_PORT, runnerPort: RUNNER_PORT };
		prepareFiles(options.filesDir, true);
		await provision(options, gateway.credentialsFile, log);
		server = await startN8nServer(options, join(work, 'n8n.log'));
		const rest = new N8nRest(server.url);
		await rest.ensureOwner();
		const keyFile = join(work, 'sandbox', 'keys', 'platform.pkcs8.pem');
		if (!existsSync(keyFile)) throw new Error(`the sandbox keeps no platform key at ${keyFile}`);
		const running = { sandbox, server };
		return {
			...running,
			rest,
			options,
			files: join(options.filesDir, 'haipay'),
			platformPrivateKey: readFileSync(keyFile, 'utf8'),
			credentialsFile: gateway.credentialsFile,
			execute: (id) => executeWorkflow(options, id),
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs` saying what it waited for. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined) return value;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}
