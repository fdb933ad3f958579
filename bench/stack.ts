import { mkdirSync, readFileSync, rmSync } from 'fs';
import { join } from 'path';

import type { WorkflowBody } from '../dev/workflow-builder';
import type { Sandbox } from '../sandbox';
import { ensureN8n } from '../playground/lib/install';
import { assertPortFree } from '../playground/lib/instance';
import { installPackage, n8nCli, n8nEnv, startN8nServer, type N8nOptions, type N8nServer } from '../playground/lib/n8n';
import { N8nRest } from '../playground/lib/rest';
import { buildPackage, startSandboxGateway } from '../playground/lib/session';

/**
 * The benchmark's own n8n server and sandbox, on ports of their own so that a running playground or end-to-end
 * test never meets them. n8n starts from an empty user folder every run: no executions or static data of an
 * earlier run weigh on this one.
 */

/**
 * Clear of `npm start` and the e2e tests (5678, their task runners on 5679, 5689 and 5690) and of the queue-mode
 * playground, tests and benchmark (5720 up to about 5930). The fault proxy and the business-step counter serve the
 * end-to-end part (bench/e2e.ts).
 */
export const BENCH_PORTS = { n8n: 5960, runner: 5961, sandbox: 8650, faultProxy: 8651, counter: 8652 } as const;
export const WORK = join(__dirname, '.work');

/**
 * `BENCH_N8N_FLAGS`: Node flags for every n8n server the benchmark starts, for profiling (`--cpu-prof`, say).
 * `BENCH_LOOP_PROBE=1`: each n8n main process records its event loop's delay and its collections' pauses
 * (bench/loop-probe.cjs) into bench/.work/loop/.
 */
const LOOP_PROBE = process.env.BENCH_LOOP_PROBE === '1';
const N8N_FLAGS = [
	...(process.env.BENCH_N8N_FLAGS ?? '').split(/\s+/).filter((flag) => flag !== ''),
	...(LOOP_PROBE ? ['--require', join(__dirname, 'loop-probe.cjs')] : []),
];

/** Starts bench/loop-probe.cjs's figures again in an n8n main process: a measured run begins. */
export function startLoopWindow(pid: number): void {
	if (LOOP_PROBE) process.kill(pid, 'SIGUSR2');
}

/**
 * The benchmark's sandbox: orders stay where the apply puts them (manual), so no settle timers or callbacks add work
 * to the figures. The sandbox part measures the same sandbox alone.
 */
export const BENCH_SANDBOX = { manual: true, callbackSchedule: [] as number[] };

/** What bench/loop-probe.cjs recorded of an n8n main process so far, as one line; undefined without the probe. */
export function loopLine(pid: number): string | undefined {
	if (!LOOP_PROBE) return undefined;
	try {
		return readFileSync(join(WORK, 'loop', `loop-${pid}.json`), 'utf8').trim();
	} catch {
		return `no loop figures for process ${pid}`;
	}
}

/**
 * `BENCH_N8N_ENV`: n8n settings for every n8n server the benchmark starts, as `NAME=value` words, to measure an
 * operator's setting (`N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true`, say) against n8n's defaults.
 */
export const N8N_SETTINGS: Record<string, string> = Object.fromEntries(
	(process.env.BENCH_N8N_ENV ?? '')
		.split(/\s+/)
		.filter((word) => word.includes('='))
		.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
);

export interface BenchStack {
	sandbox: Sandbox;
	server: N8nServer;
	rest: N8nRest;
	options: N8nOptions;
	/** http://127.0.0.1:PORT of n8n: the load clients use the address n8n listens on, not a name. */
	n8nUrl: string;
	/** PEM of the key the sandbox signs answers and callbacks with. */
	platformPrivateKey: string;
	/** The private key of a sandbox merchant, as its credential holds it. */
	merchantPrivateKey(appId: number): string;
	/** Creates the workflow and, with `activate`, publishes it so that its production webhooks answer. */
	addWorkflow(workflow: WorkflowBody, activate: boolean): Promise<string>;
	/**
	 * Stops n8n and starts it again on the same user folder: a fresh process, with every workflow still active.
	 * `nodeFlags` go to that process only (its task runner keeps Node's defaults); `env`, n8n settings, to it and its
	 * task runner.
	 */
	restartN8n(nodeFlags?: string[], env?: Record<string, string>): Promise<void>;
	stop(): Promise<void>;
}

/** Creates a workflow through n8n's REST API and, with `activate`, publishes it so that its production webhooks answer. */
export async function createWorkflow(rest: N8nRest, workflow: WorkflowBody, activate: boolean): Promise<string> {
	const created = await rest.call('POST', '/workflows', workflow);
	if (created.status !== 200)
		throw new Error(
			`creating workflow "${workflow.name}" failed: HTTP ${created.status} ${created.body.slice(0, 500)}`,
		);
	const { id, versionId } = (created.json as { data: { id: string; versionId: string } }).data;
	if (activate) {
		const activated = await rest.call('POST', `/workflows/${id}/activate`, { versionId });
		if (activated.status !== 200) {
			throw new Error(
				`activating workflow "${workflow.name}" failed: HTTP ${activated.status} ${activated.body.slice(0, 500)}`,
			);
		}
	}
	return id;
}

