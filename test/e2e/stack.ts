import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { checkWorkflowId, type WorkflowFile } from '../../dev/workflow-builder';
import type { Sandbox } from '../../sandbox';
import { ensureN8n } from '../../playground/lib/install';
import {
	activateWorkflow,
	assertPortFree,
	executeWorkflow,
	prepareFiles,
	provision,
	type Executed,
} from '../../playground/lib/instance';
import { startN8nServer, type N8nOptions, type N8nServer } from '../../playground/lib/n8n';
import { EXAMPLES, N8N_PORT, RUNNER_PORT } from '../../playground/lib/paths';
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
	/** Stops n8n and starts it again on the same user folder (database, encryption key) and port; `server` is the new one. */
	restart(): Promise<void>;
	stop(): Promise<void>;
}

export interface StackOptions {
	/** Workflows a test file adds: imported beside the examples, and activated, before n8n starts. */
	workflows?: WorkflowFile[];
	/** Workflows a test file runs with `n8n execute`: imported beside the examples, not activated. */
	runnable?: WorkflowFile[];
}

/** The example workflows' files and `workflows`, in one folder of `work` for `n8n import:workflow --separate`. */
function workflowsToImport(work: string, workflows: WorkflowFile[]): string {
	if (workflows.length === 0) return EXAMPLES;
	const dir = join(work, 'workflows');
	mkdirSync(dir, { recursive: true });
	for (const file of readdirSync(EXAMPLES).filter((name) => name.endsWith('.json')))
		copyFileSync(join(EXAMPLES, file), join(dir, file));
	for (const workflow of workflows) {
		// A test's copy of a built workflow may take an ID of its own, past the builder's check.
		checkWorkflowId(workflow.id);
		writeFileSync(join(dir, `test-${workflow.id}.json`), JSON.stringify(workflow, null, 2));
	}
	return dir;
}

/** The stack's sandbox gateway, in this process, keeping its state and keys in `work`. */
async function stackGateway(work: string): ReturnType<typeof startSandboxGateway> {
	return await startSandboxGateway({
		port: 0,
		stateDir: join(work, 'sandbox'),
		persist: false,
		processingMs: 100,
		finalMs: 600,
		// Two quick retries instead of HaiPay's five minutes: enough to see that an acknowledged callback stops.
		callbackSchedule: [500, 500],
	});
}

export async function startStack(log: (line: string) => void, stackOptions: StackOptions = {}): Promise<Stack> {
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
		const gateway = await stackGateway(work);
		sandbox = gateway.sandbox;
		const options: N8nOptions = {
			home: join(work, 'n8n'),
			filesDir: join(work, 'files'),
			port: N8N_PORT,
			runnerPort: RUNNER_PORT,
		};
		prepareFiles(options.filesDir, true);
		const workflows = stackOptions.workflows ?? [];
		await provision(
			options,
			gateway.credentialsFile,
			log,
			workflowsToImport(work, [...workflows, ...(stackOptions.runnable ?? [])]),
		);
		for (const workflow of workflows) {
			log(`  activating "${workflow.name}"`);
			await activateWorkflow(options, workflow.id);
		}
		server = await startN8nServer(options, join(work, 'n8n.log'));
		const rest = new N8nRest(server.url);
		await rest.ensureOwner();
		const keyFile = join(work, 'sandbox', 'keys', 'platform.pkcs8.pem');
		if (!existsSync(keyFile)) throw new Error(`the sandbox keeps no platform key at ${keyFile}`);
		const stack: Stack = {
			sandbox,
			server,
			rest,
			options,
			files: join(options.filesDir, 'haipay'),
			platformPrivateKey: readFileSync(keyFile, 'utf8'),
			credentialsFile: gateway.credentialsFile,
			execute: (id) => executeWorkflow(options, id),
			restart: async () => {
				await server?.stop();
				server = undefined;
				server = await startN8nServer(options, join(work, 'n8n.log'));
				stack.server = server;
				await rest.ensureOwner();
			},
			stop,
		};
		return stack;
	} catch (error) {
		await stop();
		throw error;
	}
}

/** The test file's stack: started before its tests, stopped after them; call at the top of the file. */
export function stackPerFile(log: (line: string) => void, options: StackOptions = {}): () => Stack {
	let stack: Stack | undefined;
	beforeAll(async () => {
		stack = await startStack(log, options);
	}, 20 * 60_000);
	afterAll(async () => {
		await stack?.stop();
	}, 60_000);
	return () => {
		if (stack === undefined) throw new Error('the stack is not running');
		return stack;
	};
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs` saying what it waited for. */
export async function eventually<T>(
	what: string,
	probe: () => Promise<T | undefined> | T | undefined,
	timeoutMs = 30_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined) return value;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline)
			throw new Error(
				`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * n8n's manual run of a saved workflow from its trigger `trigger`, as the editor's "Execute workflow" asks for it
 * (`POST /rest/workflows/<id>/run`), then the execution polled until it ends.
 */
export async function runByRest(
	stack: Stack,
	workflowId: string,
	timeoutMs = 120_000,
	trigger = 'Run',
): Promise<{ id: string; status: string }> {
	const saved = await stack.rest.call('GET', `/workflows/${workflowId}`);
	if (saved.status !== 200)
		throw new Error(`reading workflow ${workflowId} failed: HTTP ${saved.status} ${saved.body.slice(0, 300)}`);
	const workflowData = (saved.json as { data: Record<string, unknown> }).data;
	const started = await stack.rest.call('POST', `/workflows/${workflowId}/run`, {
		workflowData,
		triggerToStartFrom: { name: trigger },
	});
	if (started.status !== 200)
		throw new Error(`running workflow ${workflowId} failed: HTTP ${started.status} ${started.body.slice(0, 300)}`);
	const executionId = String((started.json as { data: { executionId: string } }).data.executionId);
	return await eventually(
		`execution ${executionId} to end`,
		async () => {
			const execution = (await stack.rest.execution(executionId)) as { id: string; status: string };
			return ['success', 'error', 'crashed', 'canceled'].includes(execution.status) ? execution : undefined;
		},
		timeoutMs,
	);
}
