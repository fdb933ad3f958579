import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';

import { EXACTLY_ONCE_DATABASE, EXACTLY_ONCE_TABLE_SQL, POSTGRES_CREDENTIAL } from '../examples';
import type { Service } from './daemon';
import { ensureN8n } from './install';
import { assertPortFree, examplesFor, prepareFiles, provision } from './instance';
import { installPackage, startN8nServer, type N8nOptions, type N8nServer } from './n8n';
import { startBalancer, type Balancer } from './queue-balancer';
import { ensureQueueServices, psqlRows, startPostgres, startRedis, type Connection } from './queue-services';
import { N8nRest } from './rest';

/**
 * n8n in queue mode on this machine: PostgreSQL and Redis, a main process (editor, REST API, activation; no
 * production webhooks), workers that run the executions, webhook processors that take production webhooks
 * behind a round-robin balancer, each with this package installed in its own user folder.
 */

export type Role = 'main' | 'worker' | 'webhook';

/** The database and its user; docs/queue/docker-compose.yml uses the same. */
export const QUEUE_DATABASE = { database: 'n8n', user: 'n8n' } as const;

/** Executions one worker runs at once (`n8n worker --concurrency`): n8n's default, and the compose example's. */
export const WORKER_CONCURRENCY = 10;

/**
 * The n8n settings of queue mode that do not depend on where things run: every process of the local stack gets
 * these, and the compose example must say the same (test/queue/compose.test.ts compares them).
 */
