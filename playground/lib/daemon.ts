import { spawn, type ChildProcess } from 'child_process';
import { createWriteStream } from 'fs';
import { connect } from 'net';

import { killGroup, tailOf } from './n8n';

/**
 * A server this process runs itself (PostgreSQL, Redis): in a process group of its own, its output in a log file,
 * ready once its port answers, stopped with its own shutdown signal and then, if it lingers, SIGKILL.
 */

export interface Service {
	name: string;
	pid: number;
	port: number;
	logFile: string;
	stop(): Promise<void>;
}

/** A server started by `daemon`: its service, and why it exited if it has. */
export interface Daemon {
	child: ChildProcess;
	service: Service;
	exited: () => string | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function portOpen(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Spawns a server in its own process group with its output in a log file, and stops the whole group later. */
export function daemon(
	name: string,
	port: number,
	command: string,
	args: string[],
	logFile: string,
	stopSignal: NodeJS.Signals,
): Daemon {
	const log = createWriteStream(logFile, { flags: 'a' });
	const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	child.stdout?.pipe(log);
	child.stderr?.pipe(log);
	let exited: string | undefined;
	child.on('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
	child.on('error', (error) => (exited = error.message));
	const pid = child.pid ?? -1;
	const service: Service = {
		name,
		pid,
		port,
		logFile,
		stop: async () => {
			if (exited !== undefined || !alive(pid)) return;
			killGroup(child, stopSignal);
			for (let waited = 0; waited < 20_000 && exited === undefined; waited += 100) await sleep(100);
			if (exited === undefined) killGroup(child, 'SIGKILL');
			for (let waited = 0; waited < 5_000 && exited === undefined; waited += 100) await sleep(100);
		},
	};
	return { child, service, exited: () => exited };
}

/** Resolves once the server listens; fails when it exits first, or (stopping it) when it does not listen in time. */
export async function waitForPort(what: Daemon, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await portOpen(what.service.port))) {
		const exited = what.exited();
		if (exited !== undefined)
			throw new Error(
				`${what.service.name} stopped while starting (${exited}); see ${what.service.logFile}:\n${tailOf(what.service.logFile)}`,
			);
		if (Date.now() > deadline) {
			await what.service.stop();
			throw new Error(
				`${what.service.name} did not listen on ${what.service.port} within ${timeoutMs / 1000} s; see ${what.service.logFile}`,
			);
		}
		await sleep(200);
	}
}
