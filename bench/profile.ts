import { mkdirSync, readdirSync, readFileSync, rmSync } from 'fs';
import { join } from 'path';

import { runCallbacks } from './callbacks';
import { commandLine, resultsHead, writeResults } from './results-file';
import { BENCH_PORTS, startBenchStack, WORK } from './stack';
import { CALLBACK_WEBHOOK_ID, PLAIN_WEBHOOK_PATH, plainWebhookWorkflow, triggerWorkflow } from './workflows';

/*
 * Where a callback's time goes (`npm run bench:profile`): n8n's main process runs with V8's CPU profiler while the
 * same signed callbacks go to the HaiPay Trigger and then to n8n's own Webhook node. Each profile is cut to the
 * span of its load (the profile ends when n8n exits; the load's start and end are known on the same clock), and
 * its main-thread time is split by where the code comes from. Prints a table for bench/results.md.
 */

const COUNT = Number(process.env.BENCH_PROFILE_CALLBACKS ?? 400);
const CONCURRENCY = 20;

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
	children?: number[];
}
interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

/** Where a frame's code comes from, in words a reader of the table knows. */
function placeOf(frame: ProfileNode['callFrame']): string {
	const { url, functionName } = frame;
	if (functionName === '(garbage collector)') return 'garbage collection';
	if (functionName === '(idle)') return 'idle';
	if (functionName === '(program)') return 'V8 and Node internals (program)';
	if (/[\\/]nodes[\\/]node_modules[\\/]n8n-nodes-haipay[\\/]/.test(url)) return 'the HaiPay Trigger (this package)';
	if (/typeorm|sqlite3|[\\/]pg[\\/]/.test(url)) return 'database (TypeORM, SQLite driver)';
	if (/[\\/]n8n-core[\\/]/.test(url)) return 'n8n-core (node contexts, execution engine)';
	if (/[\\/]n8n-workflow[\\/]/.test(url)) return 'n8n-workflow (expressions, workflow model)';
	if (/[\\/]@n8n[\\/]/.test(url)) return 'other @n8n packages (DI, config, db entities, permissions)';
	if (/[\\/]n8n[\\/]dist[\\/]/.test(url)) return 'n8n server (webhooks, executions, credentials)';
	if (/express|body-parser|raw-body|router|iconv|[\\/]qs[\\/]/.test(url))
		return 'HTTP framework (express, body parsing)';
	if (url.startsWith('node:') || url === '') return 'Node.js core (http, streams, crypto, timers)';
	return 'other libraries';
}

export interface ProfileSplit {
	totalMs: number;
	byPlace: Map<string, number>;
	topPackage: Array<[string, number]>;
	/** Time in n8n's expression isolates, by the step of n8n's that asked for one. */
	isolateBy: Map<string, number>;
}

const ISOLATE = /expression-runtime|isolated-vm/;

/** The step of n8n's that a sample inside an expression isolate serves, found by walking up its callers. */
function isolateCaller(id: number, nodes: Map<number, ProfileNode>, parents: Map<number, number>): string {
	for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
		const url = nodes.get(current)?.callFrame.url ?? '';
		if (
			/parseRequestBody|webhook-helpers/.test(`${nodes.get(current)?.callFrame.functionName} ${url}`) &&
			/webhook-helpers/.test(url)
		) {
			return /parseRequestBody/.test(nodes.get(current)?.callFrame.functionName ?? '')
				? 'reading the body of a version-1 webhook node'
				: 'webhook description expressions';
		}
		if (/webhook-execution-context/.test(url)) return 'webhook description expressions';
		if (/credentials-helper/.test(url)) return 'decrypting the credential';
		if (/live-webhooks/.test(url)) return "an isolate held for the webhook step (any node but n8n's Webhook node)";
		if (/workflow-execute/.test(url)) return 'an isolate held for the execution';
	}
	return 'isolate work after an await (its caller is not on the stack)';
}

/** Main-thread milliseconds spent in the window, by place, and the package's own busiest functions. */
export function splitProfile(profile: CpuProfile, fromUs: number, toUs: number): ProfileSplit {
	const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
	const parents = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
	const isolateBy = new Map<string, number>();
	const byPlace = new Map<string, number>();
	const byFunction = new Map<string, number>();
	let at = profile.startTime;
	let totalMs = 0;
	for (let index = 0; index < profile.samples.length; index++) {
		at += profile.timeDeltas[index];
		const next = index + 1 < profile.timeDeltas.length ? profile.timeDeltas[index + 1] : 0;
		if (at < fromUs || at > toUs) continue;
		const frame = nodes.get(profile.samples[index])?.callFrame;
		if (frame === undefined) continue;
		const place = placeOf(frame);
		if (place === 'idle') continue;
		const ms = next / 1000;
		totalMs += ms;
		byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
		if (ISOLATE.test(frame.url)) {
			const caller = isolateCaller(profile.samples[index], nodes, parents);
			isolateBy.set(caller, (isolateBy.get(caller) ?? 0) + ms);
		}
		const name = `${frame.functionName || '(anonymous)'} (${frame.url.split(/node_modules[\\/]/).pop()})`;
		byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
	}
	const topPackage = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 15);
	return { totalMs, byPlace, topPackage, isolateBy };
}