/** The sandbox's callback time-out and concurrency: only the end-to-end part sends callbacks from the sandbox. */
export interface CallbackDelivery {
	callbackTimeoutMs: number;
	callbackConcurrency: number;
}

/** The ports the benchmark's n8n, its task runners and its sandbox take: taken ones stop the run before it starts. */
async function assertPortsFree(): Promise<void> {
	await assertPortFree(BENCH_PORTS.n8n, 'the benchmark n8n');
	await assertPortFree(BENCH_PORTS.sandbox, 'the benchmark sandbox');
	// The server's runner and the runner of the one CLI command run before it.
	for (const port of [BENCH_PORTS.runner, BENCH_PORTS.runner + 10])
		await assertPortFree(port, "the benchmark n8n's task runner");
}

/** An empty n8n user folder and a files folder under bench/.work/. */
function freshFolders(): { home: string; filesDir: string; stateDir: string } {
	const home = join(WORK, 'n8n');
	rmSync(home, { recursive: true, force: true });
	mkdirSync(home, { recursive: true });
	const filesDir = join(WORK, 'files');
	mkdirSync(filesDir, { recursive: true });
	return { home, filesDir, stateDir: join(WORK, 'sandbox') };
}

function n8nOptions(home: string, filesDir: string, extraEnv: Record<string, string>): N8nOptions {
	return {
		home,
		filesDir,
		port: BENCH_PORTS.n8n,
		runnerPort: BENCH_PORTS.runner,
		logLevel: 'warn',
		nodeFlags: N8N_FLAGS,
		extraEnv: {
			// The baseline's Code node signs with Node's crypto, as a merchant's own would.
			NODE_FUNCTION_ALLOW_BUILTIN: 'crypto',
			...N8N_SETTINGS,
			...extraEnv,
		},
	};
}

/** The package installed into the user folder, the sandbox's credentials imported, then the server. */
async function startN8n(options: N8nOptions, credentialsFile: string, log: (line: string) => void): Promise<N8nServer> {
	installPackage(options.home);
	log('importing the sandbox credentials (n8n import:credentials)');
	await n8nCli(
		['import:credentials', `--input=${credentialsFile}`],
		n8nEnv({ ...options, runnerPort: options.runnerPort + 10 }),
		options.filesDir,
	);
	log(`starting n8n on port ${BENCH_PORTS.n8n}`);
	return await startN8nServer(options, join(WORK, 'n8n.log'));
}

/** The running parts, kept as they come up so that a failed start, and stop(), stop those running. */
interface Parts {
	sandbox?: Sandbox;
	server?: N8nServer;
}

export async function startBenchStack(
	log: (line: string) => void,
	extraEnv: Record<string, string> = {},
	delivery?: CallbackDelivery,
): Promise<BenchStack> {
	await assertPortsFree();
	await ensureN8n(log);
	log('building the package');
	await buildPackage();
	const { home, filesDir, stateDir } = freshFolders();
	const parts: Parts = {};
	const stop = async () => {
		await parts.server?.stop();
		await parts.sandbox?.close();
	};
	try {
		const gateway = await startSandboxGateway({
			port: BENCH_PORTS.sandbox,
			stateDir,
			persist: false,
			...BENCH_SANDBOX,
			latencyMs: 0,
			...delivery,
		});
		const sandbox = (parts.sandbox = gateway.sandbox);
		const options = n8nOptions(home, filesDir, extraEnv);
		const server = (parts.server = await startN8n(options, gateway.credentialsFile, log));
		const rest = new N8nRest(server.url);
		await rest.ensureOwner();
		const keys = join(stateDir, 'keys');
		const stack: BenchStack = {
			sandbox,
			server,
			rest,
			options,
			n8nUrl: `http://127.0.0.1:${BENCH_PORTS.n8n}`,
			platformPrivateKey: readFileSync(join(keys, 'platform.pkcs8.pem'), 'utf8'),
			// The sandbox's CLI gives every App ID the same merchant key.
			merchantPrivateKey: () => readFileSync(join(keys, 'merchant.pkcs8.pem'), 'utf8'),
			addWorkflow: (workflow, activate) => createWorkflow(stack.rest, workflow, activate),
			restartN8n: async (nodeFlags, env) => {
				await parts.server?.stop();
				parts.server = undefined;
				const restarted = {
					...options,
					nodeFlags: [
						...N8N_FLAGS,
						...(nodeFlags ?? []),
						...(process.env.BENCH_N8N_PROF_DIR
							? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_N8N_PROF_DIR}`]
							: []),
					],
					extraEnv: { ...options.extraEnv, ...env },
				};
				parts.server = await startN8nServer(restarted, join(WORK, 'n8n.log'));
				stack.server = parts.server;
				stack.rest = new N8nRest(parts.server.url);
				await stack.rest.login();
			},
			stop,
		};
		return stack;
	} catch (error) {
		await stop();
		throw error;
	}
}
