import { readFileSync } from 'fs';
import http from 'http';
import { join } from 'path';

import { TEST_KEY_DIR } from '../sandbox/keys';
import { loadPrivateKey, signBody } from '../sandbox/signing';
import { payoutBody } from '../test/fixtures/bodies';
import { percentile, serveOneJob } from './load-client';

/**
 * The load client of bench/sandbox.ts, run as its own process so that its signing and JSON work does not share
 * an event loop with the server it measures. It takes one job over IPC, answers with the figures, and exits.
 */

export interface LoadJob {
	baseUrl: string;
	path: string;
	concurrency: number;
	warmup: number;
	requests: number;
	/** Check every answer is a success envelope (the baseline answers one too). */
	expectSuccess: boolean;
	label: string;
	runId: string;
	/**
	 * Requests per second to offer. Absent: as fast as the server answers (closed loop). Set: each request has a
	 * start time on a fixed schedule, and its latency counts from that time, so a stalled server is not excused
	 * by the client waiting for it.
	 */
	rate?: number;
	/** False: a new TCP connection for every request, as n8n's request helper opens them. Default: keep-alive. */
	keepAlive?: boolean;
}

export interface LoadResult {
	label: string;
	requests: number;
	errors: number;
	firstError?: string;
	seconds: number;
	perSecond: number;
	p50: number;
	p90: number;
	p99: number;
	max: number;
}

/**
 * One POST on `node:http`, not on axios as the dev side's other clients (dev/http.ts): this client measures the
 * sandbox against a bare `node:http` server at thousands of requests a second over keep-alive connections, where
 * the client's own cost shows in the figures. On this machine axios took twice the client CPU per request and
 * halved the rate one client process reaches; the callback clients, whose server takes milliseconds, use axios.
 */
function postJson(
	agent: http.Agent,
	url: URL,
	payload: string,
	timeoutMs: number,
): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const request = http.request(
			url,
			{
				method: 'POST',
				agent,
				headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
				timeout: timeoutMs,
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
				);
				response.on('error', reject);
			},
		);
		request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
		request.on('error', reject);
		request.end(payload);
	});
}

const merchantKey = loadPrivateKey(readFileSync(join(TEST_KEY_DIR, 'merchant-test-only.pkcs8.pem'), 'utf8'));

/**
 * Signed TZS payouts, made before the clock starts: the client's own RSA work must not throttle the run. Each is
 * of the smallest amount, as every payout of the run is paid from the one balance.
 */
function bodies(count: number, runId: string): string[] {
	const out: string[] = [];
	for (let i = 0; i < count; i++) {
		const body = payoutBody('TZS', `BENCH-${runId}-${i}`, { amount: '1000' });
		body.sign = signBody(body, 'test-only-secret-tzs', merchantKey);
		out.push(JSON.stringify(body));
	}
	return out;
}

async function run(job: LoadJob): Promise<LoadResult> {
	const payloads = bodies(job.warmup + job.requests, job.runId);
	const agent = new http.Agent({ keepAlive: job.keepAlive ?? true, maxSockets: job.concurrency });
	const url = new URL(job.path, job.baseUrl);
	let errors = 0;
	let firstError: string | undefined;
	const latencies: number[] = [];

	async function phase(from: number, to: number, record: boolean): Promise<void> {
		let next = from;
		const origin = performance.now();
		const worker = async () => {
			while (next < to) {
				const index = next++;
				let started = performance.now();
				if (job.rate) {
					const due = origin + ((index - from) * 1000) / job.rate;
					if (due > started) await new Promise((resolve) => setTimeout(resolve, due - started));
					started = due;
				}
				try {
					const { text } = await postJson(agent, url, payloads[index], 10_000);
					if (job.expectSuccess && !text.startsWith('{"status":"1"')) throw new Error(text.slice(0, 200));
				} catch (error) {
					errors += 1;
					firstError ??= (error as Error).message;
				}
				if (record) latencies.push(performance.now() - started);
			}
		};
		await Promise.all(Array.from({ length: job.concurrency }, worker));
	}

	await phase(0, job.warmup, false);
	errors = 0;
	const started = process.hrtime.bigint();
	await phase(job.warmup, job.warmup + job.requests, true);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	agent.destroy();
	latencies.sort((a, b) => a - b);
	return {
		label: job.label,
		requests: job.requests,
		errors,
		firstError,
		seconds,
		perSecond: job.requests / seconds,
		p50: percentile(latencies, 50),
		p90: percentile(latencies, 90),
		p99: percentile(latencies, 99),
		max: latencies[latencies.length - 1] ?? 0,
	};
}

serveOneJob(run);
