import { spawn, type ChildProcess } from 'child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import { httpGet } from '../../playground/lib/n8n';
import { ROOT } from '../../playground/lib/paths';

/**
 * `npm start` never leaves n8n or the sandbox behind, whatever ends it. Each case runs the real start script as a
 * person does, `npm start 2>&1 | tee start.log` in a process group of its own as a terminal runs a command, waits
 * until n8n answers, ends it one way, and then waits until every process of that run (npm, tsx, the script with the
 * sandbox in it, n8n, its task runner, the guard) is gone and the ports of n8n, the sandbox and the task runner are
 * free. The bound is generous (n8n's own 30 s shutdown limit and more): what is asserted is that they go, not how fast.
 * One data folder and one set of free ports serve every case, so that only the first start sets n8n up.
 */

const READY_LINE = 'Ctrl-C stops n8n and the sandbox.';
const READY_TIMEOUT_MS = 240_000;
/** Longer than the script's stop (15 s of grace, then SIGKILL) plus the guard's, after a SIGKILL mid-stop. */
const GONE_TIMEOUT_MS = 90_000;
const CASE_TIMEOUT_MS = READY_TIMEOUT_MS + GONE_TIMEOUT_MS + 30_000;

interface Proc {
	pid: number;
	ppid: number;
	state: string;
	/** Start time in clock ticks since boot: tells a process from a later one that got its pid. */
	start: string;
	cmd: string;
}

function readProc(pid: number): Proc | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses, so read after its last ')'.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const cmd = readFileSync(`/proc/${pid}/cmdline`).toString().split('\0').join(' ').trim();
		return { pid, ppid: Number(fields[1]), state: fields[0], start: fields[19], cmd };
	} catch {
		return undefined; // gone
	}
}

/** `root` and every process below it. */
function treeOf(root: number): Proc[] {
	const all = readdirSync('/proc')
		.filter((name) => /^\d+$/.test(name))
		.map((name) => readProc(Number(name)))
		.filter((p): p is Proc => p !== undefined);
	const tree = all.filter((p) => p.pid === root);
	for (let i = 0; i < tree.length; i++) tree.push(...all.filter((p) => p.ppid === tree[i].pid));
	return tree;
}

/** Still the same process, and not a zombie waiting to be reaped. */
function running(p: Proc): boolean {
	const now = readProc(p.pid);
	return now !== undefined && now.start === p.start && now.state !== 'Z';
}

function portFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePorts(count: number): Promise<number[]> {
	const ports: number[] = [];
	while (ports.length < count) {
		const port = await new Promise<number>((resolve) => {
			const server = createServer().listen(0, '127.0.0.1', () => {
				const { port: picked } = server.address() as { port: number };
				server.close(() => resolve(picked));
			});
		});
		// The task runner's port + 10 is where the CLI commands that set n8n up run theirs.
		if (!ports.includes(port) && (await portFree(port + 10))) ports.push(port);
	}
	return ports;
}

interface Session {
	shell: ChildProcess;
	output: () => string;
	/** Every process of the run once n8n answered, the shell at its root. */
	procs: Proc[];
	script: Proc;
	npm: Proc;
	tee: Proc;
	n8n: Proc;
}

let work: string;
let ports: { n8n: number; sandbox: number; runner: number };
let session: Session | undefined;

function find(procs: Proc[], what: string, match: (p: Proc) => boolean): Proc {
	const found = procs.find(match);
	if (!found)
		throw new Error(
			`no ${what} among the processes of npm start:\n${procs.map((p) => `${p.pid} ${p.cmd}`).join('\n')}`,
		);
	return found;
}

