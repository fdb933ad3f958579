import { readFileSync } from 'fs';
import { join } from 'path';

import type { N8nRest } from '../playground/lib/rest';
import type { CallbackJob, CallbackResult } from './callbacks-client';
import { runClient } from './load-client';
import { settle, TreeSampler } from './proc';
import type { BenchStack } from './stack';

/** Signed callbacks into the active HaiPay Trigger workflow, from a separate process, then n8n's own count of runs. */

export interface CallbackFigures {
	genuine: CallbackResult & {
		executions: number;
		executionsSucceeded: number;
		lost: number;
		/** Stored executions that never ran to an end (new or running when everything else had settled). */
		stuck: number;
		cpuMsPerCallback: number;
		/** From the first callback sent until the last execution ended. */
		drainSeconds: number;
		executionsPerSecond: number;
	};
	forged: CallbackResult & { executions: number };
}

function load(job: CallbackJob): Promise<CallbackResult> {
	return runClient(join(__dirname, 'callbacks-client.ts'), job, 'the callback client');
}

/** Every status n8n gives an execution; the list counts only finished ones unless asked for each status. */
const ALL_STATUSES = ['new', 'running', 'waiting', 'success', 'error', 'crashed', 'canceled', 'unknown'];
const ACTIVE_STATUSES = ['new', 'running', 'waiting'];

async function count(rest: N8nRest, workflowId: string, status: string[] = ALL_STATUSES): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status }));
	const answer = await rest.call('GET', `/executions?filter=${filter}&limit=1`);
	if (answer.status !== 200) throw new Error(`counting executions failed: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
	return (answer.json as { data: { count: number } }).data.count;
}

interface Settled {
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
async function settledCount(rest: N8nRest, workflowId: string, expected: number, progress: (line: string) => void): Promise<Settled> {
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

export async function runCallbacks(
	stack: BenchStack,
	workflowId: string,
	url: string,
	options: { count: number; forged: number; concurrency: number; warmup: number },
	progress: (line: string) => void,
): Promise<CallbackFigures> {
	const runId = Date.now().toString(36).toUpperCase();
	const base = {
		url,
		appId: 1001,
		secret: 'test-only-secret-tzs',
		platformKey: stack.platformPrivateKey,
		otherKey: readFileSync(join(__dirname, '..', 'test', 'fixtures', 'keys', 'other-test-only.pkcs8.pem'), 'utf8'),
		concurrency: options.concurrency,
	};
	const warm = await load({ ...base, count: options.warmup, forged: false, runId: `${runId}W` });
	if (warm.acknowledged !== options.warmup) throw new Error(`callback warm-up: ${warm.acknowledged} of ${options.warmup} acknowledged: ${warm.firstOther}`);
	const before = (await settledCount(stack.rest, workflowId, options.warmup, progress)).total;
	const succeededBefore = await count(stack.rest, workflowId, ['success']);
	await settle(stack.server.pid);

	const sampler = new TreeSampler(stack.server.pid).begin();
	const started = Date.now();
	const genuine = await load({ ...base, count: options.count, forged: false, runId: `${runId}G` });
	const after = await settledCount(stack.rest, workflowId, before + options.count, progress);
	await settle(stack.server.pid);
	const cpu = sampler.end();
	const succeeded = (await count(stack.rest, workflowId, ['success'])) - succeededBefore;
	const executions = after.total - before;
	if (after.active > 0) progress(`  ${after.active} executions stay new or running: see ${stack.server.logFile}`);

	const forged = await load({ ...base, count: options.forged, forged: true, runId: `${runId}F` });
	const afterForged = (await settledCount(stack.rest, workflowId, after.total, progress)).total;
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
			drainSeconds,
			executionsPerSecond: executions / drainSeconds,
		},
		forged: { ...forged, executions: afterForged - after.total },
	};
}
