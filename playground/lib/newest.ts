import { execFileSync, spawn } from 'child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { isInstalled } from './install';
import { INSTALL_DIR, N8N_MANIFEST_DIR, PLAYGROUND, ROOT } from './paths';

/*
 * The newest n8n 2.x the npm registry serves, for CI's compatibility run (playground/ci-compat.sh): found when the
 * run starts, so that a new n8n release shows up as a red test rather than as duplicates at a user's. It is installed
 * like the pinned one (lib/install.ts: scripts off, sqlite3 built for the Node 24 binary), with the playground's
 * Node 24 and overrides, into INSTALL_DIR from a manifest written into N8N_MANIFEST_DIR with the lockfile npm
 * resolves for it. A version whose tree the registry cannot serve is skipped for the next older one, the reason
 * said and kept for a day; versions not newer than the pinned one are left to ci-e2e.sh. An installed version is
 * used again as long as it is the newest that installs.
 */

/** How many versions newer than the pinned one are tried, newest first: each failed try costs about a minute. */
export const MAX_TRIES = 3;

/** Exit code when nothing newer than the pinned n8n can be installed: nothing to test beyond ci-e2e.sh. */
export const NOTHING_NEWER = 3;

interface Manifest {
	dependencies: Record<string, string>;
	overrides?: Record<string, string>;
}

function parts(version: string): number[] {
	return version.split('.').map(Number);
}

/** Orders versions a.b.c newest first. */
export function newestFirst(a: string, b: string): number {
	const [x, y] = [parts(a), parts(b)];
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return y[i] - x[i];
	return 0;
}

/** The released 2.x versions newer than `pinned`, newest first (pre-releases such as 2.42.0-rc.1 are left out). */
export function newerThan(versions: string[], pinned: string): string[] {
	return versions
		.filter((version) => /^2\.\d+\.\d+$/.test(version) && newestFirst(version, pinned) < 0)
		.sort(newestFirst);
}

/** The playground's manifest with another n8n: the same Node 24 package and the same overrides. */
export function manifestFor(version: string, playground: Manifest): Manifest {
	return { ...playground, dependencies: { ...playground.dependencies, n8n: version } };
}

/** Why an install failed, in a line: the package version the registry lacks, or the end of npm's error. */
export function whyNot(output: string): string {
	const missing = /No matching version found for (\S+?)\.?\s/.exec(output);
	if (missing) return `the registry lacks ${missing[1]}, which it needs`;
	const errors = output.split('\n').filter((line) => /npm error|Error:/.test(line));
	return (errors.slice(-2).join(' / ') || output.trim().split('\n').slice(-1)[0] || 'unknown').slice(0, 300);
}

function playgroundManifest(): Manifest {
	const { dependencies, overrides } = JSON.parse(readFileSync(join(PLAYGROUND, 'package.json'), 'utf8')) as Manifest;
	return { dependencies, overrides };
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** A command's exit and output, the output passed on when `echo` is set. */
function run(command: string, args: string[], cwd: string, echo: boolean): Promise<{ ok: boolean; output: string }> {
	return new Promise((resolve) => {
		const child = spawn(command, args, {
			cwd,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, npm_config_update_notifier: 'false' },
		});
		let output = '';
		const keep = (chunk: Buffer) => {
			output += chunk.toString();
			if (echo) process.stdout.write(chunk);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.on('close', (code) => resolve({ ok: code === 0, output }));
		child.on('error', (error) => resolve({ ok: false, output: error.message }));
	});
}

function writeManifest(dir: string, manifest: Manifest, lockfile?: string): void {
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, 'package.json'),
		`${JSON.stringify({ name: 'n8n-nodes-haipay-newest', version: '0.0.0', private: true, ...manifest }, null, 2)}\n`,
	);
	copyFileSync(join(PLAYGROUND, '.npmrc'), join(dir, '.npmrc'));
	if (lockfile !== undefined) writeFileSync(join(dir, 'package-lock.json'), lockfile);
}

/**
 * npm's resolution of the version's whole tree, in a folder of its own (`--package-lock-only`: nothing downloaded,
 * the install left alone): its lockfile, or why the registry cannot serve it. About a minute.
 */
