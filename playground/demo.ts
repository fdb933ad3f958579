import { mkdirSync, readdirSync, rmSync, statSync } from 'fs';
import { join, relative } from 'path';

import type { Sandbox } from '../sandbox';
import { FILES, WORKFLOW_IDS } from './examples';
import { ensureN8n } from './lib/install';
import { executeWorkflow, prepareFiles, provision, type Executed } from './lib/instance';
import { nodeOutput, type N8nOptions } from './lib/n8n';
import { EXAMPLES, ROOT, RUNNER_PORT, START_HOME } from './lib/paths';
import { buildPackage, onStopSignal, say, startSandboxGateway } from './lib/session';

/**
 * `npm run demo`: the bulk payout example without a browser, in a fresh n8n user folder (playground/.n8n/demo, kept
 * until the next demo so that its files can be read) and a sandbox on a free port (so it also runs beside `npm start`). Pays the CSV, waits until HaiPay has settled the orders, runs the
 * reconciliation example for the final states and the vouchers, and prints what happened.
 */

type Row = Record<string, unknown>;

const SETTLE_TIMEOUT_MS = 30_000;

async function waitUntilFinal(sandbox: Sandbox, orderIds: string[]): Promise<void> {
	const deadline = Date.now() + SETTLE_TIMEOUT_MS;
	for (;;) {
		const open = sandbox.orders.filter(
			(order) => orderIds.includes(order.orderId) && order.status !== 2 && order.status !== 3,
		);
		if (open.length === 0) return;
		if (Date.now() > deadline)
			throw new Error(
				`orders still open after ${SETTLE_TIMEOUT_MS / 1000} s: ${open.map((o) => o.orderId).join(', ')}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

function count(rows: Row[], outcome: string): Row[] {
	return rows.filter((row) => row.outcome === outcome);
}

/** The sandbox on a free port: orders final 1.7 s after they are made, each callback tried once (no retries). */
async function startDemoSandbox(work: string): Promise<{ sandbox: Sandbox; credentialsFile: string }> {
	const gateway = await startSandboxGateway({
		port: 0,
		stateDir: join(work, 'sandbox'),
		persist: false,
		processingMs: 200,
		finalMs: 1_500,
		callbackSchedule: [],
	});
	say(`HaiPay sandbox on ${gateway.sandbox.baseUrl}`);
	return gateway;
}

/** A fresh n8n user folder with the package, the sandbox's credentials and the examples (n8n runs only as its CLI). */
async function freshN8n(work: string, credentialsFile: string): Promise<N8nOptions> {
	const options: N8nOptions = {
		home: join(work, 'n8n'),
		filesDir: join(work, 'files'),
		port: 5678,
		runnerPort: RUNNER_PORT + 20,
	};
	prepareFiles(options.filesDir, true);
	say('Setting up a fresh n8n user folder ...');
	await provision(options, credentialsFile, say);
	return options;
}

interface DemoRuns {
	bulk: Executed;
	/** The bulk example's Result row items: one per CSV row. */
	rows: Row[];
	recon: Executed;
	/** The reconciliation example's Order state items: one per order sent. */
	states: Row[];
}

/** The bulk payouts example, then, once HaiPay has settled what it accepted, the reconciliation example. */
async function payAndReconcile(options: N8nOptions, sandbox: Sandbox): Promise<DemoRuns> {
	say('Running "HaiPay example: bulk payouts from a spreadsheet" (n8n execute) ...');
	const bulk = await executeWorkflow(options, WORKFLOW_IDS.bulkPayouts);
	const rows = nodeOutput(bulk.run, 'Result row');
	const created = rows
		.filter((row) => ['accepted', 'unknown'].includes(String(row.outcome)))
		.map((row) => String(row.orderId));
	say(`Waiting for HaiPay to settle ${created.length} orders ...`);
	await waitUntilFinal(sandbox, created);
	say('Running "HaiPay example: reconciliation" (n8n execute) ...');
	const recon = await executeWorkflow(options, WORKFLOW_IDS.reconciliation);
	return { bulk, rows, recon, states: nodeOutput(recon.run, 'Order state') };
}

/** What became of each CSV row when it was sent: the outcome counts, with the rows that need a word each. */
function reportPayouts(rows: Row[]): void {
	const sent = rows.filter((row) =>
		['accepted', 'rejected', 'duplicate', 'unknown', 'not_found'].includes(String(row.outcome)),
	);
	say(`Bulk payouts: ${rows.length} rows from ${relative(ROOT, join(EXAMPLES, 'data', 'payouts.csv'))}`);
	say(`  sent to HaiPay:     ${sent.length}`);
	say(`  accepted:           ${count(rows, 'accepted').length}`);
	for (const row of count(rows, 'accepted').filter((r) => r.resolvedBy === 'query')) {
		say(
			`    ${row.orderId}  ${row.currency}  the answer was lost; the node queried it and HaiPay has it (resolvedBy: query)`,
		);
	}
	say(`  not sent (invalid): ${count(rows, 'invalid').length}`);
	for (const row of count(rows, 'invalid')) say(`    ${row.orderId}  ${row.currency}  ${row.error}`);
	say(`  refused by HaiPay:  ${count(rows, 'rejected').length}`);
	for (const row of count(rows, 'rejected')) say(`    ${row.orderId}  ${row.currency}  ${row.error}`);
	say(
		`  already in HaiPay:  ${count(rows, 'duplicate').length}  (refused as a repeated orderId: query them; change the orderIds to pay again)`,
	);
	say(
		`  unknown outcome:    ${count(rows, 'unknown').length}  (queried by the reconciliation below, never resent blindly)`,
	);
	for (const row of count(rows, 'unknown')) say(`    ${row.orderId}  ${row.currency}  ${row.error}`);
}

/** The orders' final states, as the reconciliation's queries found them. */
function reportSettlement(states: Row[]): void {
	const succeeded = states.filter((state) => state.status === 2);
	const failed = states.filter((state) => state.status === 3);
	say(`After settlement (Payout > Get on ${states.length} orders):`);
	say(`  succeeded: ${succeeded.length}   ${succeeded.map((s) => s.orderId).join(', ')}`);
	say(`  failed:    ${failed.length}`);
	for (const state of failed) say(`    ${state.orderId}  ${state.currency}  ${state.errorMsg}`);
	const other = states.filter((state) => state.status !== 2 && state.status !== 3);
	if (other.length > 0)
		say(`  not final: ${other.map((s) => `${s.orderId} (${s.statusLabel || s.errorMsg})`).join(', ')}`);
}

function reportVouchers(filesDir: string): void {
	const voucherDir = join(filesDir, FILES, 'vouchers');
	const vouchers = readdirSync(voucherDir).sort();
	say(`Vouchers written: ${vouchers.length}, in ${relative(ROOT, voucherDir)}/`);
	for (const file of vouchers) say(`  ${file}  ${statSync(join(voucherDir, file)).size} bytes`);
}

function report(runs: DemoRuns, filesDir: string, started: number): void {
	say('');
	reportPayouts(runs.rows);
	say('');
	reportSettlement(runs.states);
	say('');
	reportVouchers(filesDir);
	say('');
	const out = relative(ROOT, join(filesDir, FILES));
	say(
		`Results: ${out}/payout-results.csv (${runs.rows.length} rows with outcome and orderNo), ${out}/reconciliation.csv`,
	);
	say(
		`Done in ${Math.round((Date.now() - started) / 1000)} s (n8n execute: ${Math.round(runs.bulk.ms / 1000)} s and ${Math.round(runs.recon.ms / 1000)} s).`,
	);
}

async function main(): Promise<void> {
	const started = Date.now();
	const work = join(START_HOME, 'demo');
	rmSync(work, { recursive: true, force: true });
	mkdirSync(work, { recursive: true });
	let sandbox: Sandbox | undefined;
	const cleanUp = async () => {
		await sandbox?.close();
	};
	onStopSignal(async (signal) => {
		say(`\n${signal}: stopping`);
		await cleanUp();
	});
	try {
		await ensureN8n(say);
		say('Building n8n-nodes-haipay ...');
		await buildPackage();
		const gateway = await startDemoSandbox(work);
		sandbox = gateway.sandbox;
		const options = await freshN8n(work, gateway.credentialsFile);
		report(await payAndReconcile(options, sandbox), options.filesDir, started);
		await cleanUp();
	} catch (error) {
		process.stderr.write(`\nnpm run demo failed: ${(error as Error).message}\n`);
		await cleanUp();
		process.exit(1);
	}
}

void main();
