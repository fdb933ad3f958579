import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { EXACTLY_ONCE_DATABASE, EXACTLY_ONCE_TABLE_SQL, POSTGRES_CREDENTIAL } from '../workflows/exactly-once';
import { examplesFor, provision } from './instance';
import type { N8nOptions } from './n8n';
import { sqlRows, type Connection } from './queue-services';

/**
 * What the stack's PostgreSQL holds before n8n's main starts: the exactly-once example's database, and n8n's
 * credentials and example workflows, imported once per credentials file.
 */

/**
 * The database of the exactly-once example (5-exactly-once-callbacks.json) on the stack's PostgreSQL, with the
 * example's table, and the sandbox's credentials file with a Postgres credential for it added: queue mode has a
 * database, so the example runs as it is.
 */
function exactlyOnceDatabase(connection: Connection, dir: string, sandboxCredentials: string): string {
	if (
		sqlRows(connection, `SELECT 1 FROM pg_database WHERE datname = '${EXACTLY_ONCE_DATABASE}'`, 'postgres').length === 0
	) {
		sqlRows(connection, `CREATE DATABASE "${EXACTLY_ONCE_DATABASE}"`, 'postgres');
	}
	sqlRows(connection, EXACTLY_ONCE_TABLE_SQL, EXACTLY_ONCE_DATABASE);
	const credentials = JSON.parse(readFileSync(sandboxCredentials, 'utf8')) as unknown[];
	credentials.push({
		...POSTGRES_CREDENTIAL,
		type: 'postgres',
		data: {
			host: '127.0.0.1',
			port: connection.port,
			database: EXACTLY_ONCE_DATABASE,
			user: connection.user,
			password: connection.password,
			ssl: 'disable',
			allowUnauthorizedCerts: false,
			maxConnections: 20,
		},
	});
	const file = join(dir, 'credentials.json');
	writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
	return file;
}

export interface ProvisionOptions {
	connection: Connection;
	/** The stack's folder: the credentials file, the examples with their URLs and the marker of what was imported. */
	dir: string;
	/** The sandbox's n8n credential file. */
	sandboxCredentials: string;
	/** The main's options: the CLI imports into the database the main will use. */
	mainOptions: N8nOptions;
	/** The balancer: the examples' callback URLs name it. */
	webhookUrl: string;
	log: (line: string) => void;
}

/** The exactly-once database, then the n8n CLI's imports, unless these very credentials were imported before. */
export async function provisionDatabase(options: ProvisionOptions): Promise<void> {
	const { dir, log } = options;
	const credentialsFile = exactlyOnceDatabase(options.connection, dir, options.sandboxCredentials);
	const marker = join(dir, '.provisioned');
	const key = readFileSync(credentialsFile, 'utf8');
	if (!existsSync(marker) || readFileSync(marker, 'utf8') !== key) {
		log('  importing the credentials and example workflows into PostgreSQL (n8n CLI)');
		await provision(options.mainOptions, credentialsFile, log, examplesFor(join(dir, 'examples'), options.webhookUrl));
		writeFileSync(marker, key);
	}
}
