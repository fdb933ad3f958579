import { parse } from 'flatted';
import { readFileSync } from 'fs';
import { join } from 'path';

import type { WorkflowBody } from '../dev/workflow-builder';
import type { Order, Sandbox } from '../sandbox';
import { queuePorts, startQueueStack, type QueueStack } from '../playground/lib/queue';
import { httpRequest } from '../playground/lib/rest';
import { buildPackage, startSandboxGateway } from '../playground/lib/session';
import type { CallbackResult } from './callbacks-client';
import { startEffectCounter, type EffectCounter } from './effect-counter';
import { deliver, seedFinalOrders, sendCallbacks } from './queue-callbacks';
import { createWorkflow } from './stack';
import { until } from './until';

/**
 * A queue-mode stack with a sandbox and an effect counter, for the queue tests and the queue benchmark: workflows
 * go in through the main's REST API, webhooks through the balancer or one webhook processor, and what n8n did is
 * read from its database.
 */

/** Port bases: the queue tests and the queue benchmark run beside `npm run start:queue` (5720) and each other. */
export const QUEUE_TEST_BASE = 5800;
export const QUEUE_BENCH_BASE = 5880;

export interface ExecutionCounts {
	total: number;
	/** new, running or waiting */
	active: number;
	success: number;
	/** error, crashed, canceled and anything else */
	failed: number;
}

export type { EffectCounter } from './effect-counter';
export { until };

export interface QueueHarness {
	sandbox: Sandbox;
	stack: QueueStack;
	effects: EffectCounter;
	platformPrivateKey: string;
	/** Creates a workflow; with `activate`, publishes it and waits until every webhook processor serves its POST webhooks. */
	addWorkflow(workflow: WorkflowBody, activate: boolean): Promise<string>;
	counts(workflowId: string): ExecutionCounts;
	/** Executions of a workflow, newest first: id and status. */
	executions(workflowId: string): Array<{ id: string; status: string }>;
	/** The `outcome` of every item the HaiPay nodes of an execution put out, counted: accepted, duplicate, ... */
	outcomes(executionId: string): Promise<Record<string, number>>;
	/** Signed (or forged) payout callbacks from a separate process, as bench/callbacks-client.ts sends them. */
	sendCallbacks(
		url: string,
		job: { count: number; runId: string; forged?: boolean; concurrency?: number },
	): Promise<CallbackResult>;
	/** Payout orders made at the sandbox with a final status, whose callbacks `deliver` sends. */
	seedOrders(count: number, tag: string): Order[];
	/**
	 * Each order's callback as HaiPay signs it (every field of the order's state), posted to `url`: real orders, so
	 * that a trigger that asks HaiPay for the order ("Confirm With HaiPay") finds it. With several URLs, each
	 * callback is posted to all of them at the same moment (and counted once per URL); `concurrency` callbacks at a time.
	 */
	deliver(
		url: string | string[],
		orders: Order[],
		concurrency: number,
	): Promise<{ acknowledged: number; other: number; firstOther?: string }>;
	/** Resolves when the workflow has `expected` executions or more and none is new or running. */
	settled(workflowId: string, expected: number, timeoutMs?: number): Promise<ExecutionCounts>;
	stop(): Promise<void>;
}

/** The production paths of a workflow's webhooks: the Webhook node's path, or the trigger's `<webhookId>/webhook`. */
function webhookPaths(workflow: WorkflowBody): string[] {
	return workflow.nodes
		.filter((node) => node.webhookId !== undefined)
		.map((node) => (typeof node.parameters.path === 'string' ? node.parameters.path : `${node.webhookId}/webhook`));
}

/**
 * Activation is the main's work; a webhook processor finds the webhook in the database once the main has stored
 * it. A GET to a POST-only webhook answers 404 with a hint to use POST once it is known, and a plain "not
 * registered" before.
 */
async function servedEverywhere(stack: QueueStack, workflow: WorkflowBody): Promise<void> {
	for (const path of webhookPaths(workflow)) {
		for (const processor of stack.webhooks) {
			await until(
				`${processor.name} to serve /webhook/${path}`,
				async () => {
					const answer = await httpRequest(`${processor.server.url}/webhook/${path}`, { method: 'GET' });
					return answer.status !== 404 || /POST request/.test(answer.body) ? true : undefined;
				},
				60_000,
			);
		}
	}
}

export interface HarnessOptions {
	base: number;
	dir: string;
	workers: number;
	webhooks: number;
	log: (line: string) => void;
	/** Sandbox latency per answer (ms); the benchmark sets it per run through the control API too. */
	latencyMs?: number;
	logLevel?: 'error' | 'warn' | 'info' | 'debug';
	build?: boolean;
}

/** The parts the harness starts, kept as they come up so that a failed start stops those already running. */
interface Parts {
	sandbox?: Sandbox;
	effects?: EffectCounter;
	stack?: QueueStack;
}

