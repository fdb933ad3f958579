import { mkdirSync, writeFileSync } from 'fs';
import http from 'http';
import { cpus } from 'os';
import { join } from 'path';

import { startSandbox } from '../sandbox';
import { runClient } from './load-client';
import type { LoadJob, LoadResult } from './sandbox-client';

/**
 * `npm run bench:sandbox`: signed TZS payout applies over loopback, concurrency 16, from a separate process.
 * The same client first loads a node:http server that answers a fixed envelope, so the figures show what the
 * sandbox itself costs on top of HTTP on this machine. Then the sandbox flat out (throughput), and paced at
 * 800 applies/s (latency at the target rate). Target: >= 800 applies/s, p99 < 25 ms.
 */

const CONCURRENCY = 16;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6_000);
const TARGET = { perSecond: 800, p99: 25 };
const PACED_RATE = TARGET.perSecond;
const PACED_REQUESTS = Number(process.env.BENCH_PACED_REQUESTS ?? 4_000);

function load(job: LoadJob): Promise<LoadResult> {
	return runClient(join(__dirname, 'sandbox-client.ts'), job, `${job.label}: the load client`);
}

/** The baseline: reads the body and answers a constant success envelope, nothing else. */
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

const fmt = (n: number, digits = 1) => n.toFixed(digits).padStart(8);

async function main(): Promise<void> {
	const runId = Date.now().toString(36);
	const job = {
		path: '/tzs/pay/apply',
		concurrency: CONCURRENCY,
		warmup: WARMUP,
		requests: REQUESTS,
		expectSuccess: true,
	};

	const noop = await startNoop();
	let baseline: LoadResult;
	try {
		baseline = await load({ ...job, baseUrl: noop.baseUrl, label: 'no-op node:http server', runId: `${runId}-b` });
	} finally {
		await noop.close();
	}

	// Orders settle after a second, as by default, so timers and state changes are part of the cost measured.
	const sandbox = await startSandbox({ transitionDelays: { processingMs: 0, finalMs: 1_000 } });
	let measured: LoadResult;
	let paced: LoadResult;
	let orders: number;
	try {
		measured = await load({ ...job, baseUrl: sandbox.baseUrl, label: 'sandbox, flat out', runId: `${runId}-s` });
		paced = await load({
			...job,
			baseUrl: sandbox.baseUrl,
			label: `sandbox, ${PACED_RATE}/s offered`,
			runId: `${runId}-p`,
			rate: PACED_RATE,
			requests: PACED_REQUESTS,
		});
		orders = sandbox.orders.length;
	} finally {
		await sandbox.close();
	}
	const expectedOrders = 2 * WARMUP + REQUESTS + PACED_REQUESTS;

	const rows = [baseline, measured, paced];
	const met = measured.perSecond >= TARGET.perSecond && paced.p99 < TARGET.p99 && measured.errors + paced.errors === 0;
	const lines = [
		`Sandbox benchmark: signed TZS payout applies, concurrency ${CONCURRENCY}, ${REQUESTS} measured after ${WARMUP} warm-up, load client in its own process`,
		`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`,
		'',
		'                               applies/s   p50 ms   p90 ms   p99 ms   max ms  errors',
		...rows.map(
			(r) =>
				`${r.label.padEnd(30)} ${fmt(r.perSecond, 0)}  ${fmt(r.p50, 2)} ${fmt(r.p90, 2)} ${fmt(r.p99, 2)} ${fmt(r.max, 2)}  ${String(r.errors).padStart(6)}`,
		),
		'',
		`sandbox overhead over the no-op server: ${(measured.p50 - baseline.p50).toFixed(2)} ms at p50; ${((measured.perSecond / baseline.perSecond) * 100).toFixed(0)}% of its throughput`,
		`orders created: ${orders} (expected ${expectedOrders})`,
		`target: >= ${TARGET.perSecond} applies/s flat out (${measured.perSecond.toFixed(0)}), p99 < ${TARGET.p99} ms at ${PACED_RATE}/s offered (${paced.p99.toFixed(2)}) -> ${
			met ? 'met' : 'NOT met'
		}`,
		'(p99 flat out is the tail of a saturated 2-core machine shared by client and server; latency counts from the scheduled start when paced)',
	];
	for (const r of rows) if (r.firstError) lines.push(`${r.label}: first error: ${r.firstError}`);
	process.stdout.write(`${lines.join('\n')}\n`);

	const dir = join(__dirname, '.work');
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, 'sandbox.json'),
		`${JSON.stringify({ at: new Date().toISOString(), concurrency: CONCURRENCY, baseline, sandbox: measured, paced, orders, met }, null, 2)}\n`,
	);
	if (measured.errors + paced.errors > 0 || orders !== expectedOrders) process.exitCode = 1;
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
