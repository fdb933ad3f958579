import http from 'http';

import type { CallbackAttempt, CallbackJob } from '../sandbox';
import { WorkflowBuilder, type WorkflowBody } from '../dev/workflow-builder';
import { credentialOf } from '../playground/examples';
import { assertPortFree } from '../playground/lib/instance';
import { httpRequest } from '../playground/lib/rest';
import { count, settledCount } from './callbacks';
import { settle, TreeSampler } from './proc';
import { startEffectCounter, until } from './queue-harness';
import type { Target } from './report';
import { BENCH_PORTS, type BenchStack } from './stack';
import { haiPayWorkflow, ROWS_CODE } from './workflows';

/**
 * A bulk payout end to end on one n8n: the HaiPay node pays N rows at the sandbox with a notifyUrl, the sandbox
 * settles each order and posts its result, with retries, to an active HaiPay Trigger workflow on the same n8n,
 * which ends in a business step counted per dedupKey. A proxy in front of n8n fails the first attempt of a few
 * callbacks on purpose, so that repeats caused by those faults are told apart from repeats n8n caused.
 */

const setting = (name: string, fallback: number) => {
	const value = Number(process.env[name] ?? fallback);
	return Number.isInteger(value) && value > 0 ? value : fallback;
};

export const E2E_SETTINGS = {
	rows: setting('BENCH_E2E_ROWS', 5_000),
	/** The sandbox's answer time and the HaiPay node's concurrency, as in the bulk rows. */
	latencyMs: 50,
	inFlight: 16,
	/** An order is final this long after it is created; its callback goes then. */
	finalMs: 1_000,
	/** HaiPay's schedule is 5 retries 5 minutes apart; here 5 retries this far apart. */
	retryMs: setting('BENCH_E2E_RETRY_MS', 15_000),
	retries: 5,
	/** How long the sandbox waits for n8n's answer to one attempt: its default; HaiPay does not publish its own. */
	timeoutMs: setting('BENCH_E2E_TIMEOUT_MS', 10_000),
	/** Callback attempts the sandbox has on the wire at once: HaiPay does not publish its dispatcher's either. */
	concurrency: setting('BENCH_E2E_CALLBACK_CONCURRENCY', 10),
	/** In every 50 rows, these go to a payee the sandbox fails (status 3), TZS and NGN alike (12%)... */
	failing: [8, 9, 28, 29, 48, 49],
	/** ...and the first attempt of these callbacks fails on purpose (4%), by turns refused and answer lost. */
	injected: [8, 33],
};

export const E2E_BULK_PATH = 'bench-e2e-bulk';
export const E2E_HOOKS = { TZS: 'bench-e2e-tzs', NGN: 'bench-e2e-ngn' } as const;

/** A row index's injected fault on the first attempt of its callback, if any. */
export function injectedFault(index: number): 'refused' | 'answer lost' | undefined {
	if (!E2E_SETTINGS.injected.includes(index % 50)) return undefined;
	return Math.floor(index / 25) % 2 === 0 ? 'refused' : 'answer lost';
}

/** One HaiPay Trigger per App ID (each refuses the other's callbacks), then the business step: POST to the counter. */
export function e2eTriggerWorkflow(counterUrl: string): WorkflowBody {
	const b = new WorkflowBuilder('bench-e2e-triggers');
	const step = b.add({
		name: 'Business step',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: counterUrl,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify({ dedupKey: $json.dedupKey, orderNo: $json.orderNo, status: $json.status }) }}',
			options: {},
		},
	});
	for (const currency of ['TZS', 'NGN'] as const) {
		const trigger = b.add({
			name: `${currency} results`,
			type: 'n8n-nodes-haipay.haiPayTrigger',
			typeVersion: 1.1,
			webhookId: E2E_HOOKS[currency],
			parameters: { kind: 'payout', options: {} },
			credentials: credentialOf(currency),
		});
		b.connect(trigger, step);
	}
	return b.body('bench: a bulk payout end to end, its callbacks');
}

/** The bulk rows' workflow with a notifyUrl per App ID, and 6 payees in every 50 that the sandbox fails. */
export function e2eBulkWorkflow(notifyUrls: Record<'TZS' | 'NGN', string>): WorkflowBody {
	const workflow = haiPayWorkflow(E2E_BULK_PATH, E2E_SETTINGS.inFlight);
	const failing = JSON.stringify(E2E_SETTINGS.failing);
	const code = ROWS_CODE.replace('  out.push(', `  if (${failing}.includes(i % 50)) common.name = 'Fail Payout';\n  out.push(`);
	if (code === ROWS_CODE) throw new Error('the bulk rows code changed: cannot add the failing payees');
	for (const node of workflow.nodes) {
		if (node.name === 'Rows') node.parameters.jsCode = code;
		const currency = node.name === 'Pay TZS' ? 'TZS' : node.name === 'Pay NGN' ? 'NGN' : undefined;
		if (currency) node.parameters.additionalFields = { ...((node.parameters.additionalFields as object | undefined) ?? {}), notifyUrl: notifyUrls[currency] };
	}
	workflow.name = 'bench: a bulk payout end to end, the payouts';
	return workflow;
}

