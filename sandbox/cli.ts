import { generateKeyPair } from 'crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';
import { promisify } from 'util';

import { HAIPAY_CALLBACK_SCHEDULE } from './callbacks';
import { n8nCredentials, type KeyPair, type PreparedState } from './credentials';

export type { PreparedState } from './credentials';
import { startSandbox, type Sandbox, type SandboxOptions } from './index';
import { DEFAULT_APP_IDS, DEFAULT_BALANCE, defaultSecret, type MerchantConfig } from './merchants';

/**
 * `npm run sandbox`: the gateway for a merchant's own machine or the playground. Unlike the in-process default
 * it makes its own keys (kept in the state dir), so nothing it signs can be mistaken for the repository's test keys.
 */

const generate = promisify(generateKeyPair);

export const DEFAULT_PORT = 8642;

export interface CliOptions {
	port: number;
	host: string;
	stateDir: string;
	fresh: boolean;
	persist: boolean;
	manual: boolean;
	processingMs: number;
	finalMs: number;
	callbackSchedule: number[];
	callbackTimeoutMs: number;
	/** 0: no limit. */
	callbackConcurrency: number;
	latencyMs: number;
	voucherResponse: 'binary' | 'base64' | 'url';
	merchantsFile?: string;
}

const HELP = `Usage: npm run sandbox -- [options]

A local HaiPay gateway (test only). Options:
  --port N                 port to listen on (default ${DEFAULT_PORT}, or HAIPAY_SANDBOX_PORT; 0 = any free port)
  --host H                 address to listen on (default 127.0.0.1)
  --state-dir DIR          keys, state and the n8n credential file (default .sandbox, or HAIPAY_SANDBOX_DIR)
  --fresh                  forget saved orders and balances (keys are kept)
  --no-persist             keep state in memory only
  --manual                 orders move only through the control API
  --processing-ms N        status 0 -> 1 after N ms (default 1000)
  --final-ms N             status 1 -> 2/3 after N ms more (default 5000)
  --callback-schedule L    comma-separated ms between callback attempts (default 5 x 300000)
  --callback-timeout-ms N  how long a callback receiver may take to answer (default 10000)
  --callback-concurrency N callback attempts on the wire at once, the rest wait their turn (default 0: no limit)
  --latency-ms N           delay every answer by N ms
  --voucher-response M     binary | base64 | url (default binary)
  --merchants FILE         JSON array of {appId, currency, secretKey?, balance?, arrayStyle?}
  --help                   this text
`;

function integer(name: string, text: string | undefined): number {
	const value = Number(text);
	if (text === undefined || !Number.isInteger(value) || value < 0)
		throw new Error(`${name} needs a non-negative integer`);
	return value;
}

type OptionSetter = (options: CliOptions, value: () => string, arg: string) => void;

/** What each option does; a Map, so that an argument such as `constructor` is unknown, not a member of Object. */
const OPTIONS = new Map<string, OptionSetter>([
	['--port', (options, value, arg) => (options.port = integer(arg, value()))],
	['--host', (options, value) => (options.host = value())],
	['--state-dir', (options, value) => (options.stateDir = resolve(value()))],
	['--fresh', (options) => (options.fresh = true)],
	['--no-persist', (options) => (options.persist = false)],
	['--manual', (options) => (options.manual = true)],
	['--processing-ms', (options, value, arg) => (options.processingMs = integer(arg, value()))],
	['--final-ms', (options, value, arg) => (options.finalMs = integer(arg, value()))],
	[
		'--callback-schedule',
		(options, value, arg) =>
			(options.callbackSchedule = value()
				.split(',')
				.filter((part) => part.trim() !== '')
				.map((part) => integer(arg, part.trim()))),
	],
	['--callback-timeout-ms', (options, value, arg) => (options.callbackTimeoutMs = integer(arg, value()))],
	['--callback-concurrency', (options, value, arg) => (options.callbackConcurrency = integer(arg, value()))],
	['--latency-ms', (options, value, arg) => (options.latencyMs = integer(arg, value()))],
	[
		'--voucher-response',
		(options, value) => {
			const mode = value();
			if (mode !== 'binary' && mode !== 'base64' && mode !== 'url')
				throw new Error('--voucher-response is binary, base64 or url');
			options.voucherResponse = mode;
		},
	],
	['--merchants', (options, value) => (options.merchantsFile = resolve(value()))],
]);

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions | 'help' {
	const options: CliOptions = {
		port: env.HAIPAY_SANDBOX_PORT ? integer('HAIPAY_SANDBOX_PORT', env.HAIPAY_SANDBOX_PORT) : DEFAULT_PORT,
		host: '127.0.0.1',
		stateDir: resolve(env.HAIPAY_SANDBOX_DIR ?? '.sandbox'),
		fresh: false,
		persist: true,
		manual: false,
		processingMs: 1_000,
		finalMs: 5_000,
		callbackSchedule: HAIPAY_CALLBACK_SCHEDULE,
		callbackTimeoutMs: 10_000,
		callbackConcurrency: 0,
		latencyMs: 0,
		voucherResponse: 'binary',
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help' || arg === '-h') return 'help';
		const set = OPTIONS.get(arg);
		if (!set) throw new Error(`unknown option ${arg} (see --help)`);
		const value = () => {
			i += 1;
			if (argv[i] === undefined) throw new Error(`${arg} needs a value`);
			return argv[i];
		};
		set(options, value, arg);
	}
	return options;
}