async function startSession(): Promise<Session> {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		HAIPAY_PLAYGROUND_DIR: work,
		HAIPAY_N8N_PORT: String(ports.n8n),
		HAIPAY_SANDBOX_PORT: String(ports.sandbox),
		HAIPAY_RUNNER_PORT: String(ports.runner),
	};
	delete env.NODE_ENV; // jest's; a person's shell has none
	const log = join(work, 'start.log');
	const shell = spawn('bash', ['-c', `npm start 2>&1 | tee '${log}'`], {
		cwd: ROOT,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	shell.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	shell.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	let exited: string | undefined;
	shell.on('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
	const deadline = Date.now() + READY_TIMEOUT_MS;
	while (!output.includes(READY_LINE)) {
		if (exited !== undefined || Date.now() > deadline)
			throw new Error(`npm start did not get ready (${exited ?? 'timed out'}):\n${output.slice(-4000)}`);
		await sleep(250);
	}
	expect((await httpGet(`http://localhost:${ports.n8n}/healthz`)).status).toBe(200);
	const procs = treeOf(shell.pid as number);
	const starts = procs.filter((p) => p.cmd.includes('playground/start.ts'));
	return {
		shell,
		output: () => output,
		procs,
		// sh -c tsx …, tsx, and the Node process that runs the script: the last one has no such child.
		script: find(starts, 'start script', (p) => !starts.some((child) => child.ppid === p.pid)),
		npm: find(procs, 'npm', (p) => p.cmd === 'npm start'),
		tee: find(procs, 'tee', (p) => p.cmd.startsWith('tee ')),
		n8n: find(procs, 'n8n', (p) => p.cmd.includes('n8n/bin/n8n start')),
	};
}

/** Waits until every process of the run is gone and every port is free; fails naming what is left. */
async function expectAllGone(run: Session): Promise<void> {
	expect(run.procs.some((p) => p.cmd.includes('guard.js'))).toBe(true);
	const deadline = Date.now() + GONE_TIMEOUT_MS;
	for (;;) {
		const left = run.procs.filter(running);
		const busy: number[] = [];
		for (const port of Object.values(ports)) if (!(await portFree(port))) busy.push(port);
		if (left.length === 0 && busy.length === 0) return;
		if (Date.now() > deadline) {
			const what = [...left.map((p) => `process ${p.pid} ${p.cmd}`), ...busy.map((port) => `port ${port} in use`)];
			throw new Error(
				`still there ${GONE_TIMEOUT_MS / 1000} s after npm start was ended:\n${what.join('\n')}\n\nits output:\n${run.output().slice(-3000)}`,
			);
		}
		await sleep(250);
	}
}

async function untilGone(p: Proc): Promise<void> {
	while (running(p)) await sleep(50);
}

beforeAll(async () => {
	work = mkdtempSync(join(tmpdir(), 'haipay-shutdown-'));
	const [n8n, sandbox, runner] = await freePorts(3);
	ports = { n8n, sandbox, runner };
});

afterEach(() => {
	// A failed case must not leave its n8n to the next one.
	for (const p of session?.procs.filter(running) ?? []) process.kill(p.pid, 'SIGKILL');
	session = undefined;
});

afterAll(() => {
	if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm start leaves nothing running, whatever ends it', () => {
	test(
		'Ctrl-C, with the tee it is piped into gone first (its output a broken pipe)',
		async () => {
			session = await startSession();
			// Ctrl-C signals the whole foreground group at once; here tee goes first, the worst order for the script.
			process.kill(session.tee.pid, 'SIGINT');
			await untilGone(session.tee);
			process.kill(-session.procs[0].pid, 'SIGINT');
			await expectAllGone(session);
		},
		CASE_TIMEOUT_MS,
	);

	test(
		'SIGTERM to npm',
		async () => {
			session = await startSession();
			process.kill(session.npm.pid, 'SIGTERM');
			await expectAllGone(session);
			expect(session.output()).toContain('Stopped. Nothing left running.');
		},
		CASE_TIMEOUT_MS,
	);

	test(
		'Ctrl-C while n8n is slow to stop, then SIGKILL of the script 5 s later',
		async () => {
			session = await startSession();
			// n8n frozen stands for an n8n that takes its time to shut down (running executions may hold it up to 30 s):
			// the script is still stopping it when it is killed, and the guard has to finish the job, SIGKILL included.
			// (tsx may have killed the script already: it does when the script is slow to confirm the signal it relayed.)
			process.kill(session.n8n.pid, 'SIGSTOP');
			process.kill(-session.procs[0].pid, 'SIGINT');
			await sleep(5_000);
			if (running(session.script)) process.kill(session.script.pid, 'SIGKILL');
			await expectAllGone(session);
		},
		CASE_TIMEOUT_MS,
	);

	test(
		'SIGKILL of the script alone',
		async () => {
			session = await startSession();
			process.kill(session.script.pid, 'SIGKILL');
			await expectAllGone(session);
		},
		CASE_TIMEOUT_MS,
	);
});
