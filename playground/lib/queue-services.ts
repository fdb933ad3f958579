import { execFileSync, spawnSync } from 'child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { daemon, waitForPort, type Service } from './daemon';

/**
 * PostgreSQL and Redis for n8n's queue mode, from Debian's packages, run from a data folder by this process: no
 * system service, nothing outside the folder. PostgreSQL refuses to run as root, so when this runs as root it runs
 * the server as the `postgres` user the Debian package creates, and hands that user its data folder.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function hasRedis(): boolean {
	return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Installs `postgresql` and `redis-server` with apt-get when either is missing (root only, as on this machine kind). */
export function ensureQueueServices(log: (line: string) => void): void {
	const missing = [...(postgresBinDir() ? [] : ['postgresql']), ...(hasRedis() ? [] : ['redis-server'])];
	if (missing.length === 0) return;
	if (process.getuid?.() !== 0) {
		throw new Error(
			`queue mode needs ${missing.join(' and ')}: install them (sudo apt-get install ${missing.join(' ')}) and run this again`,
		);
	}
	log(`Installing ${missing.join(' and ')} (apt-get) ...`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	execFileSync('apt-get', ['update', '-qq'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
	// policy-rc.d keeps Debian from starting the system services; this stack runs its own.
	execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { env, stdio: ['ignore', 'ignore', 'inherit'] });
	if (!postgresBinDir() || !hasRedis())
		throw new Error(`apt-get installed ${missing.join(' and ')}, but they cannot be found`);
}

interface PostgresUser {
	uid: number;
	gid: number;
	wrap: (command: string, args: string[]) => [string, string[]];
}

/** Who runs PostgreSQL when it is not this user: `postgres`, when this is root. */
function postgresUser(): PostgresUser | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
	const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
	return {
		uid,
		gid,
		// setpriv execs the command itself, so the process started here is the server and signals reach it.
		wrap: (command, args) => [
			'setpriv',
			['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args],
		],
	};
}

/** A command as the user that runs PostgreSQL. */
function asPostgresUser(user: PostgresUser | undefined, command: string, args: string[]): [string, string[]] {
	return user ? user.wrap(command, args) : [command, args];
}

export interface PostgresOptions extends Connection {
	/** Its data folder; made with initdb on first use, kept afterwards. */
	dataDir: string;
	logFile: string;
	/** Start from an empty cluster, wherever the data went last time. */
	fresh?: boolean;
}

/** Whether the `postgres` user can reach and write into `dir`: the clone may sit under a folder only root enters. */
function reachable(dir: string, uid: number, gid: number): boolean {
	return (
		spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', 'test', '-w', dir], {
			stdio: 'ignore',
		}).status === 0
	);
}

/** The data folder: `options.dataDir`, or one in the temp folder when the postgres user cannot enter its parent. */
function postgresDataDir(
	options: PostgresOptions,
	user: PostgresUser | undefined,
	log: (line: string) => void,
): string {
	const parent = join(options.dataDir, '..');
	mkdirSync(parent, { recursive: true });
	if (user && !reachable(parent, user.uid, user.gid)) {
		chownSync(parent, user.uid, user.gid);
		if (!reachable(parent, user.uid, user.gid)) {
			// A folder above is closed to other users: keep the data where the postgres user can write.
			const dataDir = join(tmpdir(), `haipay-queue-postgres-${options.port}`);
			log(`  the postgres user cannot enter ${parent}; its data goes to ${dataDir}`);
			return dataDir;
		}
	}
	return options.dataDir;
}

/** initdb: a new cluster in `dataDir`, owned by the user that runs it, with password authentication for `options.user`. */
function initCluster(
	bin: string,
	dataDir: string,
	options: PostgresOptions,
	user: PostgresUser | undefined,
	log: (line: string) => void,
): void {
	rmSync(dataDir, { recursive: true, force: true });
	mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	const pwfile = join(dataDir, '..', `.pgpass-init-${options.port}`);
	writeFileSync(pwfile, `${options.password}\n`, { mode: 0o600 });
	if (user) {
		chownSync(dataDir, user.uid, user.gid);
		chownSync(pwfile, user.uid, user.gid);
	}
	log(`  initdb ${dataDir}`);
	const [command, args] = asPostgresUser(user, join(bin, 'initdb'), [
		'-D',
		dataDir,
		'-U',
		options.user,
		`--pwfile=${pwfile}`,
		'--auth=scram-sha-256',
		'-E',
		'UTF8',
		'--no-locale',
	]);
	const result = spawnSync(command, args, { encoding: 'utf8' });
	rmSync(pwfile, { force: true });
	if (result.status !== 0) throw new Error(`initdb failed: ${result.stderr}${result.stdout}`);
}