export const QUEUE_SETTINGS: Record<'all' | Role, Record<string, string>> = {
	all: {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_DATABASE: QUEUE_DATABASE.database,
		DB_POSTGRESDB_USER: QUEUE_DATABASE.user,
		// Each process has the package in its own nodes folder (a custom image or a mounted folder): none downloads it.
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		GENERIC_TIMEZONE: 'UTC',
	},
	// The editor's "Execute workflow" runs on a worker too, and production webhooks go to the webhook processors only.
	main: { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true', N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
	worker: { QUEUE_HEALTH_CHECK_ACTIVE: 'true' },
	// n8n holds an expression isolate through the webhook step of every webhook node but its own Webhook node; lazily,
	// one is taken only when an expression is evaluated, which the HaiPay Trigger's webhook step never does
	// (docs/queue-mode.md, "What to run").
	webhook: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
};

/** Settings whose values differ per deployment (host names, ports, secrets) but which every process must have. */
export const CONNECTION_SETTINGS = [
	'DB_POSTGRESDB_HOST',
	'DB_POSTGRESDB_PORT',
	'DB_POSTGRESDB_PASSWORD',
	'QUEUE_BULL_REDIS_HOST',
	'QUEUE_BULL_REDIS_PORT',
	'N8N_ENCRYPTION_KEY',
	'N8N_WEBHOOK_URL',
] as const;

/** Test-only secrets of the local stack: it listens on 127.0.0.1 only and its data can be made again. */
const LOCAL_SECRETS = { dbPassword: 'haipay-queue-test-only', encryptionKey: 'haipay-queue-test-only-encryption-key' } as const;

/**
 * Every port of one stack, from a base: `npm run start:queue`, the queue tests and the benchmark each use their
 * own base, so they can run beside each other and beside `npm start` (5678) and the e2e tests.
 */
export interface QueuePorts {
	postgres: number;
	redis: number;
	sandbox: number;
	balancer: number;
	main: number;
	/** The main's task runner; its CLI commands use +10 and +11. */
	mainRunner: number;
	webhook(index: number): { port: number; runner: number };
	worker(index: number): { port: number; runner: number };
}

export const MAX_PROCESSES_PER_ROLE = 8;

export function queuePorts(base: number): QueuePorts {
	return {
		postgres: base,
		redis: base + 1,
		sandbox: base + 2,
		balancer: base + 3,
		main: base + 4,
		mainRunner: base + 5,
		webhook: (index) => ({ port: base + 20 + index * 2, runner: base + 21 + index * 2 }),
		worker: (index) => ({ port: base + 40 + index * 2, runner: base + 41 + index * 2 }),
	};
}

/** What each port of a stack is for, to check they are free before anything starts. */
function portsInUse(ports: QueuePorts, workers: number, webhooks: number): Array<[number, string]> {
	const list: Array<[number, string]> = [
		[ports.postgres, 'PostgreSQL'],
		[ports.redis, 'Redis'],
		[ports.balancer, 'the webhook balancer'],
		[ports.main, 'the n8n main process'],
		[ports.mainRunner, "the main's task runner"],
		[ports.mainRunner + 10, "the main's CLI task runner"],
		[ports.mainRunner + 11, "the main's CLI task runner"],
	];
	for (let i = 0; i < webhooks; i++) list.push([ports.webhook(i).port, `webhook processor ${i + 1}`], [ports.webhook(i).runner, `webhook processor ${i + 1}'s task runner`]);
	for (let i = 0; i < workers; i++) list.push([ports.worker(i).port, `worker ${i + 1}'s health check`], [ports.worker(i).runner, `worker ${i + 1}'s task runner`]);
	return list;
}

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
	/** The n8n settings of one process, for the README and the compose comparison. */
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

/**
 * The database of the exactly-once example (5-exactly-once-callbacks.json) on the stack's PostgreSQL, with the
 * example's table, and the sandbox's credentials file with a Postgres credential for it added: queue mode has a
 * database, so the example runs as it is.
 */
function exactlyOnceDatabase(connection: Connection, dir: string, sandboxCredentials: string): string {
	const run = (statement: string, database: string) => {
		const result = psqlRows(connection, statement, database);
		if (result.status !== 0) throw new Error(`SQL failed: ${result.stderr}\n${statement}`);
		return result.rows;
	};
	if (run(`SELECT 1 FROM pg_database WHERE datname = '${EXACTLY_ONCE_DATABASE}'`, 'postgres').length === 0) {
		run(`CREATE DATABASE "${EXACTLY_ONCE_DATABASE}"`, 'postgres');
	}
	run(EXACTLY_ONCE_TABLE_SQL, EXACTLY_ONCE_DATABASE);
	const credentials = JSON.parse(readFileSync(sandboxCredentials, 'utf8')) as unknown[];
	credentials.push({
		...POSTGRES_CREDENTIAL,
		type: 'postgres',
		data: { host: '127.0.0.1', port: connection.port, database: EXACTLY_ONCE_DATABASE, user: connection.user, password: connection.password, ssl: 'disable', allowUnauthorizedCerts: false, maxConnections: 20 },
	});
	const file = join(dir, 'credentials.json');
	writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
	return file;
}

export async function startQueueStack(options: QueueStackOptions): Promise<QueueStack> {
	const { dir, ports, log } = options;
	if (options.workers > MAX_PROCESSES_PER_ROLE || options.webhooks > MAX_PROCESSES_PER_ROLE) throw new Error(`at most ${MAX_PROCESSES_PER_ROLE} workers and webhook processors`);
	for (const [port, what] of portsInUse(ports, options.workers, options.webhooks)) await assertPortFree(port, what);
	ensureQueueServices(log);
	await ensureN8n(log);
	if (options.fresh) rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });

	const webhookUrl = `http://localhost:${ports.balancer}`;
	const shared: Record<string, string> = {
		...QUEUE_SETTINGS.all,
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(ports.postgres),
		DB_POSTGRESDB_PASSWORD: LOCAL_SECRETS.dbPassword,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(ports.redis),
		N8N_ENCRYPTION_KEY: LOCAL_SECRETS.encryptionKey,
		N8N_WEBHOOK_URL: `${webhookUrl}/`,
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		...options.extraEnv,
	};
	const connection: Connection = { port: ports.postgres, user: QUEUE_DATABASE.user, password: LOCAL_SECRETS.dbPassword, database: QUEUE_DATABASE.database };
	const settingsOf = (role: Role) => ({ ...shared, ...QUEUE_SETTINGS[role] });
	const filesDir = join(dir, 'files');
	prepareFiles(filesDir, false);
	const optionsFor = (name: string, port: number, runnerPort: number, role: Role): N8nOptions => ({
		home: join(dir, name),
		filesDir,
		port,
		runnerPort,
		logLevel: options.logLevel ?? 'info',
		extraEnv: { ...settingsOf(role), ...(role === 'worker' ? { QUEUE_HEALTH_CHECK_PORT: String(port) } : {}) },
	});

	let postgres: Service | undefined;
	let redis: Service | undefined;
	let balancer: Balancer | undefined;
	let main: QueueProcess | undefined;
	const workers: QueueProcess[] = [];
	const webhooks: QueueProcess[] = [];
	const stop = async () => {
		await balancer?.close();
		// Webhook processors first (nothing new comes in), then workers (they finish or hand back what they run).
		await Promise.all(webhooks.splice(0).map((p) => p.server.stop()));
		await Promise.all(workers.splice(0).map((p) => p.server.stop()));
		await main?.server.stop();
		await redis?.stop();
		await postgres?.stop();
	};

	const startProcess = async (role: Role, index: number): Promise<QueueProcess> => {
		const name = role === 'main' ? 'main' : `${role}-${index + 1}`;
		const where = role === 'main' ? { port: ports.main, runner: ports.mainRunner } : role === 'worker' ? ports.worker(index) : ports.webhook(index);
		const n8nOptions = optionsFor(name, where.port, where.runner, role);
		mkdirSync(n8nOptions.home, { recursive: true });
		installPackage(n8nOptions.home);
		const command = role === 'main' ? ['start'] : role === 'worker' ? ['worker', `--concurrency=${WORKER_CONCURRENCY}`] : ['webhook'];
		const server = await startN8nServer(n8nOptions, join(dir, `${name}.log`), 180_000, command);
		return { name, role, index, server, port: where.port, runnerPort: where.runner, home: n8nOptions.home };
	};

	try {
		postgres = await startPostgres({ ...connection, dataDir: join(dir, 'postgres', 'data'), logFile: join(dir, 'postgres.log'), fresh: options.fresh }, log);
		redis = await startRedis({ dir: join(dir, 'redis'), port: ports.redis, logFile: join(dir, 'redis.log') });
		const mainOptions = optionsFor('main', ports.main, ports.mainRunner, 'main');
		const credentialsFile = exactlyOnceDatabase(connection, dir, options.credentialsFile);
		const marker = join(dir, '.provisioned');
		const key = readFileSync(credentialsFile, 'utf8');
		if (!existsSync(marker) || readFileSync(marker, 'utf8') !== key) {
			log('  importing the credentials and example workflows into PostgreSQL (n8n CLI)');
			await provision(mainOptions, credentialsFile, log, examplesFor(join(dir, 'examples'), webhookUrl));
			writeFileSync(marker, key);
		}
		log(`  starting the n8n main process on ${ports.main}`);
		main = await startProcess('main', 0);
		const rest = new N8nRest(main.server.url);
		await rest.ensureOwner();
		balancer = await startBalancer(ports.balancer, []);
		const running = balancer;

		const scale = async (counts: { workers?: number; webhooks?: number }) => {
			const wantWorkers = counts.workers ?? workers.length;
			const wantWebhooks = counts.webhooks ?? webhooks.length;
			if (wantWorkers > MAX_PROCESSES_PER_ROLE || wantWebhooks > MAX_PROCESSES_PER_ROLE) throw new Error(`at most ${MAX_PROCESSES_PER_ROLE} of each`);
			const starting: Array<Promise<void>> = [];
			for (let i = workers.length; i < wantWorkers; i++) starting.push(startProcess('worker', i).then((p) => void (workers[p.index] = p)));
			for (let i = webhooks.length; i < wantWebhooks; i++) starting.push(startProcess('webhook', i).then((p) => void (webhooks[p.index] = p)));
			const results = await Promise.allSettled(starting);
			const stopping = [...workers.splice(wantWorkers), ...webhooks.splice(wantWebhooks)];
			running.setTargets(webhooks.filter(Boolean).map((p) => p.server.url));
			await Promise.all(stopping.map((p) => p.server.stop()));
			const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
			if (failed) throw failed.reason as Error;
		};
		log(`  starting ${options.workers} worker(s) and ${options.webhooks} webhook processor(s)`);
		await scale({ workers: options.workers, webhooks: options.webhooks });
		const started = main;

		return {
			postgres,
			redis,
			balancer,
			main: started,
			workers,
			webhooks,
			rest,
			mainOptions,
			webhookUrl,
			settingsOf,
			scale,
			sql: (statement, database) => {
				const result = psqlRows(connection, statement, database);
				if (result.status !== 0) throw new Error(`SQL failed: ${result.stderr}\n${statement}`);
				return result.rows;
			},
			workersThatRan: (executionId) =>
				workers
					.filter((w) => new RegExp(`Worker started execution ${executionId} \\(`).test(readFileSync(w.server.logFile, 'utf8')))
					.map((w) => w.name),
			describe: () => [
				`  n8n main       ${started.server.url}   editor, REST API, activation (pid ${started.server.pid}, log ${started.server.logFile})`,
				...webhooks.map((p) => `  ${p.name.padEnd(14)} ${p.server.url}   production webhooks (pid ${p.server.pid}, log ${p.server.logFile})`),
				`  balancer       ${webhookUrl}   WEBHOOK_URL: round robin over the webhook processors`,
				...workers.map((p) => `  ${p.name.padEnd(14)} ${p.server.url}/healthz   runs executions, ${WORKER_CONCURRENCY} at a time (pid ${p.server.pid}, log ${p.server.logFile})`),
				`  PostgreSQL     127.0.0.1:${ports.postgres}   database ${QUEUE_DATABASE.database} (pid ${postgres?.pid}, log ${postgres?.logFile})`,
				`  Redis          127.0.0.1:${ports.redis}   Bull queue (pid ${redis?.pid}, log ${redis?.logFile})`,
			],
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
