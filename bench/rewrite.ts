import { readFileSync } from 'fs';

import { BENCH_PORTS } from './stack';
import type { Part } from './parts';
import { resultsHead, writeResults } from './results-file';
import { sections, type Measured } from './run';
import type { Machine } from './report';

/**
 * `npx tsx bench/rewrite.ts bench/.work/results.json sheet`: rewrites the named sections of bench/results.md from a
 * run's saved figures with today's report code (its tables and targets), without measuring again. The figures, the
 * date and the command stay the run's own.
 */
function main(): void {
	const [file, ...parts] = process.argv.slice(2);
	if (file === undefined || parts.length === 0) throw new Error('usage: bench/rewrite.ts <results.json> <part>...');
	const saved = JSON.parse(readFileSync(file, 'utf8')) as Measured & {
		date: string;
		command: string;
		machine: Machine;
	};
	const written = sections(parts as Part[], saved, saved.machine, saved.date, saved.command);
	writeResults(written, resultsHead(BENCH_PORTS));
	process.stdout.write(`rewrote ${written.map((section) => section.id).join(', ')} from ${file}\n`);
}

main();
