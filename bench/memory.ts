import { performance } from 'perf_hooks';

import type { IDataObject } from 'n8n-workflow';

import { MEMORY_CAPACITY, MEMORY_FIELD } from '../nodes/HaiPayTrigger/memory';
import { callbackOf, Database, deliver, newProcess, TestClock } from '../test/trigger/memory-requests';
import { commandLine, resultsHead, writeResults } from './results-file';
import { BENCH_PORTS } from './stack';

/*
 * What the trigger's repeat memory costs per callback when it is empty and when it is full (`npm run
 * bench:memory`): the repeat check and the record of one emission, with n8n's answer, in this process, against a
 * memory of 0 and of MEMORY_CAPACITY results; and what n8n pays to load the saved text with the workflow on every
 * request, at both sizes. Time runs on the memory's own clock, moved by the bench: one callback every STEP_MS.
 */

const CALLBACKS = Number(process.env.BENCH_MEMORY_CALLBACKS ?? 5_000);
/** 1,000 distinct results a minute: a callback every 60 ms. */
const STEP_MS = 60;
const clock = new TestClock();

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** A process whose memory holds `size` results, and the static data n8n would hold for it after one save of all. */
async function filled(size: number): Promise<{ process: string; staticData: IDataObject }> {
	const [process, staticData] = [newProcess(), {} as IDataObject];
	for (let index = 0; index < size; index++)
		await deliver(process, new Database(), callbackOf(`HPFILL${index}`), { staticData });
	clock.advance(60_000);
	await deliver(process, new Database(), callbackOf('HPFILL-last'), { staticData });
	return { process, staticData };
}

/** Microseconds per callback: the repeat check and the record, one request per callback, every STEP_MS. */
async function perCallback(process: string, staticData: IDataObject): Promise<number> {
	const runs: number[] = [];
	for (let run = 0; run < 5; run++) {
		const started = performance.now();
		for (let index = 0; index < CALLBACKS; index++, clock.advance(STEP_MS)) {
			await deliver(process, new Database(), callbackOf(`HPRUN${run}-${index}`), { staticData });
		}
		runs.push(((performance.now() - started) * 1000) / CALLBACKS);
	}
	return median(runs);
}

/** What n8n does with the static data on every request: read it from the database as JSON text and parse it. */
function loadCost(staticData: IDataObject): { bytes: number; microseconds: number } {
	const text = JSON.stringify({ 'node:HaiPay Trigger': staticData });
	const times: number[] = [];
	for (let run = 0; run < 200; run++) {
		const started = performance.now();
		JSON.parse(text);
		times.push((performance.now() - started) * 1000);
	}
	return { bytes: text.length, microseconds: median(times) };
}

async function main(): Promise<void> {
	const rows = [];
	for (const size of [0, MEMORY_CAPACITY]) {
		const { process, staticData } = await filled(size);
		const load = loadCost(staticData);
		const text = String((staticData[MEMORY_FIELD] as { entries?: string })?.entries ?? '').length;
		rows.push({ size, perCallback: await perCallback(process, staticData), load, text });
	}
	const body = [
		`The repeat memory's own cost per callback (the repeat check, the record of the emission with n8n's answer, and its share of the saves at most once a second), ${CALLBACKS} callbacks per run at 1,000 a minute (the memory stays full: the oldest results make room), median of 5 runs, on Node ${process.version}; and what n8n pays per request to parse the workflow's static data holding the saved text (median of 200).`,
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
	writeResults(
		[
			{
				id: 'memory',
				title: 'Repeat memory, empty and full',
				date,
				command: commandLine('npm run bench:memory'),
				body,
			},
		],
		resultsHead(BENCH_PORTS),
	);
}

void main();
