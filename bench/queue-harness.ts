import { parse } from 'flatted';
import { readFileSync } from 'fs';
import http from 'http';
import { join } from 'path';

import type { WorkflowBody } from '../dev/workflow-builder';
import { defaultSecret, signBody, type Order, type Sandbox } from '../sandbox';
import { TEST_KEY_DIR } from '../sandbox/keys';
import { loadPrivateKey } from '../sandbox/signing';
import { queuePorts, startQueueStack, type QueueStack } from '../playground/lib/queue';
import { httpRequest } from '../playground/lib/rest';
import { buildPackage, startSandboxGateway } from '../playground/lib/session';
import { APP_IDS } from '../test/fixtures/bodies';
import type { CallbackJob, CallbackResult } from './callbacks-client';
import { postJson, runClient } from './load-client';
import { createWorkflow } from './stack';

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

/** Counts business-step requests per key: the body's `dedupKey`, or `orderNo|status` for bodies without one. */
export interface EffectCounter {
	url(label: string): string;
	/** Requests received for a label, and how many distinct keys they carried. */
	of(label: string): { total: number; distinct: number };
	/** The distinct keys received for a label. */
	keys(label: string): string[];
	/** The keys received more than once for a label. */
	repeated(label: string): string[];
	close(): Promise<void>;
}

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
	sendCallbacks(url: string, job: { count: number; runId: string; forged?: boolean; concurrency?: number }): Promise<CallbackResult>;
	/** Payout orders made at the sandbox with a final status, whose callbacks `deliver` sends. */
	seedOrders(count: number, tag: string): Order[];
	/**
	 * Each order's callback as HaiPay signs it (every field of the order's state), posted to `url`: real orders, so
	 * that a trigger that asks HaiPay for the order ("Confirm With HaiPay") finds it. With several URLs, each
	 * callback is posted to all of them at the same moment (and counted once per URL); `concurrency` callbacks at a time.
	 */
	deliver(url: string | string[], orders: Order[], concurrency: number): Promise<{ acknowledged: number; other: number; firstOther?: string }>;
	/** Resolves when the workflow has `expected` executions or more and none is new or running. */
	settled(workflowId: string, expected: number, timeoutMs?: number): Promise<ExecutionCounts>;
	stop(): Promise<void>;
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs` naming what it waited for. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, intervalMs = 250): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/** Maps `items` through `work` with at most `concurrency` at a time; results in the order of the items. */
async function inPool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array<R>(items.length);
	let next = 0;
	const lane = async () => {
		for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index]);
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
	return results;
}

export function startEffectCounter(port: number): Promise<EffectCounter> {
	const seen = new Map<string, Map<string, number>>();
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			const label = (req.url ?? '/').replace(/^\/effect\//, '');
			let key = body;
			try {
				const parsed = JSON.parse(body) as { dedupKey?: unknown; orderNo?: unknown; status?: unknown };
				key = typeof parsed.dedupKey === 'string' ? parsed.dedupKey : `${String(parsed.orderNo)}|${String(parsed.status)}`;
			} catch {
				// counted under the raw body
			}
			const keys = seen.get(label) ?? new Map<string, number>();
			seen.set(label, keys);
			keys.set(key, (keys.get(key) ?? 0) + 1);
			res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
		});
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () =>
			resolve({
				url: (label) => `http://127.0.0.1:${port}/effect/${label}`,
				of: (label) => {
					const keys = seen.get(label) ?? new Map<string, number>();
					return { total: [...keys.values()].reduce((sum, n) => sum + n, 0), distinct: keys.size };
				},
				keys: (label) => [...(seen.get(label)?.keys() ?? [])],
				repeated: (label) => [...(seen.get(label)?.entries() ?? [])].filter(([, n]) => n > 1).map(([key]) => key),
				close: () =>
					new Promise((done) => {
						server.closeAllConnections();
						server.close(() => done());
					}),
			}),
		);
	});
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

