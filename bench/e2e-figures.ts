import type { CallbackAttempt, CallbackJob } from '../sandbox';
import { count, type Settled } from './callbacks';
import type { E2E_SETTINGS } from './e2e-settings';
import type { EffectCounter } from './effect-counter';
import type { InjectedFault } from './fault-proxy';
import type { BenchStack } from './stack';
import type { Target } from './targets';

/** What the end-to-end run (bench/e2e.ts) measured, worked out from what it observed, and how the report shows it. */

export interface EndToEndFigures {
	rows: number;
	/** Orders the sandbox holds for the run, by final status. */
	orders: number;
	byStatus: Record<string, number>;
	/** From the request that started the bulk run until n8n answered it (the run ended). */
	bulkSeconds: number;
	/** From the same start until the sandbox read SUCCESS for the last callback. */
	lastAcknowledgedSeconds: number;
	callbacks: number;
	attempts: number;
	/** Attempts after the first, of callbacks whose first attempt met an injected fault, and of all others. */
	repeatedInjected: number;
	repeatedOther: number;
	injected: { refused: number; answerLost: number };
	gaveUp: number;
	executions: number;
	executionsSucceeded: number;
	stuck: number;
	businessSteps: number;
	duplicates: number;
	/** Duplicate business steps by the injected fault of the callback they repeated (`none` when it met none). */
	duplicatesAfter: Record<'refused' | 'answer lost' | 'none', number>;
	/** From the end of an injected first attempt to the start of its retry, median and longest (s). */
	retryAfterSeconds: { median: number; max: number };
	/** Orders whose result started no business step. */
	lost: number;
	/** CPU of n8n's process tree from the bulk run's start until the last execution ended, per callback. */
	n8nCpuMsPerCallback: number;
	settings: typeof E2E_SETTINGS;
}

/** How long after an injected first attempt ended its retry went out: the schedule's delay, then its turn. */
function retryDelays(attempts: CallbackAttempt[], injected: Map<string, unknown>): { median: number; max: number } {
	const byOrder = new Map<string, CallbackAttempt[]>();
	for (const attempt of attempts)
		if (injected.has(attempt.orderId)) byOrder.set(attempt.orderId, [...(byOrder.get(attempt.orderId) ?? []), attempt]);
	const delays: number[] = [];
	for (const list of byOrder.values()) {
		const first = list.find((a) => a.attempt === 1);
		const second = list.find((a) => a.attempt === 2);
		if (first && second) delays.push((Date.parse(second.at) - Date.parse(first.at) - first.durationMs) / 1000);
	}
	delays.sort((a, b) => a - b);
	return { median: delays[Math.floor(delays.length / 2)] ?? 0, max: delays[delays.length - 1] ?? 0 };
}

/** What the run saw happen: the bulk run's time, the callback series, the executions, n8n's CPU. */
export interface RunObservation {
	/** When the bulk run's request went out (epoch ms). */
	started: number;
	bulkSeconds: number;
	jobs: CallbackJob[];
	executions: Settled;
	cpuMs: number;
}

/** Attempts after the first, of callbacks whose first attempt met an injected fault (one each), and of all others. */
function repeats(
	jobs: CallbackJob[],
	injected: Map<string, InjectedFault>,
): { repeatedInjected: number; repeatedOther: number } {
	let repeatedInjected = 0;
	let repeatedOther = 0;
	for (const job of jobs) {
		const byFault = injected.has(job.orderId) ? Math.min(1, job.attempts - 1) : 0;
		repeatedInjected += byFault;
		repeatedOther += job.attempts - 1 - byFault;
	}
	return { repeatedInjected, repeatedOther };
}

/** Duplicate business steps by the injected fault the repeated callback met first (`none` when it met none). */
function duplicatesAfter(
	repeated: string[],
	final: Array<{ orderId: string; orderNo: string; status: number }>,
	injected: Map<string, InjectedFault>,
): EndToEndFigures['duplicatesAfter'] {
	const orderOfKey = new Map(final.map((order) => [`no:${order.orderNo}|${order.status}`, order.orderId]));
	const out = { refused: 0, 'answer lost': 0, none: 0 };
	for (const key of repeated) out[injected.get(orderOfKey.get(key) ?? '') ?? 'none'] += 1;
	return out;
}

export interface Observed {
	stack: BenchStack;
	tag: string;
	triggerId: string;
	counter: EffectCounter;
	injected: Map<string, InjectedFault>;
	attempts: CallbackAttempt[];
	run: RunObservation;
	settings: typeof E2E_SETTINGS;
}

