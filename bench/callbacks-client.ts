import http from 'http';

import { postJson } from '../dev/http';
import { loadPrivateKey, signBody } from '../sandbox/signing';
import { callbackBody } from '../test/fixtures/bodies';
import { percentile, serveOneJob } from './load-client';

/**
 * The load client of the callback benchmark, in its own process so that its signing and bookkeeping do not share
 * a core's event loop with the figures it takes. It posts payout results to the HaiPay Trigger's production URL
 * as HaiPay would (JSON, signed over every field with the platform key and the App ID's secret), or forged ones.
 */

export interface CallbackJob {
	url: string;
	appId: number;
	secret: string;
	/** PEM of the platform key: what genuine callbacks are signed with. */
	platformKey: string;
	/** PEM of a key HaiPay never had: what forgers sign with. */
	otherKey: string;
	count: number;
	concurrency: number;
	forged: boolean;
	/** Forged bodies padded with long text fields to about this many bytes (under the trigger's 64 KiB cap). */
	padTo?: number;
	runId: string;
	/**
	 * Orders the gateway really has, to call back about (Confirm With HaiPay queries each one): the i-th callback
	 * names the i-th order with its status. Without it, made-up orders are named.
	 */
	orders?: Array<{ orderId: string; orderNo: string; status: 2 | 3 }>;
}

export interface CallbackResult {
	sent: number;
	/** Answered 200 with the body `SUCCESS`. */
	acknowledged: number;
	/** Answered 401. */
	refused: number;
	/** Anything else: another status, another body, a network error. */
	other: number;
	firstOther?: string;
	seconds: number;
	perSecond: number;
	p50: number;
	p99: number;
	max: number;
}

/** As the gateway sends them: payTime on a success, errorMsg on a failure, and not the other. */
function body(job: CallbackJob, index: number): Record<string, unknown> {
	const order = job.orders?.[index];
	const failed = order === undefined ? index % 10 === 9 : order.status === 3;
	return callbackBody('payout', {
		appId: job.appId,
		orderId: order?.orderId ?? `CB-${job.runId}-${index}`,
		orderNo: order?.orderNo ?? `HP${job.runId}${String(index).padStart(7, '0')}`,
		amount: '1000',
		fee: '10',
		...(failed
			? { status: 3, payTime: undefined, errorMsg: 'Bank return: account invalid, closed or frozen' }
			: { status: 2, payTime: '2026-05-01 18:20:31', errorMsg: undefined }),
	});
}

/** `fields` with long text fields added until its JSON is about `bytes` long. */
function padded(fields: Record<string, unknown>, bytes: number): Record<string, unknown> {
	const out = { ...fields };
	for (let index = 0, size = JSON.stringify(out).length; size < bytes - 800; index++) {
		out[`remark${String(index).padStart(3, '0')}`] = 'x'.padEnd(320, 'y');
		size += 335;
	}
	return out;
}

/**
 * Four kinds of forgery, in turn: another key, the wrong secret, a made-up signature, a field changed after signing.
 * The second and fourth carry a signature HaiPay's key made, which the trigger can refuse only by hashing the body.
 */
function forgedBody(
	job: CallbackJob,
	index: number,
	platformKey: ReturnType<typeof loadPrivateKey>,
	otherKey: ReturnType<typeof loadPrivateKey>,
): string {
	const fields = job.padTo === undefined ? body(job, index) : padded(body(job, index), job.padTo);
	switch (index % 4) {
		case 0:
			return JSON.stringify({ ...fields, sign: signBody(fields, job.secret, otherKey) });
		case 1:
			return JSON.stringify({ ...fields, sign: signBody(fields, `${job.secret}-guessed`, platformKey) });
		case 2:
			return JSON.stringify({ ...fields, sign: Buffer.alloc(256, index % 256).toString('base64') });
		default:
			return JSON.stringify({ ...fields, sign: signBody(fields, job.secret, platformKey), amount: '1000000' });
	}
}

export async function run(job: CallbackJob): Promise<CallbackResult> {
	const platformKey = loadPrivateKey(job.platformKey);
	const otherKey = loadPrivateKey(job.otherKey);
	// Signed before the clock starts: the client's RSA work must not pace the run.
	const payloads = Array.from({ length: job.count }, (_, i) =>
		job.forged
			? forgedBody(job, i, platformKey, otherKey)
			: JSON.stringify({ ...body(job, i), sign: signBody(body(job, i), job.secret, platformKey) }),
	);
	const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
	const latencies: number[] = [];
	const result = { acknowledged: 0, refused: 0, other: 0, firstOther: undefined as string | undefined };
	let next = 0;
	const worker = async () => {
		while (next < payloads.length) {
			const index = next++;
			const started = performance.now();
			try {
				const answer = await postJson(job.url, payloads[index], { agent, timeoutMs: 30_000 });
				if (answer.status === 200 && answer.text === 'SUCCESS') result.acknowledged += 1;
				else if (answer.status === 401) result.refused += 1;
				else {
					result.other += 1;
					result.firstOther ??= `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`;
				}
			} catch (error) {
				result.other += 1;
				result.firstOther ??= (error as Error).message;
			}
			latencies.push(performance.now() - started);
		}
	};
	const started = process.hrtime.bigint();
	await Promise.all(Array.from({ length: job.concurrency }, worker));
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	agent.destroy();
	latencies.sort((a, b) => a - b);
	return {
		sent: job.count,
		...result,
		seconds,
		perSecond: job.count / seconds,
		p50: percentile(latencies, 50),
		p99: percentile(latencies, 99),
		max: latencies[latencies.length - 1] ?? 0,
	};
}

if (require.main === module) serveOneJob(run);
