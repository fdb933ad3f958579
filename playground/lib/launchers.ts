import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';

/**
 * The processes that run a playground script on behalf of the command typed: for `npm start`, tsx, the shell npm runs
 * the script's line in, and npm. Killing npm does not reach the script: npm passes SIGTERM to that shell, which dies
 * without passing it on (dash, Debian's sh), and tsx then runs on with nobody above it. So the script watches them.
 */

const PROC = existsSync('/proc/self/stat');
/** npm names its process after the command: `npm start`, `npm run demo`, `npm exec tsx …` (npx). */
const NPM = /^npm( |$)/;

interface ProcessInfo {
	ppid: number;
	state: string;
	args: string;
}

/** A process's parent, state and command line: from /proc on Linux, from ps elsewhere; undefined once it is gone. */
function processInfo(pid: number): ProcessInfo | undefined {
	try {
		if (PROC) {
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			// pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after its last ')'.
			const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
			return { ppid: Number(ppid), state, args };
		}
		const line = execFileSync('ps', ['-o', 'ppid=,stat=,args=', '-p', String(pid)], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		const [ppid, state, ...args] = line.trim().split(/\s+/);
		return ppid === undefined ? undefined : { ppid: Number(ppid), state, args: args.join(' ') };
	} catch {
		return undefined;
	}
}

/** This process's ancestors up to the nearest npm, when npm started it (within a few levels); else its parent alone. */
export function launchers(): number[] {
	const chain: number[] = [];
	for (let pid = process.ppid; pid > 1 && chain.length < 6;) {
		const info = processInfo(pid);
		if (info === undefined) break;
		chain.push(pid);
		if (NPM.test(info.args)) return chain;
		pid = info.ppid;
	}
	return [process.ppid];
}

/** Whether a process has exited: gone, or (on Linux) a zombie its parent has not collected yet. */
export function exited(pid: number): boolean {
	if (PROC) {
		const info = processInfo(pid);
		return info === undefined || info.state === 'Z';
	}
	try {
		process.kill(pid, 0);
		return false;
	} catch {
		return true;
	}
}