export async function startQueueHarness(options: HarnessOptions): Promise<QueueHarness> {
	if (options.build !== false) {
		options.log('building the package');
		await buildPackage();
	}
	const parts: Parts = {};
	const stop = async () => {
		await parts.stack?.stop();
		await parts.effects?.close();
		await parts.sandbox?.close();
	};
	try {
		return harnessOver(await startParts(options, parts), options, stop);
	} catch (error) {
		await stop();
		throw error;
	}
}

/** The sandbox, the effect counter, then the queue stack with the sandbox's credentials. */
async function startParts(options: HarnessOptions, parts: Parts): Promise<Required<Parts>> {
	const ports = queuePorts(options.base);
	// Orders stay where the apply puts them (manual): no settle timers or callbacks add work to the figures.
	const gateway = await startSandboxGateway({
		port: ports.sandbox,
		stateDir: join(options.dir, 'sandbox'),
		persist: false,
		fresh: true,
		manual: true,
		latencyMs: options.latencyMs ?? 0,
		callbackSchedule: [],
	});
	const sandbox = (parts.sandbox = gateway.sandbox);
	const effects = (parts.effects = await startEffectCounter(options.base + 10));
	const stack = (parts.stack = await startQueueStack({
		dir: join(options.dir, 'n8n'),
		ports,
		workers: options.workers,
		webhooks: options.webhooks,
		credentialsFile: gateway.credentialsFile,
		fresh: true,
		logLevel: options.logLevel ?? 'info',
		log: options.log,
	}));
	return { sandbox, effects, stack };
}

function harnessOver(
	{ sandbox, effects, stack }: Required<Parts>,
	options: HarnessOptions,
	stop: () => Promise<void>,
): QueueHarness {
	const platformPrivateKey = readFileSync(join(options.dir, 'sandbox', 'keys', 'platform.pkcs8.pem'), 'utf8');
	const counts = (workflowId: string) => executionCounts(stack, workflowId);
	return {
		sandbox,
		stack,
		effects,
		platformPrivateKey,
		addWorkflow: async (workflow, activate) => {
			const id = await createWorkflow(stack.rest, workflow, activate);
			if (activate) await servedEverywhere(stack, workflow);
			return id;
		},
		counts,
		executions: (workflowId) =>
			stack
				.sql(`SELECT id, status FROM execution_entity WHERE "workflowId" = '${quoted(workflowId)}' ORDER BY id DESC`)
				.map(([id, status]) => ({ id, status })),
		outcomes: (executionId) => payoutOutcomes(stack, executionId),
		sendCallbacks: (url, job) => sendCallbacks(url, job, platformPrivateKey),
		seedOrders: (n, tag) => seedFinalOrders(sandbox, n, tag),
		deliver: (url, orders, concurrency) => deliver(url, orders, concurrency, platformPrivateKey),
		settled: (workflowId, expected, timeoutMs = 300_000) =>
			until(
				`${expected} finished executions of workflow ${workflowId}`,
				() => {
					const now = counts(workflowId);
					return now.total >= expected && now.active === 0 ? now : undefined;
				},
				timeoutMs,
				500,
			),
		stop,
	};
}

/** A workflow id inside an SQL string: quotes dropped (ids are n8n's own, never quoted). */
const quoted = (workflowId: string) => workflowId.replace(/'/g, '');

/** The workflow's executions in n8n's database, counted by how they stand. */
function executionCounts(stack: QueueStack, workflowId: string): ExecutionCounts {
	const rows = stack.sql(
		`SELECT status, count(*) FROM execution_entity WHERE "workflowId" = '${quoted(workflowId)}' GROUP BY status`,
	);
	const out: ExecutionCounts = { total: 0, active: 0, success: 0, failed: 0 };
	for (const [status, n] of rows) {
		const count = Number(n);
		out.total += count;
		if (['new', 'running', 'waiting'].includes(status)) out.active += count;
		else if (status === 'success') out.success += count;
		else out.failed += count;
	}
	return out;
}

type StoredRunData = Record<string, Array<{ data?: { main?: Array<Array<{ json: { outcome?: unknown } }> | null> } }>>;

/** The `outcome` of every item the HaiPay nodes ("Pay ...") of an execution put out, counted. */
async function payoutOutcomes(stack: QueueStack, executionId: string): Promise<Record<string, number>> {
	const execution = (await stack.rest.execution(executionId)) as { data: string };
	const data = parse(execution.data) as { resultData: { runData: StoredRunData } };
	const out: Record<string, number> = {};
	for (const [node, runs] of Object.entries(data.resultData.runData)) {
		if (!node.startsWith('Pay ')) continue;
		for (const item of runs.flatMap((run) => run.data?.main?.[0] ?? [])) {
			const outcome = String(item.json.outcome ?? 'none');
			out[outcome] = (out[outcome] ?? 0) + 1;
		}
	}
	return out;
}

/** POSTs to a bulk workflow's webhook and resolves with n8n's answer once the run has finished. */
export function runBulkWebhook(
	baseUrl: string,
	path: string,
	rows: number,
	tag: string,
	timeoutMs = 600_000,
): Promise<{ status: number; body: string }> {
	return httpRequest(`${baseUrl}/webhook/${path}?rows=${rows}&tag=${tag}`, { method: 'POST', raw: '', timeoutMs });
}