interface FaultProxy {
	url(path: string): string;
	/** orderId → the fault its first attempt met. */
	injected: Map<string, 'refused' | 'answer lost'>;
	close(): Promise<void>;
}

/**
 * Stands between the sandbox and n8n. The first attempt of a chosen callback is refused (503, n8n never sees it)
 * or passed on with n8n's answer replaced by 502 (n8n ran it; the answer was lost); everything else passes.
 */
function startFaultProxy(port: number, target: string, fault: (orderId: string) => 'refused' | 'answer lost' | undefined): Promise<FaultProxy> {
	const seen = new Set<string>();
	const injected = new Map<string, 'refused' | 'answer lost'>();
	const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
	const upstream = new URL(target);
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			let orderId = '';
			try {
				orderId = String((JSON.parse(body.toString('utf8')) as { orderId?: unknown }).orderId ?? '');
			} catch {
				// passed on as it came
			}
			const first = orderId !== '' && !seen.has(orderId);
			if (first) seen.add(orderId);
			const kind = first ? fault(orderId) : undefined;
			if (kind !== undefined) injected.set(orderId, kind);
			if (kind === 'refused') {
				res.writeHead(503, { 'Content-Type': 'text/plain' }).end('injected fault: first attempt refused');
				return;
			}
			const forward = http.request(
				{ host: upstream.hostname, port: upstream.port, path: req.url, method: 'POST', agent, headers: { 'Content-Type': req.headers['content-type'] ?? 'application/json', 'Content-Length': body.length } },
				(answer) => {
					const parts: Buffer[] = [];
					answer.on('data', (chunk: Buffer) => parts.push(chunk));
					answer.on('end', () => {
						if (kind === 'answer lost') res.writeHead(502, { 'Content-Type': 'text/plain' }).end('injected fault: the answer was lost');
						else res.writeHead(answer.statusCode ?? 502, { 'Content-Type': answer.headers['content-type'] ?? 'text/plain' }).end(Buffer.concat(parts));
					});
				},
			);
			forward.on('error', (error) => res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`proxy: ${error.message}`));
			forward.end(body);
		});
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () =>
			resolve({
				url: (path) => `http://127.0.0.1:${port}${path}`,
				injected,
				close: () =>
					new Promise((done) => {
						agent.destroy();
						server.closeAllConnections();
						server.close(() => done());
					}),
			}),
		);
	});
}

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

const orderIndex = (orderId: string) => Number(orderId.slice(orderId.lastIndexOf('-') + 1));

/** How long after an injected first attempt ended its retry went out: the schedule's delay, then its turn. */
function retryDelays(attempts: CallbackAttempt[], injected: Map<string, unknown>): { median: number; max: number } {
	const byOrder = new Map<string, CallbackAttempt[]>();
	for (const attempt of attempts) if (injected.has(attempt.orderId)) byOrder.set(attempt.orderId, [...(byOrder.get(attempt.orderId) ?? []), attempt]);
	const delays: number[] = [];
	for (const list of byOrder.values()) {
		const first = list.find((a) => a.attempt === 1);
		const second = list.find((a) => a.attempt === 2);
		if (first && second) delays.push((Date.parse(second.at) - Date.parse(first.at) - first.durationMs) / 1000);
	}
	delays.sort((a, b) => a - b);
	return { median: delays[Math.floor(delays.length / 2)] ?? 0, max: delays[delays.length - 1] ?? 0 };
}

/** Waits until every order of the run is final and every callback series has ended (acknowledged or given up). */
async function callbacksDone(stack: BenchStack, tag: string, expected: number, progress: (line: string) => void): Promise<CallbackJob[]> {
	let said = Date.now();
	return until(
		'every callback of the bulk run to be acknowledged or given up',
		() => {
			const jobs = stack.sandbox.control.callbackJobs().filter((job) => job.orderId.startsWith(`${tag}-`));
			const pending = jobs.filter((job) => job.state === 'pending').length;
			if (Date.now() - said > 30_000) {
				progress(`  ${jobs.length - pending} of ${expected} callbacks ended, ${pending} pending`);
				said = Date.now();
			}
			return jobs.length >= expected && pending === 0 ? jobs : undefined;
		},
		90 * 60_000,
		1_000,
	);
}

