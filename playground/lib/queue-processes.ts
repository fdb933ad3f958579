import { mkdirSync } from 'fs';
import { join } from 'path';

import type { Service } from './daemon';
import { installPackage, startN8nServer, type N8nOptions, type N8nServer } from './n8n';
import type { Balancer } from './queue-balancer';
import { MAX_PROCESSES_PER_ROLE, type QueuePorts } from './queue-ports';
import { WORKER_CONCURRENCY, type Role } from './queue-settings';

/**
 * The processes of a queue-mode stack: n8n's main, workers and webhook processors, each started in a user folder of
 * its own with this package; workers and webhook processors added or stopped to a count; and everything the stack
 * started stopped in the order that loses nothing.
 */

export interface QueueProcess {
	name: string;
	role: Role;
	index: number;
	server: N8nServer;
	/** Where it answers: the editor for the main, /healthz for a worker, /webhook/... for a webhook processor. */
	port: number;
	runnerPort: number;
	home: string;
}

/** What every n8n process of one stack shares. */
export interface ProcessPlan {
	/** The stack's folder: a user folder and a log per process. */
	dir: string;
	ports: QueuePorts;
	/** The folder the example workflows read and write, one for all processes. */
	filesDir: string;
	logLevel: N8nOptions['logLevel'];
	settingsOf(role: Role): Record<string, string>;
}

/** What a stack has started so far. */
export interface Running {
	postgres?: Service;
	redis?: Service;
	balancer?: Balancer;
	main?: QueueProcess;
	workers: QueueProcess[];
	webhooks: QueueProcess[];
}

/** The n8n options of one process: its role's settings, and a worker's health check on its own port. */
export function processOptions(
	plan: ProcessPlan,
	name: string,
	port: number,
	runnerPort: number,
	role: Role,
): N8nOptions {
	return {
		home: join(plan.dir, name),
		filesDir: plan.filesDir,
		port,
		runnerPort,
		logLevel: plan.logLevel,
		extraEnv: { ...plan.settingsOf(role), ...(role === 'worker' ? { QUEUE_HEALTH_CHECK_PORT: String(port) } : {}) },
	};
}

/** `n8n start`, `n8n worker` or `n8n webhook`, with the package installed in its user folder first. */
export async function startProcess(plan: ProcessPlan, role: Role, index: number): Promise<QueueProcess> {
	const { ports } = plan;
	const name = role === 'main' ? 'main' : `${role}-${index + 1}`;
	const where =
		role === 'main'
			? { port: ports.main, runner: ports.mainRunner }
			: role === 'worker'
				? ports.worker(index)
				: ports.webhook(index);
	const n8nOptions = processOptions(plan, name, where.port, where.runner, role);
	mkdirSync(n8nOptions.home, { recursive: true });
	installPackage(n8nOptions.home);
	const command =
		role === 'main' ? ['start'] : role === 'worker' ? ['worker', `--concurrency=${WORKER_CONCURRENCY}`] : ['webhook'];
	const server = await startN8nServer(n8nOptions, join(plan.dir, `${name}.log`), 180_000, command);
	return { name, role, index, server, port: where.port, runnerPort: where.runner, home: n8nOptions.home };
}

/**
 * Starts or stops workers and webhook processors until there are this many of each, and points the balancer at
 * the webhook processors that run. Fails with the first start that failed, once the others have settled.
 */
export async function scaleTo(
	plan: ProcessPlan,
	running: Running,
	balancer: Balancer,
	counts: { workers?: number; webhooks?: number },
): Promise<void> {
	const { workers, webhooks } = running;
	const wantWorkers = counts.workers ?? workers.length;
	const wantWebhooks = counts.webhooks ?? webhooks.length;
	if (wantWorkers > MAX_PROCESSES_PER_ROLE || wantWebhooks > MAX_PROCESSES_PER_ROLE)
		throw new Error(`at most ${MAX_PROCESSES_PER_ROLE} of each`);
	const starting: Array<Promise<void>> = [];
	for (let i = workers.length; i < wantWorkers; i++)
		starting.push(startProcess(plan, 'worker', i).then((p) => void (workers[p.index] = p)));
	for (let i = webhooks.length; i < wantWebhooks; i++)
		starting.push(startProcess(plan, 'webhook', i).then((p) => void (webhooks[p.index] = p)));
	const results = await Promise.allSettled(starting);
	const stopping = [...workers.splice(wantWorkers), ...webhooks.splice(wantWebhooks)];
	balancer.setTargets(webhooks.filter(Boolean).map((p) => p.server.url));
	await Promise.all(stopping.map((p) => p.server.stop()));
	const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
	if (failed) throw failed.reason as Error;
}

/** Stops what runs: the balancer, then what takes work in before what does it, the databases last. */
export async function stopRunning(running: Running): Promise<void> {
	await running.balancer?.close();
	// Webhook processors first (nothing new comes in), then workers (they finish or hand back what they run).
	await Promise.all(running.webhooks.splice(0).map((p) => p.server.stop()));
	await Promise.all(running.workers.splice(0).map((p) => p.server.stop()));
	await running.main?.server.stop();
	await running.redis?.stop();
	await running.postgres?.stop();
}
