import { readFileSync } from 'fs';
import { join } from 'path';

import type { WorkflowBody } from '../dev/workflow-builder';
import { credentialOf } from '../playground/examples';
import type { N8nRest } from '../playground/lib/rest';
import { TEST_KEY_DIR } from '../sandbox/keys';
import { APP_IDS } from '../test/fixtures/bodies';
import type { CallbackJob, CallbackResult } from './callbacks-client';
import { runClient } from './load-client';
import { settle, TreeSampler } from './proc';
import { measureRefusal, refusalRow } from './refusal';
import type { BenchStack } from './stack';
import { oneNode } from './workflows';

/** Signed callbacks into the active HaiPay Trigger workflow, from a separate process, then n8n's own count of runs. */

export interface CallbackFigures {
	genuine: CallbackResult & {
		executions: number;
		executionsSucceeded: number;
		lost: number;
		/** Stored executions that never ran to an end (new or running when everything else had settled). */
		stuck: number;
		cpuMsPerCallback: number;
		/** Wall clock (ms) when the genuine load started, and when n8n was idle again after it. */
		window?: { startedAt: number; endedAt: number };
		/** From the first callback sent until the last execution ended. */
		drainSeconds: number;
		executionsPerSecond: number;
	};
	forged: ForgedResult;
	/** The same forgeries padded to FORGED_LARGE_BYTES, when asked for. */
	forgedLarge?: ForgedResult;
}

/** Forged callbacks: what they were answered, executions they started (none), and n8n's CPU per request. */
type ForgedResult = CallbackResult & { executions: number; cpuMsPerRequest?: number; bytes?: number };

/** A forged body's size in the large forged load: under the trigger's 64 KiB cap, so that it is read. */
export const FORGED_LARGE_BYTES = 62_000;

function load(job: CallbackJob): Promise<CallbackResult> {
	return runClient(join(__dirname, 'callbacks-client.ts'), job, 'the callback client');
}

/** Every status n8n gives an execution; the list counts only finished ones unless asked for each status. */
const ALL_STATUSES = ['new', 'running', 'waiting', 'success', 'error', 'crashed', 'canceled', 'unknown'];
const ACTIVE_STATUSES = ['new', 'running', 'waiting'];

