import { fork, type ChildProcess } from 'child_process';
import { writeFileSync } from 'fs';
import { join } from 'path';
import { Session } from 'inspector';
import { serialize } from 'v8';

import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { appFieldNames } from '../nodes/shared/signing/apps';
import { startSandbox } from '../sandbox';
import { runWorkflow } from '../test/harness';
import { APP_IDS, PAYOUTS } from '../test/fixtures/bodies';
import { TEST_KEYS } from '../test/helpers/keys';

/*
 * Where a bulk row's time goes, by measures that do not move with the machine's load (`npx tsx bench/bulk-profile.ts`):
 * the bench's mixed sheet (TZS and NGN rows by turns, currency and fields from each row, 16 in flight per App ID)
 * through one HaiPay node in an n8n-core execution in this process, against the sandbox in a child process (its
 * work is not this process's), 50 ms per answer. Reported per sheet size: the main thread's sampled time by
 * package (a proportion, and CPU ms per row from the same process's own CPU time), how many requests each App ID
 * had in flight over the run (time-weighted, from the sandbox's own request log), and the bytes of each input and
 * output item as V8 serializes it (what n8n's run data holds per item, before JSON).
 */

// tsx resolves `HaiPay.node` to the codex file beside it (HaiPay.node.json): the class is loaded by its full name.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { HaiPay } = require('../nodes/HaiPay/HaiPay.node.ts') as typeof import('../nodes/HaiPay/HaiPay.node');

const SIZES = (process.env.BULK_PROFILE_ROWS ?? '1000,10000').split(',').map(Number);
const CONCURRENCY = 16;
const LATENCY_MS = 50;

interface Logged {
	appId: number;
	startMs: number;
	ms: number;
}

/** The child: a sandbox with the bench's latency that hands its request log over IPC when asked. */
async function sandboxChild(): Promise<void> {
	const sandbox = await startSandbox({ latencyMs: LATENCY_MS, manual: true, requestLogLimit: 100 });
	let log: Logged[] = [];
	sandbox.events.on('request', (entry: { at: string; appId?: number; ms: number }) => {
		if (entry.appId !== undefined) log.push({ appId: entry.appId, startMs: Date.parse(entry.at), ms: entry.ms });
	});
	process.on('message', (message: string) => {
		if (message === 'log') {
			process.send?.({ log });
			log = [];
		} else if (message === 'reset') {
			sandbox.control.reset();
			log = [];
			process.send?.({ reset: true });
		}
	});
	process.send?.({ baseUrl: sandbox.baseUrl });
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
	return new Promise((resolve) => {
		child.once('message', (answer) => resolve(answer as T));
		child.send(message);
	});
}

/** The rows bench/workflows.ts's Rows node makes: TZS and NGN by turns, each with its own contact fields. */
export function mixedRows(count: number, tag: string): IDataObject[] {
	const tzs = { currency: 'TZS', ...PAYOUTS.TZS, amount: '1000' };
	const ngn = { currency: 'NGN', ...PAYOUTS.NGN };
	return Array.from({ length: count }, (_, i) => ({
		...(i % 2 === 0 ? tzs : ngn),
		orderId: `${tag}-${i}`,
		email: `payee${i}@example.com`,
		partnerUserId: `emp-${i}`,
	}));
}

function credential(baseUrl: string): ICredentialDataDecryptedObject {
	const data: ICredentialDataDecryptedObject = {
		environment: 'custom',
		baseUrl,
		appId: APP_IDS.TZS,
		currency: 'TZS',
		secretKey: 'test-only-secret-tzs',
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
		otherCurrencies: 'NGN',
	};
	const names = appFieldNames('NGN');
	data[names.appId] = APP_IDS.NGN;
	data[names.secretKey] = 'test-only-secret-ngn';
	return data;
}

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
	children?: number[];
}
interface CpuProfile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