/** The main thread's profile: Node names each `CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile`, the main thread 0. */
function mainThreadProfile(dir: string): CpuProfile {
	const file = readdirSync(dir).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
	if (file === undefined) throw new Error(`no CPU profile of the main thread was written in ${dir}`);
	return JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
}

async function main(): Promise<void> {
	const say = (line: string) => process.stdout.write(`${line}\n`);
	const stack = await startBenchStack(say);
	const profiles: Profiled[] = [];
	try {
		const targets = [
			{
				name: 'HaiPay Trigger',
				id: await stack.addWorkflow(triggerWorkflow(), true),
				url: `/webhook/${CALLBACK_WEBHOOK_ID}/webhook`,
			},
			{
				name: "n8n's Webhook node",
				id: await stack.addWorkflow(plainWebhookWorkflow(), true),
				url: `/webhook/${PLAIN_WEBHOOK_PATH}`,
			},
		];
		for (const target of targets) {
			const dir = join(WORK, 'profiles', target.name.replace(/\W+/g, '-'));
			rmSync(dir, { recursive: true, force: true });
			mkdirSync(dir, { recursive: true });
			await stack.restartN8n(['--cpu-prof', `--cpu-prof-dir=${dir}`]);
			say(`${target.name}: ${COUNT} signed callbacks, ${CONCURRENCY} at a time, n8n under the CPU profiler ...`);
			const load = { count: COUNT, forged: 0, concurrency: CONCURRENCY, warmup: 20 };
			const figures = await runCallbacks(stack, target.id, `${stack.n8nUrl}${target.url}`, load, say);
			await stack.server.stop();
			const exitedAt = Date.now();
			const profile = mainThreadProfile(dir);
			const { startedAt, endedAt } = figures.genuine.window ?? { startedAt: 0, endedAt: 0 };
			const split = splitProfile(
				profile,
				profile.endTime - (exitedAt - startedAt) * 1000,
				profile.endTime - (exitedAt - endedAt) * 1000,
			);
			profiles.push({ name: target.name, split, count: COUNT, treeMs: figures.genuine.cpuMsPerCallback });
			say(
				`  process tree: ${figures.genuine.cpuMsPerCallback.toFixed(1)} CPU ms per callback; main thread in the profile: ${(split.totalMs / COUNT).toFixed(1)} ms`,
			);
			await stack.restartN8n();
		}
	} finally {
		await stack.stop();
	}
	const body = report(profiles);
	say(body);
	const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
	writeResults(
		[
			{
				id: 'profile',
				title: "Where a callback's time goes",
				date,
				command: commandLine('npm run bench:profile'),
				body,
			},
		],
		resultsHead(BENCH_PORTS),
	);
}

interface Profiled {
	name: string;
	split: ProfileSplit;
	count: number;
	/** CPU of n8n's whole process tree (every thread, the task runner) per callback, from /proc. */
	treeMs: number;
}

function report(profiles: Profiled[]): string {
	const places = [...new Set(profiles.flatMap((entry) => [...entry.split.byPlace.keys()]))].sort();
	const perCallback = (entry: Profiled, place: string) =>
		((entry.split.byPlace.get(place) ?? 0) / entry.count).toFixed(2);
	const steps = [...new Set(profiles.flatMap((entry) => [...entry.split.isolateBy.keys()]))].sort();
	const [trigger, webhook] = profiles;
	const lines = [
		`${COUNT} distinct signed payout callbacks, ${CONCURRENCY} at a time, into an active workflow of one node on n8n's main process (SQLite), the trigger at version 1.1 with its default options; n8n's main thread under V8's CPU profiler, cut to the span of the load. CPU of the whole process tree (every thread: n8n's expression isolates, SQLite, the event log) per callback: ${profiles.map((entry) => `${entry.name} ${entry.treeMs.toFixed(1)} ms`).join(', ')}${trigger && webhook ? ` (${(trigger.treeMs / webhook.treeMs).toFixed(2)}x)` : ''}.`,
		'',
		`| main thread, ms per callback | ${profiles.map((entry) => entry.name).join(' | ')} |`,
		`|---|${profiles.map(() => '---:').join('|')}|`,
		...places.map((place) => `| ${place} | ${profiles.map((entry) => perCallback(entry, place)).join(' | ')} |`),
		`| **all** | ${profiles.map((entry) => (entry.split.totalMs / entry.count).toFixed(2)).join(' | ')} |`,
		'',
		"Of that, time in n8n's expression isolates (n8n 2.x evaluates expressions in isolated-vm; each step below takes an isolate from a pool that is refilled by building new ones), by the step that asked for it:",
		'',
		`| isolate time, ms per callback | ${profiles.map((entry) => entry.name).join(' | ')} |`,
		`|---|${profiles.map(() => '---:').join('|')}|`,
		...steps.map(
			(step) =>
				`| ${step} | ${profiles.map((entry) => ((entry.split.isolateBy.get(step) ?? 0) / entry.count).toFixed(2)).join(' | ')} |`,
		),
		'',
		...profiles.flatMap((entry) => [
			'',
			`${entry.name}: the busiest functions, self time (ms per callback):`,
			...entry.split.topPackage.map(([name, ms]) => `- ${name}: ${(ms / entry.count).toFixed(3)}`),
		]),
	];
	return lines.join('\n');
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exit(1);
	});
}