export async function figuresOf({
	stack,
	tag,
	triggerId,
	counter,
	injected,
	attempts,
	run,
	settings: s,
}: Observed): Promise<EndToEndFigures> {
	const final = stack.sandbox.control.orders().filter((order) => order.orderId.startsWith(`${tag}-`));
	const byStatus: Record<string, number> = {};
	for (const order of final) byStatus[String(order.status)] = (byStatus[String(order.status)] ?? 0) + 1;
	const keys = new Set(counter.keys(tag));
	const steps = counter.of(tag);
	const acknowledgedAt = attempts.filter((a) => a.acknowledged).map((a) => Date.parse(a.at) + a.durationMs);
	const kinds = [...injected.values()];
	return {
		rows: s.rows,
		orders: final.length,
		byStatus,
		bulkSeconds: run.bulkSeconds,
		lastAcknowledgedSeconds: acknowledgedAt.length === 0 ? 0 : (Math.max(...acknowledgedAt) - run.started) / 1000,
		callbacks: run.jobs.length,
		attempts: run.jobs.reduce((sum, job) => sum + job.attempts, 0),
		...repeats(run.jobs, injected),
		injected: {
			refused: kinds.filter((k) => k === 'refused').length,
			answerLost: kinds.filter((k) => k === 'answer lost').length,
		},
		gaveUp: run.jobs.filter((job) => job.state === 'gave-up').length,
		executions: run.executions.total,
		executionsSucceeded: await count(stack.rest, triggerId, ['success']),
		stuck: run.executions.active,
		businessSteps: steps.total,
		duplicates: steps.total - steps.distinct,
		duplicatesAfter: duplicatesAfter(counter.repeated(tag), final, injected),
		retryAfterSeconds: retryDelays(attempts, injected),
		lost: final.filter((order) => !keys.has(`no:${order.orderNo}|${order.status}`)).length,
		n8nCpuMsPerCallback: run.cpuMs / Math.max(1, run.jobs.length),
		settings: s,
	};
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);

/** The goal: every result handled once, and no callback sent twice but those the run made fail on purpose. */
export function e2eTarget(f: EndToEndFigures): Target {
	const injected = f.injected.refused + f.injected.answerLost;
	return {
		what: `a bulk payout's callbacks end to end (${f0(f.rows)} rows, one n8n): 0 lost, 0 duplicate business steps, no repeated attempt but the ${f0(injected)} the run injected`,
		measured: `${f0(f.lost)} lost, ${f0(f.duplicates)} duplicates, ${f0(f.repeatedOther)} repeated attempts not injected, ${f0(f.gaveUp)} given up (${f0(f.repeatedInjected)} repeats of ${f0(injected)} injected faults)`,
		pass: f.lost === 0 && f.duplicates === 0 && f.repeatedOther === 0 && f.gaveUp === 0 && f.orders === f.rows,
	};
}

export function e2eLines(f: EndToEndFigures): string[] {
	const s = f.settings;
	const statuses = Object.entries(f.byStatus)
		.sort()
		.map(([status, n]) => `${f0(n)} x ${status}`)
		.join(', ');
	return [
		`A bulk payout and its callbacks on one n8n: ${f0(s.rows)} payout rows (TZS and NGN, 6 in every 50 to a payee the sandbox fails) through the HaiPay node (${s.inFlight} in flight, the sandbox answering in ${s.latencyMs} ms), each with the notifyUrl of an active HaiPay Trigger workflow on the same n8n: one trigger per App ID, then a business step (an HTTP request to a counter, keyed by the item's dedupKey). The sandbox makes each order final ${f0(s.finalMs)} ms after it is created and posts its result (every status it sends: 2 and 3) while the run goes on, with HaiPay's retry schedule shortened from 5 x 5 minutes to ${s.retries} x ${f0(s.retryMs / 1000)} s, a time-out of ${f0(s.timeoutMs / 1000)} s per attempt (the sandbox's default; HaiPay does not publish its own) and at most ${s.concurrency} attempts on the wire at once (nor its dispatcher's concurrency). Faults injected on purpose, in a proxy in front of n8n: the first attempt of ${s.injected.length} callbacks in every 50 fails, by turns refused with 503 before n8n sees it, and passed to n8n with its SUCCESS replaced by 502 (the answer lost on the way back).`,
		'',
		'| rows | callbacks by status | payout run s | last callback acknowledged after s | attempts | repeated: injected faults / other | given up | executions (succeeded) | business steps | duplicates | lost | n8n CPU ms/callback |',
		'|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|',
		`| ${f0(f.rows)} | ${statuses} | ${f1(f.bulkSeconds)} | ${f1(f.lastAcknowledgedSeconds)} | ${f0(f.attempts)} | ${f0(f.repeatedInjected)} of ${f0(f.injected.refused + f.injected.answerLost)} injected (${f0(f.injected.refused)} refused, ${f0(f.injected.answerLost)} answer lost) / **${f0(f.repeatedOther)}** | ${f0(f.gaveUp)} | ${f0(f.executions)} (${f0(f.executionsSucceeded)}) | ${f0(f.businessSteps)} | **${f0(f.duplicates)}** | **${f0(f.lost)}** | ${f0(f.n8nCpuMsPerCallback)} |`,
		'',
		`Goal: 0 lost, 0 duplicate business steps, and no repeated attempt but those the injected faults cause (one each). "Repeated: other" counts attempts the sandbox had to make again because n8n did not answer SUCCESS in time or at all. n8n's CPU covers the payout run and every callback, from the run's start until the last execution ended.`,
		'',
		`Duplicate business steps by the fault the repeated callback met first: ${f0(f.duplicatesAfter['answer lost'])} after an answer lost, ${f0(f.duplicatesAfter.refused)} after a refusal, ${f0(f.duplicatesAfter.none)} after none. A retry went out ${f1(f.retryAfterSeconds.median)} s after its failed first attempt (median; longest ${f1(f.retryAfterSeconds.max)} s): the schedule's ${f0(s.retryMs / 1000)} s, then its turn behind the first attempts still waiting for one of the ${s.concurrency} places.`,
	];
}