/** Where a frame's code comes from. */
function placeOf({ url, functionName }: ProfileNode['callFrame']): string {
	if (functionName === '(garbage collector)') return 'garbage collection';
	if (functionName === '(idle)') return 'idle';
	if (functionName === '(program)') return 'V8 (program)';
	if (/[\\/]nodes[\\/](HaiPay|shared|HaiPayTrigger)[\\/]/.test(url)) return 'this package (nodes/)';
	if (/[\\/]n8n-core[\\/]/.test(url)) return 'n8n-core';
	if (/[\\/]n8n-workflow[\\/]/.test(url)) return 'n8n-workflow';
	if (/[\\/]test[\\/]harness[\\/]/.test(url)) return 'the test harness';
	if (/^node:(internal[\\/])?crypto|node:internal\/crypto/.test(url)) return 'Node crypto';
	if (/^node:/.test(url) || url === '') return 'Node internals (http, net, streams, timers)';
	if (/axios|follow-redirects|form-data|proxy/.test(url)) return 'axios (n8n-core request helper)';
	return 'other libraries';
}

interface Split {
	byPlace: Map<string, number>;
	byFunction: Map<string, number>;
	sampledMs: number;
}

/**
 * A native frame (no script URL: a C++ builtin such as a socket's connect or a crypto job's run) counted with the
 * nearest caller that has one, since that caller's package asked for the work.
 */
function callerOf(id: number, frames: Map<number, ProfileNode['callFrame']>, parents: Map<number, number>): string {
	for (let at = parents.get(id); at !== undefined; at = parents.get(at)) {
		const url = frames.get(at)?.url ?? '';
		if (url !== '') return placeOf(frames.get(at) as ProfileNode['callFrame']);
	}
	return 'Node internals (http, net, streams, timers)';
}

function split(profile: CpuProfile): Split {
	const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
	const parents = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
	const byPlace = new Map<string, number>();
	const byFunction = new Map<string, number>();
	let sampledMs = 0;
	profile.samples.forEach((id, index) => {
		const frame = frames.get(id);
		const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
		if (frame === undefined) return;
		let place = placeOf(frame);
		if (place === 'idle') return;
		// A crypto job's run (RSA signing and verifying) shows as a bare native frame whatever called it.
		if (frame.url === '' && frame.functionName === 'run') place = 'Node crypto';
		else if (frame.url === '' && !frame.functionName.startsWith('(')) place = callerOf(id, frames, parents);
		sampledMs += ms;
		byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
		const where =
			frame.url === '' ? `native, called from ${place}` : frame.url.replace(/^.*(node_modules|wt44)[\\/]/, '');
		const name = `${frame.functionName || '(anonymous)'} ${where}`;
		byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
	});
	return { byPlace, byFunction, sampledMs };
}

function post<T>(session: Session, method: string, params: object = {}): Promise<T> {
	return new Promise((resolve, reject) =>
		session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
	);
}

/** Share of the requests' span that each App ID spent with N requests in flight, from the sandbox's log. */
function occupancy(log: Logged[]): Map<number, { at16: number; mid: number; low: number; none: number; peak: number }> {
	const result = new Map<number, { at16: number; mid: number; low: number; none: number; peak: number }>();
	for (const appId of new Set(log.map((entry) => entry.appId))) {
		const events = log
			.filter((entry) => entry.appId === appId)
			.flatMap((entry) => [
				[entry.startMs, 1],
				[entry.startMs + entry.ms, -1],
			])
			.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
		const spent = { at16: 0, mid: 0, low: 0, none: 0, peak: 0 };
		let level = 0;
		for (let i = 0; i < events.length - 1; i++) {
			level += events[i][1];
			spent.peak = Math.max(spent.peak, level);
			const span = events[i + 1][0] - events[i][0];
			if (level >= CONCURRENCY) spent.at16 += span;
			else if (level >= CONCURRENCY / 2) spent.mid += span;
			else if (level > 0) spent.low += span;
			else spent.none += span;
		}
		result.set(appId, spent);
	}
	return result;
}

const bytes = (item: unknown) => serialize(item).length;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

interface Measured {
	rows: number;
	cpuMsPerRow: number;
	split: Split;
	occupancy: ReturnType<typeof occupancy>;
	inBytes: number;
	outBytes: number;
	/** Heap bytes per row held during the run (peak) and after it, the result still held; NaN without --expose-gc. */
	live: { peak: number; after: number };
	outcomes: Record<string, number>;
	repeated: string[];
	output: INodeExecutionData[];
}

