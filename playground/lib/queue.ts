import { mkdirSync, readFileSync, rmSync } from 'fs';
import { join } from 'path';

import type { Service } from './daemon';
import { ensureN8n } from './install';
import { prepareFiles } from './instance';
import type { N8nOptions } from './n8n';
import { startBalancer, type Balancer } from './queue-balancer';
import { assertPortsFree, MAX_PROCESSES_PER_ROLE, type QueuePorts } from './queue-ports';
import {
	processOptions,
	scaleTo,
	startProcess,
	stopRunning,
	type ProcessPlan,
	type QueueProcess,
	type Running,
} from './queue-processes';
import { provisionDatabase } from './queue-provision';
import { ensureQueueServices, sqlRows, startPostgres, startRedis, type Connection } from './queue-services';
import {
	localConnection,
	localSettings,
	QUEUE_DATABASE,
	QUEUE_SETTINGS,
	WORKER_CONCURRENCY,
	type Role,
} from './queue-settings';
import { N8nRest } from './rest';

/**
 * n8n in queue mode on this machine: PostgreSQL and Redis, a main process (editor, REST API, activation; no
 * production webhooks), workers that run the executions, webhook processors that take production webhooks
 * behind a round-robin balancer, each with this package installed in its own user folder.
 */

export { MAX_PROCESSES_PER_ROLE, queuePorts, type QueuePorts } from './queue-ports';
export type { QueueProcess } from './queue-processes';
export { CONNECTION_SETTINGS, QUEUE_DATABASE, QUEUE_SETTINGS, WORKER_CONCURRENCY, type Role } from './queue-settings';

export interface QueueStackOptions {
	/** Everything the stack writes: databases, user folders, logs. */
	dir: string;
	ports: QueuePorts;
	workers: number;
	webhooks: number;
	/** The sandbox's n8n credential file (`startSandboxGateway`). */
	credentialsFile: string;
	/** Start from an empty database and user folders. */
	fresh: boolean;
	logLevel?: N8nOptions['logLevel'];
	/** Added to every n8n process's environment. */
	extraEnv?: Record<string, string>;
	log: (line: string) => void;
}

export interface QueueStack {
	postgres: Service;
	redis: Service;
	balancer: Balancer;
	main: QueueProcess;
	workers: QueueProcess[];
	webhooks: QueueProcess[];
	rest: N8nRest;
	/** The main's options: for n8n CLI commands against the same database (use its runner port + 10 or + 11). */
	mainOptions: N8nOptions;
	/** The balancer: what WEBHOOK_URL says, and where callbacks go. */
	webhookUrl: string;
	/** The n8n settings of one process, for docs/queue-mode.md#the-environment-of-each-process and the compose comparison. */
	settingsOf(role: Role): Record<string, string>;
	/** Starts or stops workers and webhook processors until there are this many of each. */
	scale(counts: { workers?: number; webhooks?: number }): Promise<void>;
	/** Rows of one SQL statement on n8n's database, or on another of the server's (fields split on `|`). */
	sql(statement: string, database?: string): string[][];
	/** The workers whose log says they started this execution. */
	workersThatRan(executionId: string): string[];
	/** Lines that say what runs where. */
	describe(): string[];
	stop(): Promise<void>;
}

/** Before anything starts: the counts within bounds, every port free, PostgreSQL, Redis and n8n installed, the folder. */
async function prepare(options: QueueStackOptions): Promise<void> {
	if (options.workers > MAX_PROCESSES_PER_ROLE || options.webhooks > MAX_PROCESSES_PER_ROLE)
		throw new Error(`at most ${MAX_PROCESSES_PER_ROLE} workers and webhook processors`);
	await assertPortsFree(options.ports, options.workers, options.webhooks);
	ensureQueueServices(options.log);
	await ensureN8n(options.log);
	if (options.fresh) rmSync(options.dir, { recursive: true, force: true });
	mkdirSync(options.dir, { recursive: true });
}

