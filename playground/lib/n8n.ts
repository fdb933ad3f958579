import {
	closeSync,
	cpSync,
	existsSync,
	mkdirSync,
	openSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'fs';
import { request } from 'http';
import { join } from 'path';

import { groupAlive, killGroup, spawnGuarded, STOP_GRACE_MS } from './group';
import { INSTALL_DIR, N8N_BIN, NODE24, NODE24_BIN_DIR, ROOT } from './paths';

export { killGroup } from './group';

/** Test-only owner of every playground and test n8n. It guards nothing but a local n8n on 127.0.0.1. */
export const OWNER = {
	email: 'owner@haipay-playground.test',
	password: 'Playground-Owner-1',
	firstName: 'Playground',
	lastName: 'Owner',
} as const;

/** Test-only member of the playground and test n8n: the approver of example 6, who did not upload the sheet. */
export const CONTROLLER = {
	email: 'controller@haipay-playground.test',
	password: 'Playground-Controller-1',
	firstName: 'Pat',
	lastName: 'Controller',
} as const;

/** Test-only member: the second approver example 6 asks for a sheet above one approver's limits. */
export const TREASURER = {
	email: 'treasurer@haipay-playground.test',
	password: 'Playground-Treasurer-1',
	firstName: 'Tia',
	lastName: 'Treasurer',
} as const;

export interface N8nOptions {
	/** N8N_USER_FOLDER: n8n keeps its database, encryption key and community packages under `<home>/.n8n`. */
	home: string;
	/** The only folder the file nodes may read and write; n8n runs in it, so the examples' relative paths land here. */
	filesDir: string;
	port: number;
	/** The task runner broker; each n8n process that runs Code nodes needs its own. */
	runnerPort: number;
	logLevel?: 'error' | 'warn' | 'info' | 'debug';
	extraEnv?: Record<string, string>;
	/** Flags for the Node process that runs the server, for those NODE_OPTIONS may not carry (--cpu-prof, --trace-gc). */
	nodeFlags?: string[];
}

export function n8nEnv(options: N8nOptions): NodeJS.ProcessEnv {
	const base: NodeJS.ProcessEnv = {};
	// n8n reads hundreds of variables: start from a clean slate plus what a process needs to run.
	for (const name of ['HOME', 'LANG', 'TZ', 'TMPDIR', 'USER']) if (process.env[name]) base[name] = process.env[name];
	return {
		...base,
		// The task runner is started as `node`: it must be the Node 24 binary.
		PATH: `${NODE24_BIN_DIR}:${process.env.PATH ?? '/usr/bin:/bin'}`,
		N8N_USER_FOLDER: options.home,
		N8N_PORT: String(options.port),
		N8N_HOST: 'localhost',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://localhost:${options.port}/`,
		N8N_WEBHOOK_URL: `http://localhost:${options.port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(options.runnerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RESTRICT_FILE_ACCESS_TO: options.filesDir,
		// No network beyond this machine: nothing may call home, fetch templates, banners or versions.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_PYTHON_ENABLED: 'false',
		N8N_RUNNERS_TASK_TIMEOUT: '300',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_LEVEL: options.logLevel ?? 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_SQLITE_POOL_SIZE: '2',
		GENERIC_TIMEZONE: 'UTC',
		NODE_CONFIG_DIR: join(INSTALL_DIR, 'node_modules', 'n8n', 'config'),
		...options.extraEnv,
	};
}

/**
 * Puts this package's build into n8n's community-package folder, as `npm install n8n-nodes-haipay` would: the
 * nodes keep their published type names (`n8n-nodes-haipay.haiPay`), so the examples run unchanged in any n8n
 * that has the package installed. n8n-workflow resolves to n8n's own copy, as a peer dependency should.
 */
export function installPackage(home: string): string {
	const nodeModules = join(home, '.n8n', 'nodes', 'node_modules');
	const target = join(nodeModules, 'n8n-nodes-haipay');
	if (!existsSync(join(ROOT, 'dist', 'nodes', 'HaiPay', 'HaiPay.node.js')))
		throw new Error('dist/ is missing: run npm run build');
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	cpSync(join(ROOT, 'package.json'), join(target, 'package.json'));
	cpSync(join(ROOT, 'dist'), join(target, 'dist'), { recursive: true });
	const peer = join(nodeModules, 'n8n-workflow');
	rmSync(peer, { recursive: true, force: true });
	symlinkSync(join(INSTALL_DIR, 'node_modules', 'n8n-workflow'), peer, 'dir');
	const manifest = join(home, '.n8n', 'nodes', 'package.json');
	if (!existsSync(manifest))
		writeFileSync(
			manifest,
			`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`,
		);
	return target;
}

export interface CliResult {
	code: number;
	stdout: string;
	stderr: string;
}

/**
 * Runs one n8n CLI command to its end, within a bound; its whole process group goes when it ends or times out, or
 * when this process ends first.
 */
export function runN8nCli(
	args: string[],
	env: NodeJS.ProcessEnv,
	cwd: string,
	timeoutMs = 180_000,
): Promise<CliResult> {
	return new Promise((resolve, reject) => {
		const child = spawnGuarded(NODE24, [N8N_BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		if (!child.stdout || !child.stderr) throw new Error('n8n CLI spawned without output pipes');
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => {
			killGroup(child, 'SIGKILL');
			reject(
				new Error(
					`n8n ${args.join(' ')} did not finish within ${timeoutMs / 1000} s\n${stderr.slice(-2000)}${stdout.slice(-2000)}`,
				),
			);
		}, timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			killGroup(child, 'SIGKILL');
			resolve({ code: code ?? 1, stdout, stderr });
		});
	});
}

export async function n8nCli(
	args: string[],
	env: NodeJS.ProcessEnv,
	cwd: string,
	timeoutMs?: number,
): Promise<CliResult> {
	const result = await runN8nCli(args, env, cwd, timeoutMs);
	if (result.code !== 0) {
		throw new Error(
			`n8n ${args.join(' ')} failed (exit ${result.code}):\n${(result.stderr + result.stdout).slice(-3000)}`,
		);
	}
	return result;
}

/**
 * `n8n execute --rawOutput` prints the run as indented JSON among n8n's own log lines: the run starts with a line
 * `{` and ends with the next line `}` (indentation keeps every inner brace off column 0).
 */
export function parseRawOutput(stdout: string): ExecutionRun {
	const lines = stdout.split('\n');
	const start = lines.indexOf('{');
	const end = lines.indexOf('}', start);
	if (start < 0 || end < 0) throw new Error(`n8n execute printed no run:\n${stdout.slice(-2000)}`);
	return JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutionRun;
}

export interface NodeRun {
	data?: {
		main?: Array<Array<{
			json: Record<string, unknown>;
			binary?: Record<string, { fileName?: string; mimeType?: string }>;
		}> | null>;
	};
	error?: { message?: string };
	executionStatus?: string;
}

export interface ExecutionRun {
	status?: string;
	data: { resultData: { runData: Record<string, NodeRun[]>; error?: { message?: string }; lastNodeExecuted?: string } };
}

/** The items a node put out on one output, over all its runs. */
export function nodeOutput(run: ExecutionRun, node: string, output = 0): Array<Record<string, unknown>> {
	const runs = run.data.resultData.runData[node] ?? [];
	return runs.flatMap((r) => r.data?.main?.[output] ?? []).map((item) => item.json);
}

export interface N8nServer {
	url: string;
	logFile: string;
	/** n8n's process, the leader of its process group (its task runner is in the group). */
	pid: number;
	/** How it ended, once it has: `exit <code>` or the signal. */
	exited(): string | undefined;
	stop(): Promise<void>;
}

export function httpGet(url: string, timeoutMs = 5_000): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = request(url, { method: 'GET', timeout: timeoutMs }, (res) => {
			let body = '';
			res.on('data', (chunk: Buffer) => (body += chunk.toString()));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
		});
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', reject);
		req.end();
	});
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spawns `n8n start` (or `command`) in its own process group, guarded so that the group ends when this process does
 * (lib/guard.js), with its output appended to `logFile` by n8n itself, so that its last lines reach the log even if
 * this process is gone. `stop()` ends the whole group: SIGTERM, then SIGKILL after STOP_GRACE_MS.
 */
export function spawnN8nServer(options: N8nOptions, logFile: string, command: string[] = ['start']): N8nServer {
	const log = openSync(logFile, 'a');
	const args = [...(options.nodeFlags ?? []), N8N_BIN, ...command];
	let child;
	try {
		child = spawnGuarded(NODE24, args, { cwd: options.filesDir, env: n8nEnv(options), stdio: ['ignore', log, log] });
	} finally {
		closeSync(log);
	}
	let exited: string | undefined;
	child.on('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
	child.on('error', (error) => (exited = error.message));
	const pid = child.pid ?? -1;
	const stop = async () => {
		if (pid < 0 || !groupAlive(pid)) return;
		killGroup(child, 'SIGTERM');
		for (let waited = 0; waited < STOP_GRACE_MS && groupAlive(pid); waited += 200) await sleep(200);
		if (groupAlive(pid)) killGroup(child, 'SIGKILL');
		for (let waited = 0; waited < 5_000 && groupAlive(pid); waited += 100) await sleep(100);
	};
	return { url: `http://localhost:${options.port}`, logFile, pid, exited: () => exited, stop };
}

/**
 * Resolves once the editor and the webhooks answer; a server that stops or stays unready within the bound is stopped
 * and reported with the end of its log. `command` is the one the server was spawned with: another n8n command serves
 * /healthz/readiness on its port (in queue mode: `['worker', ...]` with QUEUE_HEALTH_CHECK_PORT, or `['webhook']`).
 */
export async function whenReady(
	server: N8nServer,
	readyTimeoutMs = 180_000,
	command: string[] = ['start'],
): Promise<void> {
	const deadline = Date.now() + readyTimeoutMs;
	for (;;) {
		const exited = server.exited();
		if (exited !== undefined) {
			await server.stop();
			throw new Error(`n8n stopped while starting (${exited}); see ${server.logFile}:\n${tailOf(server.logFile)}`);
		}
		try {
			const ready = await httpGet(`${server.url}/healthz/readiness`, 2_000);
			// n8n 1.x reports ready before its REST routes exist; the public settings route comes with them.
			if (
				ready.status === 200 &&
				(command[0] !== 'start' || (await httpGet(`${server.url}/rest/settings`, 2_000)).status === 200)
			)
				return;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			await server.stop();
			throw new Error(
				`n8n did not become ready within ${readyTimeoutMs / 1000} s; see ${server.logFile}:\n${tailOf(server.logFile)}`,
			);
		}
		await sleep(500);
	}
}

/** `spawnN8nServer`, then `whenReady`. */
export async function startN8nServer(
	options: N8nOptions,
	logFile: string,
	readyTimeoutMs = 180_000,
	command: string[] = ['start'],
): Promise<N8nServer> {
	const server = spawnN8nServer(options, logFile, command);
	await whenReady(server, readyTimeoutMs, command);
	return server;
}

export function tailOf(file: string, chars = 3000): string {
	try {
		return readFileSync(file, 'utf8').slice(-chars);
	} catch {
		return '';
	}
}