function execute(baseUrl: string, items: IDataObject[]) {
	return runWorkflow({
		nodeTypes: [HaiPay],
		credentials: { hp: { type: 'haiPayApi', data: credential(baseUrl) } },
		nodes: [
			{
				name: 'Pay',
				type: 'haiPay',
				parameters: {
					resource: 'payout',
					operation: 'create',
					currency: '={{ $json.currency }}',
					fieldsFrom: 'input',
					options: { concurrency: CONCURRENCY },
				},
				onError: 'continueRegularOutput',
			},
		],
		items: items.map((json) => ({ json })),
		timeoutMs: 30 * 60_000,
	});
}

/**
 * Bytes live on the heap per row while the run goes on and once it has ended, beyond the rows themselves: a full
 * collection every 100 ms during a separate run (node --expose-gc), so the figure is what is held, not garbage.
 */
async function liveBytes(baseUrl: string, child: ChildProcess, rows: number): Promise<{ peak: number; after: number }> {
	const collect = (globalThis as { gc?: () => void }).gc;
	if (collect === undefined) return { peak: NaN, after: NaN };
	await ask(child, 'reset');
	const items = mixedRows(rows, `BL${Date.now().toString(36)}`);
	collect();
	const base = process.memoryUsage().heapUsed;
	let peak = 0;
	const timer = setInterval(() => {
		collect();
		peak = Math.max(peak, process.memoryUsage().heapUsed - base);
	}, 100);
	const result = await execute(baseUrl, items);
	clearInterval(timer);
	collect();
	const after = process.memoryUsage().heapUsed - base;
	await ask(child, 'log');
	if (result.outputOf('Pay').length !== rows) throw new Error(`${rows} rows gave another number of output items`);
	return { peak: peak / rows, after: after / rows };
}

async function measure(baseUrl: string, child: ChildProcess, rows: number, session?: Session): Promise<Measured> {
	await ask(child, 'reset');
	const items = mixedRows(rows, `BP${Date.now().toString(36)}`);
	if (session !== undefined) await post(session, 'Profiler.start');
	const cpu = process.cpuUsage();
	const result = await execute(baseUrl, items);
	const used = process.cpuUsage(cpu);
	const { profile } =
		session === undefined
			? { profile: { nodes: [], samples: [], timeDeltas: [] } }
			: await post<{ profile: CpuProfile }>(session, 'Profiler.stop');
	// Kept for a reader's own look (Chrome DevTools, speedscope): BULK_PROFILE_DIR=dir.
	const dir = process.env.BULK_PROFILE_DIR;
	if (dir !== undefined) writeFileSync(join(dir, `bulk-${rows}.cpuprofile`), JSON.stringify(profile));
	const { log } = await ask<{ log: Logged[] }>(child, 'log');
	const output = result.outputOf('Pay');
	const outcomes: Record<string, number> = {};
	for (const item of output) {
		const key = String(item.json.outcome ?? item.json.statusLabel ?? 'output');
		outcomes[key] = (outcomes[key] ?? 0) + 1;
	}
	const first = output[0]?.json ?? {};
	const repeated = Object.keys(first).filter((key) => key in items[0] && String(first[key]) === String(items[0][key]));
	return {
		rows,
		cpuMsPerRow: (used.user + used.system) / 1000 / rows,
		split: split(profile),
		occupancy: occupancy(log),
		inBytes: mean(result.outputOf('Start').map(bytes)),
		outBytes: mean(output.map(bytes)),
		live: { peak: NaN, after: NaN },
		outcomes,
		repeated,
		output,
	};
}

