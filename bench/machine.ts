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
	n8nNode: string;
	n8n: string;
	openssl: string;
	/** V8's heap limit for n8n's Node on this machine when nothing sets one (it follows the memory). */
	n8nHeapLimitMb: number;
	/** 1, 5 and 15 minute load averages before the run: other work on the machine skews every figure. */
	loadBefore: number[];
}

export function machine(): Machine {
	const safe = (run: () => string) => {
		try {
			return run();
		} catch {
			return 'unknown';
		}
	};
	return {
		cores: cpus().length,
		cpu: cpus()[0]?.model ?? 'unknown',
		memoryGb: Math.round(totalmem() / 2 ** 30),
		kernel: release(),
		benchNode: process.version,
		n8nNode: safe(() => execFileSync(NODE24, ['--version'], { encoding: 'utf8' }).trim()),
		n8n: safe(() => (JSON.parse(readFileSync(join(INSTALL_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8')) as { version: string }).version),
		openssl: safe(() => execFileSync('openssl', ['version'], { encoding: 'utf8' }).trim()),
		n8nHeapLimitMb: Number(safe(() => execFileSync(NODE24, ['-p', "Math.round(require('v8').getHeapStatistics().heap_size_limit / 2 ** 20)"], { encoding: 'utf8' }).trim())),
		loadBefore: loadavg().map((value) => Math.round(value * 100) / 100),
	};
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');

export function machineLine(m: Machine): string {
	return `Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, Linux ${m.kernel}; the benchmark and the sandbox on Node ${m.benchNode}, n8n ${m.n8n} on Node ${m.n8nNode}; ${m.openssl}; V8's default heap limit for n8n: ${f0(m.n8nHeapLimitMb)} MB. Load average before the run: ${m.loadBefore.join(', ')}.`;
}
