import { spawn, type ChildProcess, type SpawnOptions } from 'child_process';
import type { Socket } from 'net';
import { join } from 'path';

/**
 * How long a stopped n8n gets between SIGTERM (its graceful shutdown) and SIGKILL: within n8n's own limit
 * (N8N_GRACEFUL_SHUTDOWN_TIMEOUT, 30 s by default), after which n8n would end itself anyway.
 */
export const STOP_GRACE_MS = 15_000;

const GUARD = join(__dirname, 'guard.js');

/** Whether any process is left in the group `pgid`. */
export function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		return false;
	}
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// already gone
	}
}

/**
 * Spawns `command` as the leader of a process group of its own (a new session: the terminal's Ctrl-C reaches it only
 * through this process), with a guard that ends the group when this process ends, however it ends: a SIGKILL, a
 * crash on a closed pipe, or an exit before it stopped what it started. See guard.js.
 */
export function spawnGuarded(
	command: string,
	args: string[],
	options: SpawnOptions,
	graceMs = STOP_GRACE_MS,
): ChildProcess {
	const child = spawn(command, args, { ...options, detached: true });
	if (child.pid !== undefined) guardGroup(child.pid, graceMs);
	return child;
}

function guardGroup(pgid: number, graceMs: number): void {
	// Its stdin is a pipe this process never writes to and never closes: it ends when this process does.
	const guard = spawn(process.execPath, [GUARD, String(pgid), String(graceMs)], {
		detached: true,
		stdio: ['pipe', 'ignore', 'ignore'],
		env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
	});
	guard.on('error', () => undefined);
	guard.on('exit', () => guard.stdin?.destroy());
	// Neither the guard nor its pipe keeps this process running.
	guard.unref();
	(guard.stdin as unknown as Socket | null)?.unref();
}
