import type { Connection } from './queue-services';
import type { QueuePorts } from './queue-ports';

/**
 * The n8n settings of queue mode: those every deployment has (compared with docs/queue/docker-compose.yml by
 * test/queue/compose.test.ts), and the local stack's values of those that differ per deployment.
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
const LOCAL_SECRETS = {
	dbPassword: 'haipay-queue-test-only',
	encryptionKey: 'haipay-queue-test-only-encryption-key',
} as const;

/** n8n's database on the local stack's PostgreSQL. */
export function localConnection(ports: QueuePorts): Connection {
	return {
		port: ports.postgres,
		user: QUEUE_DATABASE.user,
		password: LOCAL_SECRETS.dbPassword,
		database: QUEUE_DATABASE.database,
	};
}

/**
 * The settings every process of the local stack has: QUEUE_SETTINGS.all and the CONNECTION_SETTINGS for this
 * machine (127.0.0.1, the stack's ports, the test-only secrets, the balancer as WEBHOOK_URL), then `extraEnv`.
 */
export function localSettings(
	ports: QueuePorts,
	webhookUrl: string,
	extraEnv?: Record<string, string>,
): Record<string, string> {
	return {
		...QUEUE_SETTINGS.all,
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(ports.postgres),
		DB_POSTGRESDB_PASSWORD: LOCAL_SECRETS.dbPassword,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(ports.redis),
		N8N_ENCRYPTION_KEY: LOCAL_SECRETS.encryptionKey,
		N8N_WEBHOOK_URL: `${webhookUrl}/`,
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		...extraEnv,
	};
}