async function resolveTree(manifest: Manifest): Promise<{ lockfile?: string; reason?: string }> {
	const dir = mkdtempSync(join(tmpdir(), 'haipay-n8n-newest-'));
	try {
		writeManifest(dir, manifest);
		const { ok, output } = await run(
			'npm',
			['install', '--package-lock-only', '--no-audit', '--no-fund', '--ignore-scripts'],
			dir,
			false,
		);
		return ok ? { lockfile: readFileSync(join(dir, 'package-lock.json'), 'utf8') } : { reason: whyNot(output) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** Versions found not to install here, with why and when: not tried again for a day. */
type Unavailable = Record<string, { reason: string; at: number }>;
const UNAVAILABLE = join(N8N_MANIFEST_DIR, 'unavailable.json');
const RETRY_AFTER_MS = 24 * 3600_000;

function readUnavailable(): Unavailable {
	return existsSync(UNAVAILABLE) ? (JSON.parse(readFileSync(UNAVAILABLE, 'utf8')) as Unavailable) : {};
}

function installedVersion(): string | undefined {
	const file = join(N8N_MANIFEST_DIR, 'version');
	return existsSync(file) && isInstalled() ? readFileSync(file, 'utf8').trim() : undefined;
}

/** Installs `version` (or finds it installed); undefined when done, else why not. */
async function installVersion(
	version: string,
	manifest: Manifest,
	unavailable: Unavailable,
): Promise<string | undefined> {
	const known = unavailable[version];
	if (known !== undefined && Date.now() - known.at < RETRY_AFTER_MS)
		return `${known.reason} (found ${new Date(known.at).toISOString()})`;
	if (installedVersion() === version) return undefined;
	say(`== resolving n8n ${version}'s dependencies`);
	const { lockfile, reason } = await resolveTree(manifest);
	if (lockfile === undefined) {
		unavailable[version] = { reason: reason ?? 'unknown', at: Date.now() };
		writeFileSync(UNAVAILABLE, `${JSON.stringify(unavailable, null, 2)}\n`);
		return reason;
	}
	writeManifest(N8N_MANIFEST_DIR, manifest, lockfile);
	rmSync(join(N8N_MANIFEST_DIR, 'version'), { force: true });
	// lib/install.ts in a child process: its paths are read from this environment.
	const installed = await run('npx', ['tsx', join(PLAYGROUND, 'lib', 'install.ts')], ROOT, true);
	if (!installed.ok) return whyNot(installed.output);
	writeFileSync(join(N8N_MANIFEST_DIR, 'version'), `${version}\n`);
	return undefined;
}

async function main(): Promise<number> {
	if (N8N_MANIFEST_DIR === PLAYGROUND)
		throw new Error('set HAIPAY_N8N_MANIFEST to a folder of its own: this script writes its manifest there');
	mkdirSync(N8N_MANIFEST_DIR, { recursive: true });
	const playground = playgroundManifest();
	const pinned = playground.dependencies.n8n;
	const versions = JSON.parse(
		execFileSync('npm', ['view', 'n8n', 'versions', '--json'], { encoding: 'utf8' }),
	) as string[];
	const tries = newerThan(versions, pinned).slice(0, MAX_TRIES);
	if (tries.length === 0) {
		say(`== the newest n8n 2.x the registry serves is the pinned ${pinned}: ci-e2e.sh tested it`);
		return NOTHING_NEWER;
	}
	say(`== the newest n8n 2.x the registry serves: ${tries[0]}; installing into ${INSTALL_DIR}`);
	const unavailable = readUnavailable();
	const skipped: string[] = [];
	for (const version of tries) {
		const manifest = manifestFor(version, playground);
		const why = await installVersion(version, manifest, unavailable);
		if (why === undefined) {
			say(
				`== n8n ${version} installed, with the playground's Node 24 and overrides ${JSON.stringify(manifest.overrides ?? {})}`,
			);
			for (const line of skipped) say(`   instead of ${line}`);
			return 0;
		}
		skipped.push(`n8n ${version}: ${why}`);
		say(`== n8n ${version} cannot be installed here: ${why}`);
	}
	say(
		`== no n8n 2.x newer than the pinned ${pinned} installs here (tried ${tries.join(', ')}): ci-e2e.sh tested ${pinned}`,
	);
	return NOTHING_NEWER;
}

if (require.main === module) {
	main().then(
		(code) => process.exit(code),
		(error: Error) => {
			process.stderr.write(`${error.message}\n`);
			process.exit(1);
		},
	);
}