export async function count(rest: N8nRest, workflowId: string, status: string[] = ALL_STATUSES): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status }));
	const answer = await rest.call('GET', `/executions?filter=${filter}&limit=1`);
	if (answer.status !== 200)
		throw new Error(`counting executions failed: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
	return (answer.json as { data: { count: number } }).data.count;
}

export interface Settled {
	/** Executions of the workflow stored by n8n, whatever their status. */
	total: number;
	/** Of those, still new, running or waiting: none once n8n has finished, unless some are stuck. */
	active: number;
	/** When the counts last changed. */
	settledAt: number;
}

/**
 * Waits until n8n has finished every execution it stored: none is new or running and the count holds for a
 * second. The trigger answers SUCCESS before its execution is stored, so executions trail the answers. When
 * nothing moves for half a minute, what is missing is not coming: the counts are returned as they are.
 */
export async function settledCount(
	rest: N8nRest,
	workflowId: string,
	expected: number,
	progress: (line: string) => void,
): Promise<Settled> {
	let last = '';
	let lastChange = Date.now();
	let lastSaid = Date.now();
	for (;;) {
		const active = await count(rest, workflowId, ACTIVE_STATUSES);
		const total = await count(rest, workflowId);
		const now = `${total}/${active}`;
		if (now !== last) {
			last = now;
			lastChange = Date.now();
		} else if ((active === 0 && total >= expected) || Date.now() - lastChange > 30_000) {
			return { total, active, settledAt: lastChange };
		}
		if (Date.now() - lastSaid > 15_000) {
			progress(`  ${total} of ${expected} executions stored, ${active} of them new or running`);
			lastSaid = Date.now();
		}
		await new Promise((resolve) => setTimeout(resolve, 1_000));
	}
}

/**
 * Orders the sandbox really has, settled without a notifyUrl (so it sends no callback of its own): what the load
 * client names when the trigger confirms each callback with HaiPay's order query. One in ten failed.
 */
export function seedOrders(stack: BenchStack, count: number, runId: string): NonNullable<CallbackJob['orders']> {
	return Array.from({ length: count }, (_, index) => {
		const status = index % 10 === 9 ? 3 : 2;
		const order = stack.sandbox.control.createOrder({
			appId: APP_IDS.TZS,
			kind: 'payout',
			orderId: `CBQ-${runId}-${index}`,
			amount: '1000',
			holdFunds: false,
		});
		stack.sandbox.control.setStatus(
			order.orderNo,
			status,
			status === 3 ? { errorMsg: 'Bank return: account invalid, closed or frozen' } : {},
		);
		return { orderId: order.orderId, orderNo: order.orderNo, status };
	});
}

export async function runCallbacks(
	stack: BenchStack,
	workflowId: string,
	url: string,
	options: {
		count: number;
		forged: number;
		forgedLarge?: number;
		concurrency: number;
		warmup: number;
		confirmWithHaiPay?: boolean;
	},
	progress: (line: string) => void,
): Promise<CallbackFigures> {
	const runId = Date.now().toString(36).toUpperCase();
	const base = {
		url,
		appId: APP_IDS.TZS,
		secret: 'test-only-secret-tzs',
		platformKey: stack.platformPrivateKey,
		otherKey: readFileSync(join(TEST_KEY_DIR, 'other-test-only.pkcs8.pem'), 'utf8'),
		concurrency: options.concurrency,
	};
	// With Confirm With HaiPay on, every callback must name an order the gateway has, or it is answered 503.
	const orders = (id: string, count: number) =>
		options.confirmWithHaiPay === true ? { orders: seedOrders(stack, count, id) } : {};
	const warm = await load({
		...base,
		count: options.warmup,
		forged: false,
		runId: `${runId}W`,
		...orders(`${runId}W`, options.warmup),
	});
	if (warm.acknowledged !== options.warmup)
		throw new Error(`callback warm-up: ${warm.acknowledged} of ${options.warmup} acknowledged: ${warm.firstOther}`);
	const before = (await settledCount(stack.rest, workflowId, options.warmup, progress)).total;
	const genuineOrders = orders(`${runId}G`, options.count);
	const succeededBefore = await count(stack.rest, workflowId, ['success']);
	await settle(stack.server.pid);

	const sampler = new TreeSampler(stack.server.pid).begin();
	const started = Date.now();
	const genuine = await load({ ...base, count: options.count, forged: false, runId: `${runId}G`, ...genuineOrders });
	const after = await settledCount(stack.rest, workflowId, before + options.count, progress);
	await settle(stack.server.pid);
	const endedAt = Date.now();
	const cpu = sampler.end();
	const succeeded = (await count(stack.rest, workflowId, ['success'])) - succeededBefore;
	const executions = after.total - before;
	if (after.active > 0) progress(`  ${after.active} executions stay new or running: see ${stack.server.logFile}`);

	// n8n's CPU for each forged request, its executions counted after (none should start).
	const forgedLoad = async (count: number, suffix: string, padTo?: number): Promise<ForgedResult> => {
		const before = (await settledCount(stack.rest, workflowId, after.total, progress)).total;
		await settle(stack.server.pid);
		const forgedSampler = new TreeSampler(stack.server.pid).begin();
		const result = await load({ ...base, count, forged: true, padTo, runId: `${runId}${suffix}` });
		await settle(stack.server.pid);
		const used = forgedSampler.end();
		const executions = (await settledCount(stack.rest, workflowId, before, progress)).total - before;
		return { ...result, executions, cpuMsPerRequest: used.cpuMs / Math.max(count, 1), bytes: padTo };
	};
	const forged = await forgedLoad(options.forged, 'F');
	const forgedLarge =
		options.forgedLarge === undefined ? undefined : await forgedLoad(options.forgedLarge, 'L', FORGED_LARGE_BYTES);
	const drainSeconds = Math.max(genuine.seconds, (after.settledAt - started) / 1000);
	return {
		genuine: {
			...genuine,
			executions,
			executionsSucceeded: succeeded,
			// Lost: HaiPay was not told SUCCESS (it would resend), or it was and no execution ran to its end.
			lost: genuine.sent - genuine.acknowledged + Math.max(0, genuine.acknowledged - succeeded),
			stuck: after.active,
			cpuMsPerCallback: cpu.cpuMs / options.count,
			window: { startedAt: started, endedAt },
			drainSeconds,
			executionsPerSecond: executions / drainSeconds,
		},
		forged,
		...(forgedLarge === undefined ? {} : { forgedLarge }),
	};
}

/** The HaiPay Trigger alone with Confirm With HaiPay on: each callback is confirmed by the gateway's order query. */
export const CONFIRMED_CALLBACK_WEBHOOK_ID = 'bench-callbacks-confirmed';

export function confirmedTriggerWorkflow(): WorkflowBody {
	return oneNode('bench: HaiPay Trigger, Confirm With HaiPay', {
		name: 'HaiPay Trigger',
		type: 'n8n-nodes-haipay.haiPayTrigger',
		typeVersion: 1,
		webhookId: CONFIRMED_CALLBACK_WEBHOOK_ID,
		parameters: { options: { confirmWithHaiPay: true } },
		credentials: credentialOf('TZS'),
	});
}

/**
 * `npx tsx bench/callbacks.ts refusal [URL]`: the refusal figures alone (posting the largest body to URL too).
 * `npx tsx bench/callbacks.ts throughput [count] [off|on|both]`: the benchmark's n8n and sandbox, the trigger with Confirm With
 * HaiPay off and on, `count` callbacks into each (20 at a time, as the benchmark sends them), then the refusal over HTTP to the active trigger.
 */
async function cli(mode: string | undefined, arg: string | undefined, which = 'both'): Promise<void> {
	const say = (line: string) => process.stdout.write(`${line}\n`);
	const keysDir = TEST_KEY_DIR;
	const platformKey = readFileSync(join(keysDir, 'platform-test-only.pkcs8.pem'), 'utf8');
	if (mode !== 'throughput') {
		const figures = await measureRefusal(platformKey, { url: arg });
		say(`${JSON.stringify(figures, null, 2)}\n${refusalRow(figures)}`);
		return;
	}
	const count = Number(arg ?? 500);
	const { startBenchStack } = await import('./stack');
	const { CALLBACK_WEBHOOK_ID, triggerWorkflow } = await import('./workflows');
	const stack = await startBenchStack(say);
	try {
		const off = await stack.addWorkflow(triggerWorkflow(), true);
		const on = await stack.addWorkflow(confirmedTriggerWorkflow(), true);
		const load = { count, forged: 40, forgedLarge: 40, concurrency: 20, warmup: 20 };
		const results: Record<string, CallbackFigures> = {};
		const cases = [
			['confirm off', off, CALLBACK_WEBHOOK_ID, false],
			['confirm on', on, CONFIRMED_CALLBACK_WEBHOOK_ID, true],
		] as const;
		for (const [name, id, hook, confirm] of cases.filter(
			([, , , confirm]) => which === 'both' || (which === 'on') === confirm,
		)) {
			await stack.restartN8n();
			say(`${name}: ${count} callbacks ...`);
			const figures = await runCallbacks(
				stack,
				id,
				`${stack.n8nUrl}/webhook/${hook}/webhook`,
				{ ...load, confirmWithHaiPay: confirm },
				say,
			);
			results[name] = figures;
			const g = figures.genuine;
			say(
				`  ${g.perSecond.toFixed(1)} accepted/s, p50 ${g.p50.toFixed(1)} ms, p99 ${g.p99.toFixed(1)} ms, ${g.executionsPerSecond.toFixed(1)} executions/s, ${g.cpuMsPerCallback.toFixed(2)} CPU ms/callback, lost ${g.lost}, other answers ${g.other} (${g.firstOther ?? '-'}), forged refused ${figures.forged.refused}/${figures.forged.sent}`,
			);
		}
		const refusal = await measureRefusal(stack.platformPrivateKey, {
			url: `${stack.n8nUrl}/webhook/${CALLBACK_WEBHOOK_ID}/webhook`,
		});
		say(refusalRow(refusal));
	} finally {
		await stack.stop();
	}
}

if (require.main === module) {
	void cli(process.argv[2], process.argv[3], process.argv[4]).catch((error: unknown) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exitCode = 1;
	});
}
