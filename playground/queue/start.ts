import { join, relative } from 'path';

import { FILES, WORKFLOW_IDS } from '../examples';
import { OWNER } from '../lib/n8n';
import { PLAYGROUND, ROOT } from '../lib/paths';
import { queuePorts, startQueueStack, type QueueStack } from '../lib/queue';
import { buildPackage, onStopSignal, say, startSandboxGateway } from '../lib/session';

/**
 * `npm run start:queue [-- --workers N --webhooks N --fresh]`: the playground in n8n's queue mode. PostgreSQL and
 * Redis (installed with apt-get when missing) run from playground/.queue, n8n runs as a main process, workers and
 * webhook processors behind a round-robin balancer, with this package on every process, the sandbox and the
 * example workflows. Ctrl-C stops every process it started.
 */

export const START_QUEUE_DIR = join(PLAYGROUND, '.queue');
/** Ports 5720-5760: beside `npm start` (5678), the e2e tests, the benchmark and the queue tests. */
export const START_QUEUE_BASE = 5720;

export interface QueueArgs {
	workers: number;
	webhooks: number;
	fresh: boolean;
}

export function parseQueueArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): QueueArgs {
	const count = (name: string, text: string | undefined) => {
		const value = Number(text);
		if (!Number.isInteger(value) || value < 1 || value > 8) throw new Error(`${name} takes a whole number from 1 to 8`);
		return value;
	};
	const args: QueueArgs = {
		workers: env.HAIPAY_QUEUE_WORKERS ? count('HAIPAY_QUEUE_WORKERS', env.HAIPAY_QUEUE_WORKERS) : 2,
		webhooks: env.HAIPAY_QUEUE_WEBHOOKS ? count('HAIPAY_QUEUE_WEBHOOKS', env.HAIPAY_QUEUE_WEBHOOKS) : 1,
		fresh: false,
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--workers') args.workers = count(arg, argv[++i]);
		else if (arg === '--webhooks') args.webhooks = count(arg, argv[++i]);
		else if (arg === '--fresh') args.fresh = true;
		else throw new Error(`unknown option ${arg}: use --workers N, --webhooks N, --fresh`);
	}
	return args;
}

/** What runs where, and how to reach the editor. */
function sayReady(stack: QueueStack, sandboxUrl: string, started: number): void {
	const files = relative(ROOT, join(START_QUEUE_DIR, 'n8n', 'files', FILES));
	say('');
	say(`Ready in ${Math.round((Date.now() - started) / 1000)} s. What runs where:`);
	say('');
	for (const line of stack.describe()) say(line);
	say(`  HaiPay sandbox ${sandboxUrl}   control API ${sandboxUrl}/__sandbox/orders`);
	say('');
	say(`  Open     ${stack.main.server.url}`);
	say(`  Sign in  ${OWNER.email} / ${OWNER.password}   (test-only account of this local n8n)`);
	say('');
	say(`  The example workflows are there (callbacks active, id ${WORKFLOW_IDS.callbacks}); the payouts' notifyUrl`);
	say(`  points at the balancer, so the sandbox's callbacks reach a webhook processor and run on a worker.`);
	say(`  "Execute workflow" in the editor runs on a worker too. Files: ${files}`);
	say('');
	say('Ctrl-C stops everything listed above.');
}

/** Every 2 s: when an n8n process of the stack has gone, says which (and its log) and stops the rest. */
function watchProcesses(stack: QueueStack, stopAll: (reason: string) => Promise<void>): void {
	const watch = setInterval(() => {
		const gone = [stack.main, ...stack.workers, ...stack.webhooks].find((p) => {
			try {
				process.kill(-p.server.pid, 0);
				return false;
			} catch {
				return true;
			}
		});
		if (gone) {
			clearInterval(watch);
			process.stderr.write(`${gone.name} stopped unexpectedly; see ${gone.server.logFile}\n`);
			void stopAll('n8n process exited').then(() => process.exit(1));
		}
	}, 2_000);
}

async function main(): Promise<void> {
	const started = Date.now();
	const args = parseQueueArgs(process.argv.slice(2));
	const ports = queuePorts(START_QUEUE_BASE);
	let stack: QueueStack | undefined;
	let closeSandbox: (() => Promise<void>) | undefined;
	let stopping = false;
	const stopAll = async (signal: string) => {
		if (stopping) return;
		stopping = true;
		say(`\n${signal}: stopping the webhook processors, workers, main, Redis, PostgreSQL and the sandbox ...`);
		await stack?.stop();
		await closeSandbox?.();
		say('Stopped. Nothing left running.');
	};
	onStopSignal(stopAll);
	try {
		say('Building n8n-nodes-haipay ...');
		await buildPackage();
		const { sandbox, credentialsFile } = await startSandboxGateway({
			port: ports.sandbox,
			stateDir: join(START_QUEUE_DIR, 'sandbox'),
			fresh: args.fresh,
		});
		closeSandbox = () => sandbox.close();
		say(`HaiPay sandbox on ${sandbox.baseUrl}`);
		say(`Starting n8n in queue mode: ${args.workers} worker(s), ${args.webhooks} webhook processor(s) ...`);
		stack = await startQueueStack({
			dir: join(START_QUEUE_DIR, 'n8n'),
			ports,
			workers: args.workers,
			webhooks: args.webhooks,
			credentialsFile,
			fresh: args.fresh,
			log: say,
		});
		sayReady(stack, sandbox.baseUrl, started);
		watchProcesses(stack, stopAll);
	} catch (error) {
		process.stderr.write(`\nnpm run start:queue failed: ${(error as Error).message}\n`);
		await stopAll('error');
		process.exit(1);
	}
}

if (require.main === module) void main();