function report(all: Measured[]): string {
	const places = [...new Set(all.flatMap((entry) => [...entry.split.byPlace.keys()]))].sort();
	const share = (entry: Measured, place: string) =>
		`${((100 * (entry.split.byPlace.get(place) ?? 0)) / entry.split.sampledMs).toFixed(1)}%`;
	const perRow = (entry: Measured, place: string) =>
		((entry.cpuMsPerRow * (entry.split.byPlace.get(place) ?? 0)) / entry.split.sampledMs).toFixed(3);
	const lines = [
		`| main thread (V8 sampling profiler) | ${all.map((entry) => `${entry.rows} rows: share, CPU ms/row`).join(' | ')} |`,
		`|---|${all.map(() => '---:').join('|')}|`,
		...places.map((place) => `| ${place} | ${all.map((e) => `${share(e, place)}, ${perRow(e, place)}`).join(' | ')} |`),
		`| **all** (process CPU, user+sys) | ${all.map((entry) => `100%, ${entry.cpuMsPerRow.toFixed(3)}`).join(' | ')} |`,
		'',
		`| in flight per App ID, share of its span | ${all.map((entry) => `${entry.rows} rows`).join(' | ')} |`,
		`|---|${all.map(() => '---').join('|')}|`,
		...[...new Set(all.flatMap((entry) => [...entry.occupancy.keys()]))].map((appId) => {
			const cells = all.map((entry) => {
				const spent = entry.occupancy.get(appId);
				if (spent === undefined) return '-';
				const total = spent.at16 + spent.mid + spent.low + spent.none;
				const pct = (value: number) => `${((100 * value) / total).toFixed(0)}%`;
				return `16: ${pct(spent.at16)}, 8-15: ${pct(spent.mid)}, 1-7: ${pct(spent.low)}, 0: ${pct(spent.none)} (peak ${spent.peak})`;
			});
			return `| App ID ${appId} | ${cells.join(' | ')} |`;
		}),
		'',
		`| bytes per item (v8.serialize) | ${all.map((entry) => `${entry.rows} rows`).join(' | ')} |`,
		`|---|${all.map(() => '---:').join('|')}|`,
		`| input item (the row) | ${all.map((entry) => entry.inBytes.toFixed(0)).join(' | ')} |`,
		`| output item | ${all.map((entry) => entry.outBytes.toFixed(0)).join(' | ')} |`,
		`| heap held per row during the run, peak (after full collections) | ${all.map((entry) => entry.live.peak.toFixed(0)).join(' | ')} |`,
		`| heap held per row once the run ended (its result held) | ${all.map((entry) => entry.live.after.toFixed(0)).join(' | ')} |`,
		'',
		`Outcomes: ${all.map((entry) => `${entry.rows} rows ${JSON.stringify(entry.outcomes)}`).join('; ')}.`,
		`Output fields equal to the row's own: ${all[0]?.repeated.join(', ')}. An output item: \`${JSON.stringify(all[0]?.output[0])}\``,
	];
	for (const entry of all) {
		lines.push('', `${entry.rows} rows, busiest functions (self, CPU ms per row scaled from the samples):`);
		const top = [...entry.split.byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25);
		for (const [name, ms] of top)
			lines.push(`- ${((entry.cpuMsPerRow * ms) / entry.split.sampledMs).toFixed(4)} ${name}`);
	}
	return lines.join('\n');
}

/**
 * `--only N`: the warm-up and one execution of N rows, nothing measured in process, for a run under
 * `valgrind --tool=callgrind`, whose instruction counts do not move with the machine's load: the instructions of
 * `--only N` less those of `--only 0`, over N, are one row's (bench/results.md).
 */
async function only(rows: number, child: ChildProcess, baseUrl: string): Promise<void> {
	await measure(baseUrl, child, 200);
	if (rows > 0) await measure(baseUrl, child, rows);
}

async function main(): Promise<void> {
	const child = fork(__filename, ['--sandbox'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	try {
		const { baseUrl } = await new Promise<{ baseUrl: string }>((resolve) =>
			child.once('message', (message) => resolve(message as { baseUrl: string })),
		);
		const onlyAt = process.argv.indexOf('--only');
		if (onlyAt > 0) return await only(Number(process.argv[onlyAt + 1]), child, baseUrl);
		const session = new Session();
		session.connect();
		await post(session, 'Profiler.enable');
		await post(session, 'Profiler.setSamplingInterval', { interval: 250 });
		// A first run loads and compiles what every run uses; it is not reported.
		await measure(baseUrl, child, 200, session);
		const all: Measured[] = [];
		if (process.argv.includes('--live')) {
			// The heap alone, for comparing two versions of the package without the profiler's passes.
			for (const rows of SIZES)
				process.stdout.write(`${rows} rows: ${JSON.stringify(await liveBytes(baseUrl, child, rows))}\n`);
			return;
		}
		for (const rows of SIZES) all.push(await measure(baseUrl, child, rows, session));
		for (const entry of all) entry.live = await liveBytes(baseUrl, child, entry.rows);
		process.stdout.write(`${report(all)}\n`);
	} finally {
		child.kill();
	}
}

if (process.argv.includes('--sandbox')) void sandboxChild();
else if (require.main === module)
	main().catch((error: unknown) => {
		process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exit(1);
	});
