import { execFileSync, spawn, spawnSync, type ChildProcess } from 'child_process';
import { chownSync, createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'fs';
import { connect } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import { killGroup, tailOf } from './n8n';

/**
 * PostgreSQL and Redis for n8n's queue mode, from Debian's packages, run from a data folder by this process: no
 * system service, nothing outside the folder. PostgreSQL refuses to run as root, so when this runs as root it runs
 * the server as the `postgres` user the Debian package creates, and hands that user its data folder.
 */

export interface Service {
	name: string;
	pid: number;
	port: number;
	logFile: string;
	stop(): Promise<void>;
}

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
		throw new Error(`queue mode needs ${missing.join(' and ')}: install them (sudo apt-get install ${missing.join(' ')}) and run this again`);
	}
	log(`Installing ${missing.join(' and ')} (apt-get) ...`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	execFileSync('apt-get', ['update', '-qq'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
	// policy-rc.d keeps Debian from starting the system services; this stack runs its own.
	execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { env, stdio: ['ignore', 'ignore', 'inherit'] });
	if (!postgresBinDir() || !hasRedis()) throw new Error(`apt-get installed ${missing.join(' and ')}, but they cannot be found`);
}

/** The user that runs PostgreSQL: this one, or `postgres` when this is root. */
function postgresUser(): { uid: number; gid: number; wrap: (command: string, args: string[]) => [string, string[]] } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
	const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
	return {
		uid,
		gid,
		// setpriv execs the command itself, so the process started here is the server and signals reach it.
		wrap: (command, args) => ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args]],
	};
}

function portOpen(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Spawns a server in its own process group with its output in a log file, and stops the whole group later. */
function daemon(name: string, port: number, command: string, args: string[], logFile: string, stopSignal: NodeJS.Signals): { child: ChildProcess; service: Service; exited: () => string | undefined } {
	const log = createWriteStream(logFile, { flags: 'a' });
	const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	child.stdout?.pipe(log);
	child.stderr?.pipe(log);
	let exited: string | undefined;
	child.on('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
	child.on('error', (error) => (exited = error.message));
	const pid = child.pid ?? -1;
	const service: Service = {
		name,
		pid,
		port,
		logFile,
		stop: async () => {
			if (exited !== undefined || !alive(pid)) return;
			killGroup(child, stopSignal);
			for (let waited = 0; waited < 20_000 && exited === undefined; waited += 100) await sleep(100);
			if (exited === undefined) killGroup(child, 'SIGKILL');
			for (let waited = 0; waited < 5_000 && exited === undefined; waited += 100) await sleep(100);
		},
	};
	return { child, service, exited: () => exited };
}

async function waitForPort(what: { service: Service; exited: () => string | undefined }, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await portOpen(what.service.port))) {
		const exited = what.exited();
		if (exited !== undefined) throw new Error(`${what.service.name} stopped while starting (${exited}); see ${what.service.logFile}:\n${tailOf(what.service.logFile)}`);
		if (Date.now() > deadline) {
			await what.service.stop();
			throw new Error(`${what.service.name} did not listen on ${what.service.port} within ${timeoutMs / 1000} s; see ${what.service.logFile}`);
		}
		await sleep(200);
	}
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
	return spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', 'test', '-w', dir], { stdio: 'ignore' }).status === 0;
}

/**
 * Runs PostgreSQL on 127.0.0.1:`port` (no Unix socket), with password authentication for `user`, and makes the
 * database when missing. Durability settings are off: this is a local stack whose data can be made again.
 */
export async function startPostgres(options: PostgresOptions, log: (line: string) => void): Promise<Service & { dataDir: string }> {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
	const runAs = postgresUser();
	let dataDir = options.dataDir;
	const parent = join(dataDir, '..');
	mkdirSync(parent, { recursive: true });
	if (runAs && !reachable(parent, runAs.uid, runAs.gid)) {
		chownSync(parent, runAs.uid, runAs.gid);
		if (!reachable(parent, runAs.uid, runAs.gid)) {
			// A folder above is closed to other users: keep the data where the postgres user can write.
			dataDir = join(tmpdir(), `haipay-queue-postgres-${options.port}`);
			log(`  the postgres user cannot enter ${parent}; its data goes to ${dataDir}`);
		}
	}
	const run = (command: string, args: string[]): [string, string[]] => (runAs ? runAs.wrap(command, args) : [command, args]);
	if (options.fresh) rmSync(dataDir, { recursive: true, force: true });
	if (!existsSync(join(dataDir, 'PG_VERSION'))) {
		rmSync(dataDir, { recursive: true, force: true });
		mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		const pwfile = join(dataDir, '..', `.pgpass-init-${options.port}`);
		writeFileSync(pwfile, `${options.password}\n`, { mode: 0o600 });
		if (runAs) {
			chownSync(dataDir, runAs.uid, runAs.gid);
			chownSync(pwfile, runAs.uid, runAs.gid);
		}
		log(`  initdb ${dataDir}`);
		const [command, args] = run(join(bin, 'initdb'), [
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
	const [command, args] = run(join(bin, 'postgres'), [
		'-D',
		dataDir,
		'-p',
		String(options.port),
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
	]);
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
export function psqlRows(connection: Connection, sql: string, database = connection.database): { status: number; rows: string[][]; stderr: string } {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed');
	const result = spawnSync(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(connection.port), '-U', connection.user, '-d', database, '-tAc', sql], {
		env: { ...process.env, PGPASSWORD: connection.password },
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	const rows = (result.stdout ?? '')
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => line.split('|'));
	return { status: result.status ?? 1, rows, stderr: result.stderr ?? '' };
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
			...['--port', String(options.port), '--bind', '127.0.0.1', '--dir', options.dir, '--save', '', '--appendonly', 'no'],
			// Its own process title would overwrite the command line and environment that say which stack it belongs to.
			...['--daemonize', 'no', '--protected-mode', 'yes', '--set-proc-title', 'no'],
		],
		options.logFile,
		'SIGTERM',
	);
	await waitForPort(started);
	return started.service;
}