/** Loads a key pair from the state dir, or makes and saves one: a restart keeps every credential valid. */
async function keyPair(dir: string, name: string): Promise<KeyPair> {
	const privatePath = join(dir, `${name}.pkcs8.pem`);
	const publicPath = join(dir, `${name}.public.pem`);
	if (existsSync(privatePath) && existsSync(publicPath)) {
		return { privatePem: readFileSync(privatePath, 'utf8'), publicPem: readFileSync(publicPath, 'utf8') };
	}
	const { privateKey, publicKey } = await generate('rsa', {
		modulusLength: 2048,
		publicKeyEncoding: { type: 'spki', format: 'pem' },
		privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
	});
	writeFileSync(privatePath, privateKey, { mode: 0o600 });
	writeFileSync(publicPath, publicKey);
	return { privatePem: privateKey, publicPem: publicKey };
}

export async function prepareState(stateDir: string, merchantsFile?: string): Promise<PreparedState> {
	const keyDir = join(stateDir, 'keys');
	mkdirSync(keyDir, { recursive: true });
	const configured: MerchantConfig[] = merchantsFile
		? (JSON.parse(readFileSync(merchantsFile, 'utf8')) as MerchantConfig[])
		: DEFAULT_APP_IDS.map(([appId, currency]) => ({
				appId,
				currency,
				secretKey: defaultSecret(currency),
				balance: DEFAULT_BALANCE,
			}));
	// One merchant key pair for every App ID, as a merchant uploads one public key to each of its App IDs: a
	// credential holding several App IDs (Other Currencies) signs all of them with one private key.
	const [platform, merchantKeys] = await Promise.all([keyPair(keyDir, 'platform'), keyPair(keyDir, 'merchant')]);
	return {
		platform,
		merchants: configured.map((merchant) => ({
			...merchant,
			currency: merchant.currency.toUpperCase(),
			secretKey: merchant.secretKey ?? defaultSecret(merchant.currency),
			publicKey: merchant.publicKey ?? merchantKeys.publicPem,
			privatePem: merchantKeys.privatePem,
			publicPem: merchantKeys.publicPem,
		})),
	};
}

export async function runCli(options: CliOptions): Promise<{ sandbox: Sandbox; credentialsFile: string }> {
	mkdirSync(options.stateDir, { recursive: true });
	const stateFile = join(options.stateDir, 'state.json');
	if (options.fresh) rmSync(stateFile, { force: true });
	const state = await prepareState(options.stateDir, options.merchantsFile);
	const sandboxOptions: SandboxOptions = {
		port: options.port,
		host: options.host,
		merchants: state.merchants.map(({ privatePem: _p, publicPem: _q, ...merchant }) => merchant),
		platformPrivateKey: state.platform.privatePem,
		callbackSchedule: options.callbackSchedule,
		callbackTimeoutMs: options.callbackTimeoutMs,
		callbackConcurrency: options.callbackConcurrency,
		transitionDelays: { processingMs: options.processingMs, finalMs: options.finalMs },
		manual: options.manual,
		latencyMs: options.latencyMs,
		voucherResponse: options.voucherResponse,
		stateFile: options.persist ? stateFile : undefined,
		persistDebounceMs: 500,
		requestLogLimit: 5_000,
	};
	const sandbox = await startSandbox(sandboxOptions);
	const credentialsFile = join(options.stateDir, 'n8n-credentials.json');
	writeFileSync(credentialsFile, `${JSON.stringify(n8nCredentials(state, sandbox.baseUrl), null, 2)}\n`, {
		mode: 0o600,
	});
	return { sandbox, credentialsFile };
}

function describe(sandbox: Sandbox, credentialsFile: string, options: CliOptions): string {
	const lines = [
		`HaiPay sandbox listening on ${sandbox.baseUrl}  (test only: no real money, keys made locally)`,
		'',
		'  appId  currency  secret key',
		...sandbox.merchants.map((m) => `  ${String(m.appId).padEnd(5)}  ${m.currency.padEnd(8)}  ${m.secretKey}`),
		'',
		`n8n credentials: ${credentialsFile}`,
		`  import with: n8n import:credentials --input=${credentialsFile}`,
		`state and keys:  ${options.stateDir}${options.persist ? '' : ' (state not persisted)'}`,
		`control API:     ${sandbox.baseUrl}/__sandbox/health  (see docs/sandbox.md)`,
		options.manual
			? 'orders move only when settled through the control API'
			: `orders: processing after ${options.processingMs} ms, final after ${options.finalMs} ms more`,
		'Ctrl+C stops it.',
	];
	return lines.join('\n');
}

async function main(): Promise<void> {
	let parsed: CliOptions | 'help';
	try {
		parsed = parseArgs(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n\n${HELP}`);
		process.exit(2);
	}
	if (parsed === 'help') {
		process.stdout.write(HELP);
		return;
	}
	const options = parsed;
	let started: Awaited<ReturnType<typeof runCli>>;
	try {
		started = await runCli(options);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
		process.stderr.write(
			`Port ${options.port} on ${options.host} is in use: another sandbox, npm start or another program listens there.\n` +
				`Stop it, or pick another port: npm run sandbox -- --port 8643 (or HAIPAY_SANDBOX_PORT=8643 npm run sandbox; --port 0 takes any free port).\n`,
		);
		process.exit(1);
	}
	const { sandbox, credentialsFile } = started;
	process.stdout.write(`${describe(sandbox, credentialsFile, options)}\n`);
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${signal}: saving state and stopping\n`);
		sandbox.close().then(
			() => process.exit(0),
			(error: Error) => {
				process.stderr.write(`${error.message}\n`);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`${error.stack ?? error.message}\n`);
		process.exit(1);
	});
}
