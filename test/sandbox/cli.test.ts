import { spawn, type ChildProcess } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { createServer, type AddressInfo } from 'net';
import { join } from 'path';

import { parseArgs } from '../../sandbox/cli';
import { DEFAULT_APP_IDS } from '../../sandbox/merchants';
import { TEST_KEY_DIR } from '../../sandbox/keys';
import { loadPrivateKey, loadPublicKey, signBody, verifyBody } from '../../sandbox/signing';
import { rawPost } from './helpers';

const root = join(__dirname, '..', '..');

interface Running {
	child: ChildProcess;
	baseUrl: string;
	output: string;
}

/**
 * Starts the CLI and resolves once it says it is ready (its listening line, then "Ctrl+C"), or rejects when it
 * exits first. It has no deadline of its own: on a busy machine the start takes what it takes, and the test's
 * timeout (STARTS_MS) bounds it.
 */
function startCli(stateDir: string, port = 0): Promise<Running> {
	return new Promise((resolve, reject) => {
		const child = spawn(
			process.execPath,
			[
				join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
				join(root, 'sandbox', 'cli.ts'),
				'--port',
				String(port),
				'--state-dir',
				stateDir,
				'--manual',
			],
			{
				cwd: root,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		started.push(child);
		let output = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
			if (match && output.includes('Ctrl+C')) resolve({ child, baseUrl: match[1], output });
		});
		child.stderr?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
		});
		child.on('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${output}`)));
	});
}

/** Tests that start the CLI: a start compiles the sandbox with tsx and makes RSA keys, seconds on a busy machine. */
const STARTS_MS = 120_000;

/** Every CLI started; one a failed or timed-out test left running is killed after it. */
const started: ChildProcess[] = [];
afterEach(() => {
	for (const child of started.splice(0))
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function stop(child: ChildProcess): Promise<number | null> {
	return new Promise((resolve) => {
		child.removeAllListeners('exit');
		child.on('exit', (code) => resolve(code));
		child.kill('SIGTERM');
	});
}

interface Credential {
	id: string;
	name: string;
	type: string;
	data: {
		environment: string;
		baseUrl: string;
		appId: number;
		currency: string;
		secretKey: string;
		privateKey: string;
		haipayPublicKey: string;
		arrayStyle: string;
	};
}

describe('npm run sandbox', () => {
	const dir = mkdtempSync(join(tmpdir(), 'haipay-cli-'));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('parses its options', () => {
		expect(parseArgs([], {})).toMatchObject({ port: 8642, host: '127.0.0.1', persist: true, manual: false });
		expect(parseArgs(['--port', '9000', '--manual', '--callback-schedule', '10,20', '--no-persist'], {})).toMatchObject(
			{
				port: 9000,
				manual: true,
				persist: false,
				callbackSchedule: [10, 20],
			},
		);
		expect(parseArgs([], { HAIPAY_SANDBOX_PORT: '7000' })).toMatchObject({ port: 7000 });
		expect(parseArgs(['--help'], {})).toBe('help');
		expect(() => parseArgs(['--port', 'x'], {})).toThrow('--port');
		expect(() => parseArgs(['--what'], {})).toThrow('unknown option');
	});

	it(
		'on a busy port, says which port and how to pick another, without a stack trace',
		async () => {
			const busy = createServer();
			await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
			const { port } = busy.address() as AddressInfo;
			try {
				const failure = await startCli(dir, port).then(
					() => undefined,
					(error: Error) => error.message,
				);
				expect(failure).toContain('exited with 1');
				expect(failure).toContain(`Port ${port} on 127.0.0.1 is in use`);
				expect(failure).toContain('--port');
				expect(failure).not.toMatch(/\n\s+at /);
			} finally {
				busy.close();
			}
		},
		STARTS_MS,
	);

	it(
		'makes its keys, writes an importable credential file, serves signed answers and keeps keys over a restart',
		async () => {
			const first = await startCli(dir);
			let credentials: Credential[];
			try {
				expect(first.output).toContain('1001   TZS');
				const file = join(dir, 'n8n-credentials.json');
				expect(first.output).toContain(file);
				credentials = JSON.parse(readFileSync(file, 'utf8')) as Credential[];
				// One credential per App ID, and the payouts credential holding every contract payout currency.
				expect(credentials).toHaveLength(DEFAULT_APP_IDS.length + 1);
				const tzs = credentials[0];
				expect(tzs).toMatchObject({ id: 'hpsandbox1001', name: 'HaiPay Sandbox TZS', type: 'haiPayApi' });
				expect(tzs.data).toMatchObject({
					environment: 'custom',
					baseUrl: first.baseUrl,
					appId: 1001,
					currency: 'TZS',
					secretKey: 'test-only-secret-tzs',
					arrayStyle: 'json',
				});
				const body: Record<string, unknown> = { appId: 1001 };
				body.sign = signBody(body, tzs.data.secretKey, loadPrivateKey(tzs.data.privateKey));
				const answer = await rawPost(first.baseUrl, '/tzs/account/ledger', body);
				const data = answer.json?.data as Record<string, unknown>;
				expect(answer.json?.status).toBe('1');
				expect(verifyBody(data, String(data.sign), tzs.data.secretKey, loadPublicKey(tzs.data.haipayPublicKey))).toBe(
					true,
				);
				// The repository's fixture key is not one of the CLI's keys.
				const fixture = readFileSync(join(TEST_KEY_DIR, 'merchant-test-only.pkcs8.pem'), 'utf8');
				const forged: Record<string, unknown> = { appId: 1001 };
				forged.sign = signBody(forged, tzs.data.secretKey, loadPrivateKey(fixture));
				expect((await rawPost(first.baseUrl, '/tzs/account/ledger', forged)).json?.error).toBe('4003');
				// One credential holds an App ID per payout currency, all signed with the one merchant key.
				const payouts = credentials.find((credential) => credential.id === 'hpsandboxpayouts') as Credential & {
					data: Record<string, unknown>;
				};
				expect(payouts).toMatchObject({
					name: 'HaiPay Sandbox payouts',
					data: { appId: 1001, currency: 'TZS', otherCurrencies: ['ZAR', 'NGN', 'EGP', 'BDT'] },
				});
				for (const [currency, suffix, appId] of [
					['zar', 'Zar', 1002],
					['ngn', 'Ngn', 1003],
					['egp', 'Egp', 1004],
					['bdt', 'Bdt', 1005],
				] as const) {
					const secretKey = String(payouts.data[`secretKey${suffix}`]);
					expect({ currency, appId: payouts.data[`appId${suffix}`], secretKey }).toEqual({
						currency,
						appId,
						secretKey: `test-only-secret-${currency}`,
					});
					const signed: Record<string, unknown> = { appId };
					signed.sign = signBody(signed, secretKey, loadPrivateKey(payouts.data.privateKey));
					expect({
						currency,
						status: (await rawPost(first.baseUrl, `/${currency}/account/ledger`, signed)).json?.status,
					}).toEqual({ currency, status: '1' });
				}
			} finally {
				expect(await stop(first.child)).toBe(0);
			}
			expect(existsSync(join(dir, 'state.json'))).toBe(true);

			const second = await startCli(dir);
			try {
				const again = JSON.parse(readFileSync(join(dir, 'n8n-credentials.json'), 'utf8')) as Credential[];
				expect(again[0].data.privateKey).toBe(credentials[0].data.privateKey);
				expect(again[0].data.haipayPublicKey).toBe(credentials[0].data.haipayPublicKey);
			} finally {
				await stop(second.child);
			}
		},
		STARTS_MS,
	);
});