export async function startQueueHarness(options: HarnessOptions): Promise<QueueHarness> {
	const ports = queuePorts(options.base);
	if (options.build !== false) {
		options.log('building the package');
		await buildPackage();
	}
	let sandbox: Sandbox | undefined;
	let stack: QueueStack | undefined;
	let effects: EffectCounter | undefined;
	const stop = async () => {
		await stack?.stop();
		await effects?.close();
		await sandbox?.close();
	};
	try {
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
		sandbox = gateway.sandbox;
		effects = await startEffectCounter(options.base + 10);
		stack = await startQueueStack({
			dir: join(options.dir, 'n8n'),
			ports,
			workers: options.workers,
			webhooks: options.webhooks,
			credentialsFile: gateway.credentialsFile,
			fresh: true,
			logLevel: options.logLevel ?? 'info',
			log: options.log,
		});
		const running = stack;
		const seeded = gateway.sandbox;
		const platformPrivateKey = readFileSync(join(options.dir, 'sandbox', 'keys', 'platform.pkcs8.pem'), 'utf8');
		const counts = (workflowId: string): ExecutionCounts => {
			const rows = running.sql(`SELECT status, count(*) FROM execution_entity WHERE "workflowId" = '${workflowId.replace(/'/g, '')}' GROUP BY status`);
			const out: ExecutionCounts = { total: 0, active: 0, success: 0, failed: 0 };
			for (const [status, n] of rows) {
				const count = Number(n);
				out.total += count;
				if (['new', 'running', 'waiting'].includes(status)) out.active += count;
				else if (status === 'success') out.success += count;
				else out.failed += count;
			}
			return out;
		};
		return {
			sandbox,
			stack,
			effects,
			platformPrivateKey,
			addWorkflow: async (workflow, activate) => {
				const id = await createWorkflow(running.rest, workflow, activate);
				if (activate) await servedEverywhere(running, workflow);
				return id;
			},
			counts,
			executions: (workflowId) =>
				running
					.sql(`SELECT id, status FROM execution_entity WHERE "workflowId" = '${workflowId.replace(/'/g, '')}' ORDER BY id DESC`)
					.map(([id, status]) => ({ id, status })),
			outcomes: async (executionId) => {
				const execution = (await running.rest.execution(executionId)) as { data: string };
				const data = parse(execution.data) as { resultData: { runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: { outcome?: unknown } }> | null> } }>> } };
				const out: Record<string, number> = {};
				for (const [node, runs] of Object.entries(data.resultData.runData)) {
					if (!node.startsWith('Pay ')) continue;
					for (const item of runs.flatMap((run) => run.data?.main?.[0] ?? [])) {
						const outcome = String(item.json.outcome ?? 'none');
						out[outcome] = (out[outcome] ?? 0) + 1;
					}
				}
				return out;
			},
			sendCallbacks: (url, job) => {
				const full: CallbackJob = {
					url,
					appId: APP_IDS.TZS,
					secret: 'test-only-secret-tzs',
					platformKey: platformPrivateKey,
					otherKey: readFileSync(join(TEST_KEY_DIR, 'other-test-only.pkcs8.pem'), 'utf8'),
					count: job.count,
					concurrency: job.concurrency ?? 20,
					forged: job.forged ?? false,
					runId: job.runId,
				};
				return runClient(join(__dirname, 'callbacks-client.ts'), full, 'the callback client', 45 * 60_000);
			},
			seedOrders: (n, tag) =>
				Array.from({ length: n }, (_, i) =>
					seeded.control.createOrder({ appId: APP_IDS.TZS, kind: 'payout', orderId: `${tag}-${i}`, amount: '1000', status: i % 10 === 9 ? 3 : 2, errorMsg: i % 10 === 9 ? 'Bank return' : undefined }),
				),
			deliver: async (url, orders, concurrency) => {
				const key = loadPrivateKey(platformPrivateKey);
				const payloads = orders.map((order) => {
					const body: Record<string, unknown> = {
						appId: order.appId,
						currency: order.currency,
						orderId: order.orderId,
						orderNo: order.orderNo,
						amount: order.amount,
						fee: order.fee,
						status: order.status,
						...(order.status === 2 ? { payTime: order.payTime } : { errorMsg: order.errorMsg }),
					};
					return JSON.stringify({ ...body, sign: signBody(body, defaultSecret('TZS'), key) });
				});
				const targets = (Array.isArray(url) ? url : [url]).map((each) => new URL(each));
				const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency * targets.length });
				// Each answer as `SUCCESS`, or what came instead.
				const once = (target: URL, payload: string) =>
					postJson(agent, target, payload, 60_000).then(
						(answer) => (answer.status === 200 && answer.text === 'SUCCESS' ? 'SUCCESS' : `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`),
						(error: Error) => error.message,
					);
				// A kept-alive connection that the server closed as the request went out is reset with no answer: HaiPay
				// sends such a callback again, and so does this, once. What proves exactly once is the business steps.
				const post = async (target: URL, payload: string) => {
					const first = await once(target, payload);
					return /ECONNRESET|socket hang up/.test(first) ? await once(target, payload) : first;
				};
				const answers = (await inPool(payloads, concurrency, (payload) => Promise.all(targets.map((target) => post(target, payload))))).flat();
				agent.destroy();
				const other = answers.filter((answer) => answer !== 'SUCCESS');
				return { acknowledged: answers.length - other.length, other: other.length, firstOther: other[0] };
			},
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
	} catch (error) {
		await stop();
		throw error;
	}
}

/** POSTs to a bulk workflow's webhook and resolves with n8n's answer once the run has finished. */
export function runBulkWebhook(baseUrl: string, path: string, rows: number, tag: string, timeoutMs = 600_000): Promise<{ status: number; body: string }> {
	return httpRequest(`${baseUrl}/webhook/${path}?rows=${rows}&tag=${tag}`, { method: 'POST', raw: '', timeoutMs });
}