export async function runEndToEnd(stack: BenchStack, progress: (line: string) => void): Promise<EndToEndFigures> {
	const s = E2E_SETTINGS;
	await assertPortFree(BENCH_PORTS.faultProxy, 'the benchmark fault proxy');
	await assertPortFree(BENCH_PORTS.counter, "the benchmark's business-step counter");
	const tag = `E${Date.now().toString(36).toUpperCase()}`;
	const counter = await startEffectCounter(BENCH_PORTS.counter);
	const proxy = await startFaultProxy(BENCH_PORTS.faultProxy, stack.n8nUrl, (orderId) =>
		orderId.startsWith(`${tag}-`) ? injectedFault(orderIndex(orderId)) : undefined,
	);
	const attempts: CallbackAttempt[] = [];
	const listen = (attempt: CallbackAttempt) => void (attempt.orderId.startsWith(`${tag}-`) && attempts.push(attempt));
	const { control } = stack.sandbox;
	try {
		const triggerId = await stack.addWorkflow(e2eTriggerWorkflow(counter.url(tag)), true);
		const hook = (currency: 'TZS' | 'NGN') => proxy.url(`/webhook/${E2E_HOOKS[currency]}/webhook`);
		await stack.addWorkflow(e2eBulkWorkflow({ TZS: hook('TZS'), NGN: hook('NGN') }), true);
		// Orders of the runs before are forgotten, so that only this run's orders move and call back.
		control.reset();
		control.setConfig({ manual: false, processingMs: 0, finalMs: s.finalMs, latencyMs: s.latencyMs, callbackSchedule: Array.from({ length: s.retries }, () => s.retryMs) });
		stack.sandbox.events.on('callback', listen);
		await settle(stack.server.pid);
		const sampler = new TreeSampler(stack.server.pid).begin();
		const started = Date.now();
		const answer = await httpRequest(`${stack.n8nUrl}/webhook/${E2E_BULK_PATH}?rows=${s.rows}&tag=${tag}`, { method: 'POST', raw: '', timeoutMs: 60 * 60_000 });
		const bulkSeconds = (Date.now() - started) / 1000;
		if (answer.status !== 200) throw new Error(`the bulk run answered HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
		const orders = control.orders().filter((order) => order.orderId.startsWith(`${tag}-`));
		progress(`  ${orders.length} payouts in ${bulkSeconds.toFixed(1)} s; waiting for their callbacks ...`);
		const jobs = await callbacksDone(stack, tag, orders.length, progress);
		const executions = await settledCount(stack.rest, triggerId, orders.length, progress);
		const cpu = sampler.end();
		const final = control.orders().filter((order) => order.orderId.startsWith(`${tag}-`));
		const byStatus: Record<string, number> = {};
		for (const order of final) byStatus[String(order.status)] = (byStatus[String(order.status)] ?? 0) + 1;
		const keys = new Set(counter.keys(tag));
		const steps = counter.of(tag);
		const acknowledgedAt = attempts.filter((a) => a.acknowledged).map((a) => Date.parse(a.at) + a.durationMs);
		let repeatedInjected = 0;
		let repeatedOther = 0;
		for (const job of jobs) {
			const byFault = proxy.injected.has(job.orderId) ? Math.min(1, job.attempts - 1) : 0;
			repeatedInjected += byFault;
			repeatedOther += job.attempts - 1 - byFault;
		}
		const kinds = [...proxy.injected.values()];
		const orderOfKey = new Map(final.map((order) => [`no:${order.orderNo}|${order.status}`, order.orderId]));
		const duplicatesAfter = { refused: 0, 'answer lost': 0, none: 0 };
		for (const key of counter.repeated(tag)) duplicatesAfter[proxy.injected.get(orderOfKey.get(key) ?? '') ?? 'none'] += 1;
		const retryAfter = retryDelays(attempts, proxy.injected);
		return {
			rows: s.rows,
			orders: final.length,
			byStatus,
			bulkSeconds,
			lastAcknowledgedSeconds: acknowledgedAt.length === 0 ? 0 : (Math.max(...acknowledgedAt) - started) / 1000,
			callbacks: jobs.length,
			attempts: jobs.reduce((sum, job) => sum + job.attempts, 0),
			repeatedInjected,
			repeatedOther,
			injected: { refused: kinds.filter((k) => k === 'refused').length, answerLost: kinds.filter((k) => k === 'answer lost').length },
			gaveUp: jobs.filter((job) => job.state === 'gave-up').length,
			executions: executions.total,
			executionsSucceeded: await count(stack.rest, triggerId, ['success']),
			stuck: executions.active,
			businessSteps: steps.total,
			duplicates: steps.total - steps.distinct,
			duplicatesAfter,
			retryAfterSeconds: retryAfter,
			lost: final.filter((order) => !keys.has(`no:${order.orderNo}|${order.status}`)).length,
			n8nCpuMsPerCallback: cpu.cpuMs / Math.max(1, jobs.length),
			settings: s,
		};
	} finally {
		stack.sandbox.events.off('callback', listen);
		control.setConfig({ manual: true, latencyMs: 0, callbackSchedule: [] });
		await proxy.close();
		await counter.close();
	}
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