export async function startQueueStack(options: QueueStackOptions): Promise<QueueStack> {
	const { dir, ports, log } = options;
	await prepare(options);
	const webhookUrl = `http://localhost:${ports.balancer}`;
	const shared = localSettings(ports, webhookUrl, options.extraEnv);
	const connection = localConnection(ports);
	const plan: ProcessPlan = {
		dir,
		ports,
		filesDir: join(dir, 'files'),
		logLevel: options.logLevel ?? 'info',
		settingsOf: (role) => ({ ...shared, ...QUEUE_SETTINGS[role] }),
	};
	prepareFiles(plan.filesDir, false);
	const running: Running = { workers: [], webhooks: [] };
	try {
		const postgres = (running.postgres = await startPostgres(
			{
				...connection,
				dataDir: join(dir, 'postgres', 'data'),
				logFile: join(dir, 'postgres.log'),
				fresh: options.fresh,
			},
			log,
		));
		const redis = (running.redis = await startRedis({
			dir: join(dir, 'redis'),
			port: ports.redis,
			logFile: join(dir, 'redis.log'),
		}));
		const mainOptions = processOptions(plan, 'main', ports.main, ports.mainRunner, 'main');
		await provisionDatabase({
			connection,
			dir,
			sandboxCredentials: options.credentialsFile,
			mainOptions,
			webhookUrl,
			log,
		});
		log(`  starting the n8n main process on ${ports.main}`);
		const main = (running.main = await startProcess(plan, 'main', 0));
		const rest = new N8nRest(main.server.url);
		await rest.ensureOwner();
		const balancer = (running.balancer = await startBalancer(ports.balancer, []));
		const scale = (counts: { workers?: number; webhooks?: number }) => scaleTo(plan, running, balancer, counts);
		log(`  starting ${options.workers} worker(s) and ${options.webhooks} webhook processor(s)`);
		await scale({ workers: options.workers, webhooks: options.webhooks });
		const started: Started = { postgres, redis, balancer, main, workers: running.workers, webhooks: running.webhooks };
		return {
			...started,
			...stackView(started, connection, ports, webhookUrl),
			rest,
			mainOptions,
			settingsOf: plan.settingsOf,
			scale,
			stop: () => stopRunning(running),
		};
	} catch (error) {
		await stopRunning(running);
		throw error;
	}
}

/** A started stack's processes; `workers` and `webhooks` are the lists `scale` changes. */
type Started = Required<Running>;

/** What a started stack answers about itself: SQL on its database, what its logs say, what runs where. */
function stackView(
	started: Started,
	connection: Connection,
	ports: QueuePorts,
	webhookUrl: string,
): Pick<QueueStack, 'webhookUrl' | 'sql' | 'workersThatRan' | 'describe'> {
	const { postgres, redis, main, workers, webhooks } = started;
	return {
		webhookUrl,
		sql: (statement, database) => sqlRows(connection, statement, database),
		workersThatRan: (executionId) =>
			workers
				.filter((w) =>
					new RegExp(`Worker started execution ${executionId} \\(`).test(readFileSync(w.server.logFile, 'utf8')),
				)
				.map((w) => w.name),
		describe: () => [
			`  n8n main       ${main.server.url}   editor, REST API, activation (pid ${main.server.pid}, log ${main.server.logFile})`,
			...webhooks.map(
				(p) =>
					`  ${p.name.padEnd(14)} ${p.server.url}   production webhooks (pid ${p.server.pid}, log ${p.server.logFile})`,
			),
			`  balancer       ${webhookUrl}   WEBHOOK_URL: round robin over the webhook processors`,
			...workers.map(
				(p) =>
					`  ${p.name.padEnd(14)} ${p.server.url}/healthz   runs executions, ${WORKER_CONCURRENCY} at a time (pid ${p.server.pid}, log ${p.server.logFile})`,
			),
			`  PostgreSQL     127.0.0.1:${ports.postgres}   database ${QUEUE_DATABASE.database} (pid ${postgres.pid}, log ${postgres.logFile})`,
			`  Redis          127.0.0.1:${ports.redis}   Bull queue (pid ${redis.pid}, log ${redis.logFile})`,
		],
	};
}
