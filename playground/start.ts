import { createHash } from 'crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'fs';
import { join, relative } from 'path';

import type { Sandbox } from '../sandbox';
import { callbackUrl, FILES, RECONCILIATION_REPORT } from './examples';
import { ensureN8n } from './lib/install';
import { assertPortFree, examplesFor, prepareFiles, provision } from './lib/instance';
import { CONTROLLER, OWNER, spawnN8nServer, tailOf, whenReady, type N8nOptions, type N8nServer } from './lib/n8n';
import { EXAMPLES, N8N_PORT, ROOT, START_FILES, START_HOME, START_PORTS } from './lib/paths';
import { N8nRest } from './lib/rest';
import { buildPackage, onStopSignal, say, startSandboxGateway } from './lib/session';
import { PAYROLL_BATCH, PAYROLL_RESULTS, PAYROLL_SAMPLE_ROWS, PAYROLL_SHEET } from './payroll';

/**
 * `npm start`: a real n8n on http://localhost:5678 with this package, the local HaiPay sandbox on
 * http://127.0.0.1:8642, the sandbox credentials and the example workflows, until Ctrl-C.
 * `npm start -- --fresh` first forgets the sandbox's orders and balances and restores the sample payouts.csv, so
 * the bulk example pays every row again instead of meeting its own orderIds as duplicates.
 *
 * Nothing outlives it: the sandbox runs in this process, and n8n (with its task runner) in a process group of its own
 * that this process stops on Ctrl-C, SIGTERM, SIGHUP or a closed output, and that a guard (lib/guard.js) stops when
 * this process is gone without having done so, after a SIGKILL for instance.
 */

interface Running {
	sandbox?: Sandbox;
	server?: N8nServer;
	stopping?: boolean;
}

const LOG_FILE = join(START_HOME, 'n8n.log');

async function stopAll(running: Running, reason: string): Promise<void> {
	running.stopping = true;
	say(`\n${reason}: stopping n8n and the sandbox ...`);
	await running.server?.stop();
	await running.sandbox?.close();
	say('Stopped. Nothing left running.');
}

/** The example workflows to import: examples/ itself, or copies whose callback URLs name the port n8n listens on. */
function examplesDir(): string {
	if (START_PORTS.n8n === N8N_PORT) return EXAMPLES;
	return examplesFor(join(START_HOME, 'examples'), `http://localhost:${START_PORTS.n8n}`);
}

function provisionKey(credentialsFile: string, examples: string): string {
	const hash = createHash('sha256').update(readFileSync(credentialsFile));
	for (const file of readdirSync(examples)
		.filter((name) => name.endsWith('.json'))
		.sort())
		hash.update(readFileSync(join(examples, file)));
	return hash.digest('hex');
}

/** Imports the credentials and the examples into n8n on the first run, and again whenever either changed. */
async function provisionIfChanged(options: N8nOptions, credentialsFile: string): Promise<void> {
	const examples = examplesDir();
	const marker = join(START_HOME, '.provisioned');
	const key = provisionKey(credentialsFile, examples);
	if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === key) return;
	say('Setting up n8n (first run, or the examples changed) ...');
	await provision(options, credentialsFile, say, examples);
	writeFileSync(marker, `${key}\n`);
}

async function startSandbox(running: Running, fresh: boolean): Promise<string> {
	const stateDir = join(START_HOME, 'sandbox');
	const { sandbox, credentialsFile } = await startSandboxGateway({ port: START_PORTS.sandbox, stateDir, fresh });
	running.sandbox = sandbox;
	if (fresh) say('Fresh start: the sandbox forgot its orders and balances, and payouts.csv is the sample again.');
	say(`HaiPay sandbox on ${sandbox.baseUrl} (orders and keys kept in ${relative(ROOT, stateDir)})`);
	return credentialsFile;
}

