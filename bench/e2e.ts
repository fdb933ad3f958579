import type { CallbackAttempt, CallbackJob } from '../sandbox';
import { WorkflowBuilder, type WorkflowBody } from '../dev/workflow-builder';
import { credentialOf } from '../playground/examples';
import { assertPortFree } from '../playground/lib/instance';
import { httpRequest } from '../playground/lib/rest';
import { settledCount } from './callbacks';
import { settle, TreeSampler } from './proc';
import { startEffectCounter, type EffectCounter } from './effect-counter';
import { figuresOf, type EndToEndFigures, type RunObservation } from './e2e-figures';
import { startFaultProxy, type FaultProxy, type InjectedFault } from './fault-proxy';
import { until } from './until';
import { BENCH_PORTS, type BenchStack } from './stack';
import { haiPayWorkflow, ROWS_CODE } from './workflows';
import { E2E_SETTINGS } from './e2e-settings';

export { E2E_SETTINGS } from './e2e-settings';

/**
 * A bulk payout end to end on one n8n: the HaiPay node pays N rows at the sandbox with a notifyUrl, the sandbox
 * settles each order and posts its result, with retries, to an active HaiPay Trigger workflow on the same n8n,
 * which ends in a business step counted per dedupKey. A proxy in front of n8n fails the first attempt of a few
 * callbacks on purpose, so that repeats caused by those faults are told apart from repeats n8n caused.
 */

export const E2E_BULK_PATH = 'bench-e2e-bulk';
export const E2E_HOOKS = { TZS: 'bench-e2e-tzs', NGN: 'bench-e2e-ngn' } as const;

/** A row index's injected fault on the first attempt of its callback, if any. */
export function injectedFault(index: number): InjectedFault | undefined {
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
	const code = ROWS_CODE.replace(
		'  out.push(',
		`  if (${failing}.includes(i % 50)) common.name = 'Fail Payout';\n  out.push(`,
	);
	if (code === ROWS_CODE) throw new Error('the bulk rows code changed: cannot add the failing payees');
	for (const node of workflow.nodes) {
		if (node.name === 'Rows') node.parameters.jsCode = code;
		const currency = node.name === 'Pay TZS' ? 'TZS' : node.name === 'Pay NGN' ? 'NGN' : undefined;
		if (currency)
			node.parameters.additionalFields = {
				...((node.parameters.additionalFields as object | undefined) ?? {}),
				notifyUrl: notifyUrls[currency],
			};
	}
	workflow.name = 'bench: a bulk payout end to end, the payouts';
	return workflow;
}

const orderIndex = (orderId: string) => Number(orderId.slice(orderId.lastIndexOf('-') + 1));

/** Waits until every order of the run is final and every callback series has ended (acknowledged or given up). */
async function callbacksDone(
	stack: BenchStack,
	tag: string,
	expected: number,
	progress: (line: string) => void,
): Promise<CallbackJob[]> {
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

/** The two workflows on n8n, then the sandbox set to settle this run's orders and call back on the schedule. */
async function setUpRun(stack: BenchStack, counter: EffectCounter, proxy: FaultProxy, tag: string): Promise<string> {
	const s = E2E_SETTINGS;
	const triggerId = await stack.addWorkflow(e2eTriggerWorkflow(counter.url(tag)), true);
	const hook = (currency: 'TZS' | 'NGN') => proxy.url(`/webhook/${E2E_HOOKS[currency]}/webhook`);
	await stack.addWorkflow(e2eBulkWorkflow({ TZS: hook('TZS'), NGN: hook('NGN') }), true);
	// Orders of the runs before are forgotten, so that only this run's orders move and call back.
	stack.sandbox.control.reset();
	stack.sandbox.control.setConfig({
		manual: false,
		processingMs: 0,
		finalMs: s.finalMs,
		latencyMs: s.latencyMs,
		callbackSchedule: Array.from({ length: s.retries }, () => s.retryMs),
	});
	return triggerId;
}

/** The bulk run through n8n, then every callback it caused and every execution they started, with n8n's CPU. */
async function observeRun(
	stack: BenchStack,
	tag: string,
	triggerId: string,
	progress: (line: string) => void,
): Promise<RunObservation> {
	const s = E2E_SETTINGS;
	await settle(stack.server.pid);
	const sampler = new TreeSampler(stack.server.pid).begin();
	const started = Date.now();
	const answer = await httpRequest(`${stack.n8nUrl}/webhook/${E2E_BULK_PATH}?rows=${s.rows}&tag=${tag}`, {
		method: 'POST',
		raw: '',
		timeoutMs: 60 * 60_000,
	});
	const bulkSeconds = (Date.now() - started) / 1000;
	if (answer.status !== 200)
		throw new Error(`the bulk run answered HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
	const orders = stack.sandbox.control.orders().filter((order) => order.orderId.startsWith(`${tag}-`));
	progress(`  ${orders.length} payouts in ${bulkSeconds.toFixed(1)} s; waiting for their callbacks ...`);
	const jobs = await callbacksDone(stack, tag, orders.length, progress);
	const executions = await settledCount(stack.rest, triggerId, orders.length, progress);
	const cpu = sampler.end();
	return { started, bulkSeconds, jobs, executions, cpuMs: cpu.cpuMs };
}

export async function runEndToEnd(stack: BenchStack, progress: (line: string) => void): Promise<EndToEndFigures> {
	await assertPortFree(BENCH_PORTS.faultProxy, 'the benchmark fault proxy');
	await assertPortFree(BENCH_PORTS.counter, "the benchmark's business-step counter");
	const tag = `E${Date.now().toString(36).toUpperCase()}`;
	const counter = await startEffectCounter(BENCH_PORTS.counter);
	const proxy = await startFaultProxy(BENCH_PORTS.faultProxy, stack.n8nUrl, (orderId) =>
		orderId.startsWith(`${tag}-`) ? injectedFault(orderIndex(orderId)) : undefined,
	);
	const attempts: CallbackAttempt[] = [];
	const listen = (attempt: CallbackAttempt) => void (attempt.orderId.startsWith(`${tag}-`) && attempts.push(attempt));
	try {
		const triggerId = await setUpRun(stack, counter, proxy, tag);
		stack.sandbox.events.on('callback', listen);
		const run = await observeRun(stack, tag, triggerId, progress);
		return await figuresOf({
			stack,
			tag,
			triggerId,
			counter,
			injected: proxy.injected,
			attempts,
			run,
			settings: E2E_SETTINGS,
		});
	} finally {
		stack.sandbox.events.off('callback', listen);
		stack.sandbox.control.setConfig({ manual: true, latencyMs: 0, callbackSchedule: [] });
		await proxy.close();
		await counter.close();
	}
}
