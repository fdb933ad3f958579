import { performance } from 'perf_hooks';

import { MEMORY_CAPACITY, MEMORY_FIELD, openMemory } from '../nodes/HaiPayTrigger/memory';
import { commandLine, resultsHead, writeResults } from './results-file';
import { BENCH_PORTS } from './stack';

/*
 * What the trigger's repeat memory costs per callback when it is empty and when it is full (`npm run
 * bench:memory`): the check and the record of one emission, in this process, against a memory of 0 and of
 * MEMORY_CAPACITY results; and what n8n pays to load the saved text with the workflow on every request, at both sizes.
 */

const CALLBACKS = Number(process.env.BENCH_MEMORY_CALLBACKS ?? 5_000);
/** 1,000 distinct results a minute: a callback every 60 ms. */
const STEP_MS = 60;
const T0 = Date.now();

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** A memory of `size` results, its scope, and the static data n8n would hold for it. */
function filled(size: number, scope: string): Record<string, unknown> {
	const staticData: Record<string, unknown> = {};
	const memory = openMemory({ scope, staticData, nowMs: T0, windowSeconds: 86_400, warn: () => undefined });
	for (let index = 0; index < size; index++) memory.remember(`no:HPFILL${index}|2`);
	// One save of everything, as the next request of a burst would make.
	openMemory({ scope, staticData, nowMs: T0 + 60_000, windowSeconds: 86_400, warn: () => undefined }).remember('no:HPFILL-last|2');
	return staticData;
}

/** Microseconds per callback: open the memory, check the key, record it; one request per callback, every STEP_MS. */
function perCallback(scope: string, staticData: Record<string, unknown>): number {
	const runs: number[] = [];
	for (let run = 0; run < 5; run++) {
		const started = performance.now();
		for (let index = 0; index < CALLBACKS; index++) {
			const memory = openMemory({ scope, staticData, nowMs: T0 + 120_000 + (run * CALLBACKS + index) * STEP_MS, windowSeconds: 86_400, warn: () => undefined });
			const key = `no:HPRUN${run}-${index}|2`;
			if (!memory.recall(key)) memory.remember(key);
		}
		runs.push(((performance.now() - started) * 1000) / CALLBACKS);
	}
	return median(runs);
}

/** What n8n does with the static data on every request: read it from the database as JSON text and parse it. */
function loadCost(staticData: Record<string, unknown>): { bytes: number; microseconds: number } {
	const text = JSON.stringify({ 'node:HaiPay Trigger': staticData });
	const times: number[] = [];
	for (let run = 0; run < 200; run++) {
		const started = performance.now();
		JSON.parse(text);
		times.push((performance.now() - started) * 1000);
	}
	return { bytes: text.length, microseconds: median(times) };
}

function main(): void {
	const rows = [0, MEMORY_CAPACITY].map((size, index) => {
		const scope = `bench-memory-${index}`;
		const staticData = filled(size, scope);
		const load = loadCost(staticData);
		const text = String((staticData[MEMORY_FIELD] as { entries?: string })?.entries ?? '').length;
		return { size, perCallback: perCallback(scope, staticData), load, text };
	});
	const body = [
		`The repeat memory's own cost per callback (open, check, record, and its share of the saves at most once a second), ${CALLBACKS} callbacks per run at 1,000 a minute (the memory stays full: the oldest minutes make room), median of 5 runs, on Node ${process.version}; and what n8n pays per request to parse the workflow's static data holding the saved text (median of 200).`,
		'',
		'| results remembered at the start | µs per callback (memory) | saved text at the start, bytes | static data parse per request at the start, µs |',
		'|---|---:|---:|---:|',
		...rows.map(
			(row) =>
				`| ${row.size === 0 ? `none (${(CALLBACKS * 5).toLocaleString('en-US')} by the end of the runs)` : `${row.size.toLocaleString('en-US')} (full throughout)`} | ${row.perCallback.toFixed(1)} | ${row.text.toLocaleString('en-US')} | ${row.load.microseconds.toFixed(0)} |`,
		),
	].join('\n');
	process.stdout.write(`${body}\n`);
	const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
	writeResults([{ id: 'memory', title: 'Repeat memory, empty and full', date, command: commandLine('npm run bench:memory'), body }], resultsHead(BENCH_PORTS));
}

main();