function printReady(server: N8nServer, sandbox: Sandbox, seconds: number): void {
	const files = relative(ROOT, join(START_FILES, FILES));
	say('');
	say(`Ready in ${seconds} s.`);
	say('');
	say(`  Open     ${server.url}`);
	say(`  Sign in  ${OWNER.email} / ${OWNER.password}   (test-only account of this local n8n)`);
	say(`           ${CONTROLLER.email} / ${CONTROLLER.password}   (example 6's approver, a member)`);
	say('');
	say('  Workflows (Overview):');
	say('   - "HaiPay example: bulk payouts from a spreadsheet": click "Execute workflow". It pays the rows of');
	say(`     ${files}/payouts.csv and writes ${files}/payout-results.csv. Double-click "Pay" to see the HaiPay node.`);
	say('     Run it again and the rows already paid come back "duplicate" (HaiPay keeps each orderId once);');
	say('     npm start -- --fresh starts over with a sandbox that has no orders.');
	say('   - "HaiPay example: callbacks" is active: the sandbox posts each payout result to it');
	say(
		`     (${callbackUrl('TZS', START_PORTS.n8n)} for every payout currency); see ${files}/callbacks.jsonl and Executions.`,
	);
	say('   - "HaiPay example: reconciliation": run it after the payouts, it queries the unfinished orders and');
	say(`     saves vouchers in ${files}/vouchers/.`);
	say('   - "HaiPay example: USD card collection (MIT)": run it, open the payUrl of "Send the payer to payUrl",');
	say('     click Pay; run it again to charge the stored card token.');
	say('   - "HaiPay example: month-end payouts, approved in the browser": Publish it, open');
	say(`     ${server.url}/form/haipay-month-end signed in as the owner, upload examples/data/month-end.xlsx, read`);
	say("     the totals; open the page's approver link in a private window signed in as the controller and Approve;");
	say('     the browser downloads month-end-results.xlsx. The owner approving their own upload is refused.');
	say('   - "HaiPay example: PIX QR collection and PIX payout (BRL)": run it; "Show the payer" holds the PIX');
	say('     copy-and-paste code and the payUrl of the collection, "PIX payout" the payout\'s outcome.');
	say(`   - "HaiPay example: reconciliation report": after month-end, save month-end-results.xlsx in ${files}/ and`);
	say(`     run it: ${files}/${RECONCILIATION_REPORT} lists each order as HaiPay shows it, with exact totals.`);
	say(`   - "HaiPay example: a payroll-sized sheet in batches": run it; it pays ${files}/${PAYROLL_SHEET}`);
	say(
		`     (${PAYROLL_SAMPLE_ROWS.toLocaleString('en-US')} rows) ${PAYROLL_BATCH.toLocaleString('en-US')} at a time into ${files}/${PAYROLL_RESULTS}; a rerun pays only rows it lacks.`,
	);
	say(
		'   - "HaiPay example: exactly-once callbacks" needs PostgreSQL: npm run start:queue runs it (docs/queue-mode.md).',
	);
	say('');
	say(
		`  Credentials: "HaiPay Sandbox payouts" (TZS, ZAR, NGN, EGP, BDT in one), "HaiPay Sandbox TZS" ... (Custom base URL ${sandbox.baseUrl})`,
	);
	say(`  Sandbox control API: ${sandbox.baseUrl}/__sandbox/orders   n8n log: ${relative(ROOT, LOG_FILE)}`);
	say('');
	say('Ctrl-C stops n8n and the sandbox.');
}

/** If n8n dies on its own, say so and stop the sandbox rather than leave a half playground. */
function watchN8n(running: Running, server: N8nServer): void {
	const watch = setInterval(() => {
		if (server.exited() === undefined || running.stopping) return;
		clearInterval(watch);
		process.stderr.write(`n8n stopped unexpectedly (${server.exited()}); see ${LOG_FILE}:\n${tailOf(LOG_FILE)}\n`);
		void stopAll(running, 'n8n exited').then(() => process.exit(1));
	}, 2_000);
}

async function main(): Promise<void> {
	const started = Date.now();
	const fresh = process.argv.includes('--fresh');
	const running: Running = {};
	onStopSignal((reason) => stopAll(running, reason));
	try {
		await assertPortFree(START_PORTS.n8n, 'n8n');
		await assertPortFree(START_PORTS.sandbox, 'HaiPay sandbox');
		await assertPortFree(START_PORTS.runner, "n8n's task runner");
		await ensureN8n(say);
		say('Building n8n-nodes-haipay ...');
		await buildPackage();
		mkdirSync(START_HOME, { recursive: true });
		const credentialsFile = await startSandbox(running, fresh);
		const options: N8nOptions = {
			home: START_HOME,
			filesDir: START_FILES,
			port: START_PORTS.n8n,
			runnerPort: START_PORTS.runner,
		};
		prepareFiles(START_FILES, fresh);
		await provisionIfChanged(options, credentialsFile);
		say('Starting n8n ...');
		const server = spawnN8nServer(options, LOG_FILE);
		running.server = server;
		await whenReady(server);
		const rest = new N8nRest(server.url);
		await rest.ensureOwner();
		// Example 6's approver: the owner uploads, and a second person must approve.
		await rest.ensureMember(CONTROLLER);
		printReady(server, running.sandbox as Sandbox, Math.round((Date.now() - started) / 1000));
		watchN8n(running, server);
	} catch (error) {
		// A stop under way (Ctrl-C while starting) ends the process itself; what failed then is its doing.
		if (running.stopping) return;
		process.stderr.write(`\nnpm start failed: ${(error as Error).message}\n`);
		await stopAll(running, 'error');
		process.exit(1);
	}
}

void main();
