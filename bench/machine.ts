import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { cpus, loadavg, release, totalmem } from 'os';
import { join } from 'path';

import { INSTALL_DIR, NODE24 } from '../playground/lib/paths';

/** The machine the figures were measured on, and its line under every section. */

export interface Machine {
	cores: number;
	cpu: string;
	memoryGb: number;
	kernel: string;
	benchNode: string;
	/** n8n's Node, n8n's version and V8's heap limit there: absent where no n8n runs (the signing benchmark alone). */
	n8nNode?: string;
	n8n?: string;
	openssl: string;
	/** V8's heap limit for n8n's Node on this machine when nothing sets one (it follows the memory). */
	n8nHeapLimitMb?: number;
	/** 1, 5 and 15 minute load averages before the run: other work on the machine skews every figure. */
	loadBefore: number[];
	/** The same once the run has measured, set when its sections are written: a load that rose during it shows. */
	loadAfter?: number[];
}

/**
 * One fact, or an error that names it: a fact that cannot be read stops the benchmark before it measures, rather
 * than printing "n8n unknown on Node unknown" under figures that took minutes (the n8n install used to be read
 * before the benchmark had made it).
 */
function fact<T>(what: string, read: () => T, valid: (value: T) => boolean): T {
	let value: T;
	try {
		value = read();
	} catch (error) {
		throw new Error(`bench: cannot read ${what}: ${((error as Error).message ?? String(error)).split('\n')[0]}`);
	}
	if (!valid(value)) throw new Error(`bench: ${what} reads as "${String(value)}"`);
	return value;
}

const text = (value: string) => value.trim() !== '';

/** The machine's facts; with `n8n` (the default), n8n's too, from the install at INSTALL_DIR, which must exist. */
export function machine(options: { n8n: boolean } = { n8n: true }): Machine {
	const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8' }).trim();
	const n8n = options.n8n
		? {
				n8nNode: fact("n8n's Node version", () => run(NODE24, ['--version']), text),
				n8n: fact(
					"n8n's version",
					() =>
						(
							JSON.parse(readFileSync(join(INSTALL_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8')) as {
								version: string;
							}
						).version,
					text,
				),
				n8nHeapLimitMb: fact(
					"V8's heap limit for n8n",
					() => Number(run(NODE24, ['-p', "Math.round(require('v8').getHeapStatistics().heap_size_limit / 2 ** 20)"])),
					(mb) => Number.isFinite(mb) && mb > 0,
				),
			}
		: {};
	return {
		cores: cpus().length,
		cpu: fact('the CPU model', () => cpus()[0]?.model ?? '', text),
		memoryGb: Math.round(totalmem() / 2 ** 30),
		kernel: release(),
		benchNode: process.version,
		...n8n,
		openssl: fact("openssl's version", () => run('openssl', ['version']), text),
		loadBefore: loadNow(),
	};
}

export function loadNow(): number[] {
	return loadavg().map((value) => Math.round(value * 100) / 100);
}

/** The machine's load around a run, the sentence that ends every section's machine line. */
export function loadSentence(m: Machine): string {
	const after = m.loadAfter === undefined ? '' : `; after it: ${m.loadAfter.join(', ')}`;
	return `Load average before the run: ${m.loadBefore.join(', ')}${after}.`;
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');

/** n8n's facts, for a section measured on n8n: all of them, or an error. */
export function n8nFacts(m: Machine): { n8n: string; n8nNode: string; n8nHeapLimitMb: number } {
	const { n8n, n8nNode, n8nHeapLimitMb } = m;
	if (n8n === undefined || n8nNode === undefined || n8nHeapLimitMb === undefined) {
		throw new Error(
			"bench: a section measured on n8n needs n8n's version, Node and heap limit: read them with machine()",
		);
	}
	return { n8n, n8nNode, n8nHeapLimitMb };
}

/** The line under a section measured on n8n. */
export function machineLine(m: Machine): string {
	const { n8n, n8nNode, n8nHeapLimitMb } = n8nFacts(m);
	return `Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, Linux ${m.kernel}; the benchmark and the sandbox on Node ${m.benchNode}, n8n ${n8n} on Node ${n8nNode}; ${m.openssl}; V8's default heap limit for n8n: ${f0(n8nHeapLimitMb)} MB. ${loadSentence(m)}`;
}