/** The server's arguments: 127.0.0.1 only, no Unix socket, and durability off (the data can be made again). */
function serverArgs(dataDir: string, port: number): string[] {
	return [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'unix_socket_directories=',
		'-c',
		'max_connections=200',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
	];
}

/**
 * Runs PostgreSQL on 127.0.0.1:`port` (no Unix socket), with password authentication for `user`, and makes the
 * database when missing. Durability settings are off: this is a local stack whose data can be made again.
 */
export async function startPostgres(
	options: PostgresOptions,
	log: (line: string) => void,
): Promise<Service & { dataDir: string }> {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
	const user = postgresUser();
	const dataDir = postgresDataDir(options, user, log);
	if (options.fresh) rmSync(dataDir, { recursive: true, force: true });
	if (!existsSync(join(dataDir, 'PG_VERSION'))) initCluster(bin, dataDir, options, user, log);
	const [command, args] = asPostgresUser(user, join(bin, 'postgres'), serverArgs(dataDir, options.port));
	// SIGINT is PostgreSQL's fast shutdown: open sessions are ended, nothing is lost that was committed.
	const started = daemon('PostgreSQL', options.port, command, args, options.logFile, 'SIGINT');
	await waitForPort(started);
	await ensureDatabase(options);
	return { ...started.service, dataDir };
}

export interface Connection {
	port: number;
	user: string;
	password: string;
	database: string;
}

/** Runs one SQL statement with psql and returns its rows, fields separated by `|`. */
export function psqlRows(
	connection: Connection,
	sql: string,
	database = connection.database,
): { status: number; rows: string[][]; stderr: string } {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed');
	const result = spawnSync(
		join(bin, 'psql'),
		['-h', '127.0.0.1', '-p', String(connection.port), '-U', connection.user, '-d', database, '-tAc', sql],
		{
			env: { ...process.env, PGPASSWORD: connection.password },
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
		},
	);
	const rows = (result.stdout ?? '')
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => line.split('|'));
	return { status: result.status ?? 1, rows, stderr: result.stderr ?? '' };
}

/** The rows of one SQL statement, or an error naming it. */
export function sqlRows(connection: Connection, statement: string, database?: string): string[][] {
	const result = psqlRows(connection, statement, database);
	if (result.status !== 0) throw new Error(`SQL failed: ${result.stderr}\n${statement}`);
	return result.rows;
}

async function ensureDatabase(options: PostgresOptions): Promise<void> {
	const psql = (database: string, sql: string) => {
		const result = psqlRows(options, sql, database);
		return { status: result.status, stdout: result.rows.map((row) => row.join('|')).join('\n'), stderr: result.stderr };
	};
	const deadline = Date.now() + 30_000;
	for (;;) {
		const exists = psql('postgres', `SELECT 1 FROM pg_database WHERE datname = '${options.database}'`);
		if (exists.status === 0) {
			if (exists.stdout.trim() === '1') return;
			const created = psql('postgres', `CREATE DATABASE "${options.database}"`);
			if (created.status !== 0) throw new Error(`creating database ${options.database} failed: ${created.stderr}`);
			return;
		}
		// Listening is not accepting: PostgreSQL answers "starting up" for a moment.
		if (Date.now() > deadline) throw new Error(`PostgreSQL does not accept connections: ${exists.stderr}`);
		await sleep(300);
	}
}

/** Redis on 127.0.0.1:`port`, in memory only (no snapshot, no append-only file): queue state lives as long as the stack. */
export async function startRedis(options: { dir: string; port: number; logFile: string }): Promise<Service> {
	mkdirSync(options.dir, { recursive: true });
	const started = daemon(
		'Redis',
		options.port,
		'redis-server',
		[
			...[
				'--port',
				String(options.port),
				'--bind',
				'127.0.0.1',
				'--dir',
				options.dir,
				'--save',
				'',
				'--appendonly',
				'no',
			],
			// Its own process title would overwrite the command line and environment that say which stack it belongs to.
			...['--daemonize', 'no', '--protected-mode', 'yes', '--set-proc-title', 'no'],
		],
		options.logFile,
		'SIGTERM',
	);
	await waitForPort(started);
	return started.service;
}
