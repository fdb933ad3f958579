import { execFileSync } from 'child_process';
import { readdirSync, readFileSync } from 'fs';

/**
 * CPU time and memory of a process tree, read from /proc: n8n's main process and its task runner (a child it
 * starts and may restart). Linux only, which is where the benchmark runs.
 */

const CLOCK_TICKS = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
	} catch {
		return 100;
	}
})();

interface Stat {
	ppid: number;
	/** utime + stime, in ms. */
	cpuMs: number;
}

/** The fields after the command name, which is in parentheses and may itself hold spaces or parentheses. */
function readStat(pid: number): Stat | undefined {
	let text: string;
	try {
		text = readFileSync(`/proc/${pid}/stat`, 'utf8');
	} catch {
		return undefined;
	}
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
	// fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
	return { ppid: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS };
}

export function rssKb(pid: number): number {
	try {
		const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) : 0;
	} catch {
		return 0;
	}
}

export function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
	} catch {
		return '';
	}
}

/** The root and every process below it, with their CPU so far. */
export function tree(root: number): Map<number, Stat> {
	const all = new Map<number, Stat>();
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		const stat = readStat(Number(name));
		if (stat) all.set(Number(name), stat);
	}
	const children = new Map<number, number[]>();
	for (const [pid, stat] of all) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
	const out = new Map<number, Stat>();
	const stack = [root];
	while (stack.length > 0) {
		const pid = stack.pop() as number;
		const stat = all.get(pid);
		if (!stat) continue;
		out.set(pid, stat);
		stack.push(...(children.get(pid) ?? []));
	}
	return out;
}

export type Role = 'main' | 'runner' | 'other';

export interface TreeFigures {
	/** CPU of the whole tree over the window, ms. */
	cpuMs: number;
	cpuMsByRole: Record<Role, number>;
	/** Highest VmRSS seen per role, MB (the sum over processes of a role at one sample). */
	peakRssMb: Record<Role, number>;
	/** VmRSS per role at the start of the window, MB. */
	startRssMb: Record<Role, number>;
	samples: number;
}

const zero = (): Record<Role, number> => ({ main: 0, runner: 0, other: 0 });

/**
 * Samples a tree every `intervalMs` between start() and stop(). CPU is the growth of utime+stime per process,
 * from its value at start (or from 0 for a process born during the window) to its last reading; a process that
 * ends between two samples loses at most one interval of CPU, which is why the bench keeps its runner alive.
 */
export class TreeSampler {
	private readonly first = new Map<number, number>();
	private readonly last = new Map<number, number>();
	private readonly roles = new Map<number, Role>();
	private readonly peak = zero();
	private start = zero();
	private timer?: NodeJS.Timeout;
	private samples = 0;

	constructor(
		private readonly root: number,
		private readonly intervalMs = 100,
	) {}

	private role(pid: number): Role {
		let role = this.roles.get(pid);
		if (role === undefined) {
			role = pid === this.root ? 'main' : /task-runner/.test(commandLine(pid)) ? 'runner' : 'other';
			this.roles.set(pid, role);
		}
		return role;
	}

	private sample(initial: boolean): Record<Role, number> {
		const rss = zero();
		for (const [pid, stat] of tree(this.root)) {
			if (!this.first.has(pid)) this.first.set(pid, initial ? stat.cpuMs : 0);
			this.last.set(pid, stat.cpuMs);
			rss[this.role(pid)] += rssKb(pid) / 1024;
		}
		for (const role of Object.keys(rss) as Role[]) this.peak[role] = Math.max(this.peak[role], rss[role]);
		this.samples += 1;
		return rss;
	}

	begin(): this {
		this.start = this.sample(true);
		this.timer = setInterval(() => this.sample(false), this.intervalMs);
		return this;
	}

	end(): TreeFigures {
		if (this.timer) clearInterval(this.timer);
		this.sample(false);
		const byRole = zero();
		for (const [pid, last] of this.last) byRole[this.role(pid)] += last - (this.first.get(pid) ?? 0);
		return {
			cpuMs: byRole.main + byRole.runner + byRole.other,
			cpuMsByRole: byRole,
			peakRssMb: { ...this.peak },
			startRssMb: this.start,
			samples: this.samples,
		};
	}
}

/** CPU ms of the tree now; for waiting until it is idle. */
export function treeCpuMs(root: number): number {
	let total = 0;
	for (const stat of tree(root).values()) total += stat.cpuMs;
	return total;
}

/** Resolves once the tree used less than `maxCpuMs` over a window of `windowMs`, or after `timeoutMs`. */
export async function settle(
	root: number,
	{ windowMs = 500, maxCpuMs = 25, timeoutMs = 30_000 } = {},
): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	let before = treeCpuMs(root);
	while (Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, windowMs));
		const now = treeCpuMs(root);
		if (now - before < maxCpuMs) return true;
		before = now;
	}
	return false;
}
