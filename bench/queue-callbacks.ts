import { readFileSync } from 'fs';
import http from 'http';
import { join } from 'path';

import { postJson } from '../dev/http';
import { defaultSecret, signBody, type Order, type Sandbox } from '../sandbox';
import { TEST_KEY_DIR } from '../sandbox/keys';
import { loadPrivateKey } from '../sandbox/signing';
import { APP_IDS } from '../test/fixtures/bodies';
import type { CallbackJob, CallbackResult } from './callbacks-client';
import { runClient } from './load-client';

/**
 * The callbacks the queue harness sends a stack: made-up ones from a client process (throughput), and those of
 * real sandbox orders, posted from this process (repeat detection, Confirm With HaiPay).
 */

/** Signed (or forged) payout callbacks from a separate process, as bench/callbacks-client.ts sends them. */
export function sendCallbacks(
	url: string,
	job: { count: number; runId: string; forged?: boolean; concurrency?: number },
	platformPrivateKey: string,
): Promise<CallbackResult> {
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
}

/** Payout orders made at the sandbox with a final status, one in ten failed. */
export function seedFinalOrders(sandbox: Sandbox, count: number, tag: string): Order[] {
	return Array.from({ length: count }, (_, i) =>
		sandbox.control.createOrder({
			appId: APP_IDS.TZS,
			kind: 'payout',
			orderId: `${tag}-${i}`,
			amount: '1000',
			status: i % 10 === 9 ? 3 : 2,
			errorMsg: i % 10 === 9 ? 'Bank return' : undefined,
		}),
	);
}

/** An order's callback as HaiPay signs it: every field of the order's state, payTime on a success, errorMsg on a failure. */
function signedCallback(order: Order, key: ReturnType<typeof loadPrivateKey>): string {
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

/**
 * Each order's callback posted to `url`; with several URLs, to all of them at the same moment (counted once per
 * URL); `concurrency` callbacks at a time, over keep-alive connections.
 */
export async function deliver(
	url: string | string[],
	orders: Order[],
	concurrency: number,
	platformPrivateKey: string,
): Promise<{ acknowledged: number; other: number; firstOther?: string }> {
	const key = loadPrivateKey(platformPrivateKey);
	const payloads = orders.map((order) => signedCallback(order, key));
	const targets = Array.isArray(url) ? url : [url];
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency * targets.length });
	// Each answer as `SUCCESS`, or what came instead.
	const once = (target: string, payload: string) =>
		postJson(target, payload, { agent, timeoutMs: 60_000 }).then(
			(answer) =>
				answer.status === 200 && answer.text === 'SUCCESS'
					? 'SUCCESS'
					: `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`,
			(error: Error) => error.message,
		);
	// A kept-alive connection that the server closed as the request went out is reset with no answer: HaiPay
	// sends such a callback again, and so does this, once. What proves exactly once is the business steps.
	const post = async (target: string, payload: string) => {
		const first = await once(target, payload);
		return /ECONNRESET|socket hang up/.test(first) ? await once(target, payload) : first;
	};
	const answers = (
		await inPool(payloads, concurrency, (payload) => Promise.all(targets.map((target) => post(target, payload))))
	).flat();
	agent.destroy();
	const other = answers.filter((answer) => answer !== 'SUCCESS');
	return { acknowledged: answers.length - other.length, other: other.length, firstOther: other[0] };
}
