import { createHash } from 'crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'fs';
import { join, relative } from 'path';

import { callbackUrl, FILES } from './examples';
import { ensureN8n } from './lib/install';
import { assertPortFree, prepareFiles, provision } from './lib/instance';
import { OWNER, startN8nServer, tailOf, type N8nOptions, type N8nServer } from './lib/n8n';
import { EXAMPLES, N8N_PORT, ROOT, RUNNER_PORT, SANDBOX_PORT, START_FILES, START_HOME } from './lib/paths';
import { N8nRest } from './lib/rest';
import { buildPackage, onStopSignal, say, startSandboxGateway } from './lib/session';

/**
 * `npm start`: a real n8n on http://localhost:5678 with this package, the local HaiPay sandbox on
 * http://127.0.0.1:8642, the sandbox credentials and the example workflows, until Ctrl-C.
 * `npm start -- --fresh` first forgets the sandbox's orders and balances and restores the sample payouts.csv, so
 * the bulk example pays every row again instead of meeting its own orderIds as duplicates.
 */

function provisionKey(credentialsFile: string): string {
	const hash = createHash('sha256').update(readFileSync(credentialsFile));
	for (const file of readdirSync(EXAMPLES).filter((name) => name.endsWith('.json')).sort()) hash.update(readFileSync(join(EXAMPLES, file)));
	return hash.digest('hex');
}

async function main(): Promise<void> {
	const started = Date.now();
	const fresh = process.argv.includes('--fresh');
	let server: N8nServer | undefined;
	let closeSandbox: (() => Promise<void>) | undefined;
	const stopAll = async (signal: string) => {
		say(`\n${signal}: stopping n8n and the sandbox ...`);
		await server?.stop();
		await closeSandbox?.();
		say('Stopped. Nothing left running.');
	};
	onStopSignal(stopAll);

	try {
		for (const [port, what] of [
			[N8N_PORT, 'n8n'],
			[SANDBOX_PORT, 'HaiPay sandbox'],
			[RUNNER_PORT, "n8n's task runner"],
		] as const) {
			await assertPortFree(port, what);
		}
		await ensureN8n(say);
		say('Building n8n-nodes-haipay ...');
		await buildPackage();

		mkdirSync(START_HOME, { recursive: true });
		const { sandbox, credentialsFile } = await startSandboxGateway({ port: SANDBOX_PORT, stateDir: join(START_HOME, 'sandbox'), fresh });
		if (fresh) say('Fresh start: the sandbox forgot its orders and balances, and payouts.csv is the sample again.');
		closeSandbox = () => sandbox.close();
		say(`HaiPay sandbox on ${sandbox.baseUrl} (orders and keys kept in ${relative(ROOT, join(START_HOME, 'sandbox'))})`);

		const options: N8nOptions = { home: START_HOME, filesDir: START_FILES, port: N8N_PORT, runnerPort: RUNNER_PORT };
		prepareFiles(START_FILES, fresh);
		const marker = join(START_HOME, '.provisioned');
		const key = provisionKey(credentialsFile);
		if (!existsSync(marker) || readFileSync(marker, 'utf8').trim() !== key) {
			say('Setting up n8n (first run, or the examples changed) ...');
			await provision(options, credentialsFile, say);
			writeFileSync(marker, `${key}\n`);
		}
		say('Starting n8n ...');
		const logFile = join(START_HOME, 'n8n.log');
		server = await startN8nServer(options, logFile);
		const rest = new N8nRest(server.url);
		await rest.ensureOwner();

		const files = relative(ROOT, join(START_FILES, FILES));
		say('');
		say(`Ready in ${Math.round((Date.now() - started) / 1000)} s.`);
		say('');
		say(`  Open     ${server.url}`);
		say(`  Sign in  ${OWNER.email} / ${OWNER.password}   (test-only account of this local n8n)`);
		say('');
		say('  Workflows (Overview):');
		say('   - "HaiPay example: bulk payouts from a spreadsheet": click "Execute workflow". It pays the rows of');
		say(`     ${files}/payouts.csv and writes ${files}/payout-results.csv. Double-click "Pay TZS" to see the HaiPay node.`);
		say('     Run it again and the rows already paid come back "duplicate" (HaiPay keeps each orderId once);');
		say('     npm start -- --fresh starts over with a sandbox that has no orders.');
		say('   - "HaiPay example: callbacks" is active: the sandbox posts each payout result to it');
		say(`     (${callbackUrl('TZS')} and one URL per App ID); see ${files}/callbacks.jsonl and Executions.`);
		say('   - "HaiPay example: reconciliation": run it after the payouts, it queries the unfinished orders and');
		say(`     saves vouchers in ${files}/vouchers/.`);
		say('   - "HaiPay example: USD card collection (MIT)": run it, open the payUrl of "Send the payer to payUrl",');
		say('     click Pay; run it again to charge the stored card token.');
		say('');
		say(`  Credentials: "HaiPay Sandbox TZS" ... "HaiPay Sandbox USD" (Custom base URL ${sandbox.baseUrl})`);
		say(`  Sandbox control API: ${sandbox.baseUrl}/__sandbox/orders   n8n log: ${relative(ROOT, logFile)}`);
		say('');
		say('Ctrl-C stops n8n and the sandbox.');

		const running = server;
		// If n8n dies on its own, say so and stop the sandbox rather than leave a half playground.
		const watch = setInterval(() => {
			try {
				process.kill(-running.pid, 0);
			} catch {
				clearInterval(watch);
				process.stderr.write(`n8n stopped unexpectedly; see ${logFile}:\n${tailOf(logFile)}\n`);
				void stopAll('n8n exited').then(() => process.exit(1));
			}
		}, 2_000);
	} catch (error) {
		process.stderr.write(`\nnpm start failed: ${(error as Error).message}\n`);
		await stopAll('error');
		process.exit(1);
	}
}

void main();
