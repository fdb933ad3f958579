import http from 'http';
import { join } from 'path';

import { startSandbox, type SandboxOptions } from '../sandbox';
import { runClient } from './load-client';
import type { LoadJob, LoadResult } from './sandbox-client';
import type { Target } from './targets';

/**
 * The sandbox alone, flat out: signed TZS payout applies from a load client in its own process, first to a node:http
 * server that answers a fixed envelope (what HTTP alone costs here), then to the sandbox over keep-alive connections
 * and over a new TCP connection for every request, the way n8n's request helper sends (a new agent per request).
 * Used by `npm run bench:sandbox` and by the `sandbox` part of `npm run bench`, whose bulk part must measure n8n and
 * the node, not the sandbox: the sandbox has to serve a multiple of the rate the bulk part asks of it.
 */

export interface CapacityRun extends LoadResult {
	/** The sandbox process's CPU (user+sys) per apply during the run; absent for the no-op server. */
	cpuMsPerApply?: number;
}

export interface SandboxFigures {
	concurrency: number;
	baseline: CapacityRun;
	keepAlive: CapacityRun;
	fresh: CapacityRun;
	paced: CapacityRun;
	pacedRate: number;
	orders: number;
	expectedOrders: number;
}

export interface CapacityOptions {
	concurrency: number;
	warmup: number;
	requests: number;
	pacedRate: number;
	pacedRequests: number;
	/** The sandbox as the caller measures it: the bulk part's (no settling, no callbacks) or the defaults. */
	sandbox: SandboxOptions;
}

function load(job: LoadJob): Promise<LoadResult> {
	return runClient(join(__dirname, 'sandbox-client.ts'), job, `${job.label}: the load client`);
}

/** Reads the body and answers a constant success envelope, nothing else. */
async function startNoop(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
	const answer = JSON.stringify({
		status: '1',
		error: '00000000',
		msg: 'success',
		data: { orderId: 'x', orderNo: 'y', sign: 'z' },
	});
	const server = http.createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
		req.resume();
		req.on('end', () => {
			res.writeHead(200, {
				'Content-Type': 'application/json; charset=utf-8',
				'Content-Length': Buffer.byteLength(answer),
			});
			res.end(answer);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** A load run with this process's CPU over it: the sandbox runs here, the client in its own process. */
async function measuredLoad(job: LoadJob): Promise<CapacityRun> {
	const before = process.cpuUsage();
	const result = await load(job);
	const used = process.cpuUsage(before);
	// The warm-up's applies are served inside the same span as the measured ones.
	const applies = job.warmup + job.requests;
	return { ...result, cpuMsPerApply: (used.user + used.system) / 1000 / applies };
}

export async function measureSandboxCapacity(options: CapacityOptions): Promise<SandboxFigures> {
	const runId = Date.now().toString(36);
	const job = {
		path: '/tzs/pay/apply',
		concurrency: options.concurrency,
		warmup: options.warmup,
		requests: options.requests,
		expectSuccess: true,
		keepAlive: true,
	};

	const noop = await startNoop();
	let baseline: LoadResult;
	try {
		baseline = await load({ ...job, baseUrl: noop.baseUrl, label: 'no-op node:http server', runId: `${runId}-b` });
	} finally {
		await noop.close();
	}

	const sandbox = await startSandbox(options.sandbox);
	try {
		const keepAlive = await measuredLoad({
			...job,
			baseUrl: sandbox.baseUrl,
			label: 'sandbox, keep-alive',
			runId: `${runId}-s`,
		});
		const fresh = await measuredLoad({
			...job,
			baseUrl: sandbox.baseUrl,
			label: 'sandbox, a new connection each',
			runId: `${runId}-f`,
			keepAlive: false,
		});
		const paced = await measuredLoad({
			...job,
			baseUrl: sandbox.baseUrl,
			label: `sandbox, ${options.pacedRate}/s offered`,
			runId: `${runId}-p`,
			rate: options.pacedRate,
			requests: options.pacedRequests,
		});
		return {
			concurrency: options.concurrency,
			baseline,
			keepAlive,
			fresh,
			paced,
			pacedRate: options.pacedRate,
			orders: sandbox.orders.length,
			expectedOrders: 3 * options.warmup + 2 * options.requests + options.pacedRequests,
		};
	} finally {
		await sandbox.close();
	}
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f2 = (n: number) => n.toFixed(2);

/** The multiple of the bulk part's rate the sandbox must serve alone. */
export const SANDBOX_HEADROOM = 3;

export function sandboxLines(f: SandboxFigures): string[] {
	const row = (r: CapacityRun) =>
		`| ${r.label} | ${f0(r.perSecond)} | ${f2(r.p50)} | ${f2(r.p99)} | ${r.cpuMsPerApply === undefined ? '' : f2(r.cpuMsPerApply)} | ${f0(r.errors)} |`;
	return [
		`Signed TZS payout applies from a load client in its own process (signed before the clock starts), ${f0(f.concurrency)} at a time, ${f0(f.keepAlive.requests)} measured after a warm-up, to the sandbox as the bulk part runs it (orders stay where the apply puts them: no settling, no callbacks) but with no added latency, so it answers as fast as it can. The no-op server reads the body and answers a fixed envelope: what HTTP alone costs on this machine. "A new connection each" opens a TCP connection for every request, as n8n's request helper does (a new agent per request), so it is the rate the bulk part's n8n can ask of it. CPU is the sandbox process's user+sys per apply. The client shares the machine's cores with the sandbox.`,
		'',
		'| server | applies/s | p50 ms | p99 ms | sandbox CPU ms/apply | errors |',
		'|---|---:|---:|---:|---:|---:|',
		row(f.baseline),
		row(f.keepAlive),
		row(f.fresh),
		row(f.paced),
		'',
		`Orders made: ${f0(f.orders)} (expected ${f0(f.expectedOrders)}). Paced: latency counts from each request's scheduled start.`,
	];
}

/** The bulk part's bound: the most items/s its mixed sheet can reach (two App IDs, each with its own in-flight limit). */
export function sandboxTargets(f: SandboxFigures, bulkBound: number): Target[] {
	const floor = bulkBound * SANDBOX_HEADROOM;
	return [
		{
			what: `the sandbox alone, a new connection for each request, serves >= ${SANDBOX_HEADROOM}x the ${f0(bulkBound)} items/s the bulk part's mixed sheet asks (>= ${f0(floor)} applies/s)`,
			measured: `${f0(f.fresh.perSecond)} applies/s (${f2(f.fresh.perSecond / bulkBound)}x), keep-alive ${f0(f.keepAlive.perSecond)}`,
			pass: f.fresh.perSecond >= floor && f.fresh.errors === 0,
		},
		{
			what: 'every apply answered with a success and made one order',
			measured: `${f0(f.keepAlive.errors + f.fresh.errors + f.paced.errors)} errors, ${f0(f.orders)} of ${f0(f.expectedOrders)} orders`,
			pass: f.keepAlive.errors + f.fresh.errors + f.paced.errors === 0 && f.orders === f.expectedOrders,
		},
	];
}
