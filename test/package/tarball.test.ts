/**
 * The published tarball used as a merchant uses it outside n8n: `npm pack`, `npm install` of the tarball into a clean
 * folder, then `require('n8n-nodes-haipay')` in a plain `node` process (merchant-app.js) that signs and verifies.
 * Every signature it makes or accepts is checked against signers that are not the package's code: the openssl
 * command line (the vectors, and one signature here) and the sandbox gateway's own implementation.
 */
import { execFileSync, spawnSync } from 'child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { TEST_KEYS } from '../../sandbox/keys';
import {
	canonicalString,
	loadPrivateKey,
	loadPublicKey,
	signBody as sandboxSign,
	verifyBody,
} from '../../sandbox/signing';
import { bareBase64 } from '../helpers/keys';
import vectors from '../fixtures/signing/vectors.json';

const root = join(__dirname, '..', '..');
const SECRET = 'test-only-secret-tzs';
const APP_ID = 1001;
const NOT_A_KEY = 'MIIBnot-a-key-at-all';

/*
 * npm and node read these from the environment: under `npm test` npm sets npm_config_* for the repository, and
 * NODE_PATH would let the clean folder reach the repository's modules. The children get neither.
 */
function cleanEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) {
		if (!/^(npm_|NODE_PATH$|NODE_OPTIONS$)/i.test(name)) env[name] = value;
	}
	return env;
}

function run(command: string, args: string[], cwd: string, input?: string): string {
	return execFileSync(command, args, {
		cwd,
		env: cleanEnv(),
		input,
		encoding: 'utf8',
		stdio: ['pipe', 'pipe', 'pipe'],
	});
}

/** The tarball `npm publish` would upload, installed in a folder that has nothing of the repository. */
function installTarball(work: string): string {
	const [report] = JSON.parse(
		run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root),
	) as Array<{ filename: string }>;
	const app = join(work, 'merchant-app');
	mkdirSync(app);
	writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'merchant-app', private: true }));
	// --legacy-peer-deps: npm would otherwise fetch the peer n8n-workflow from the registry (below it is linked).
	run(
		'npm',
		[
			'install',
			'--offline',
			'--ignore-scripts',
			'--legacy-peer-deps',
			'--no-audit',
			'--no-fund',
			'--no-package-lock',
			join(work, report.filename),
		],
		app,
	);
	/*
	 * n8n-workflow is the package's one peer dependency, and the node classes import it. A merchant's npm installs it
	 * with the package; here it is linked from the repository (the version the package is built against) so the
	 * test runs offline and fast. Node resolves the link to its real path, so only n8n-workflow's own imports see
	 * the repository's node_modules; the package itself resolves from the clean folder alone.
	 */
	symlinkSync(join(root, 'node_modules', 'n8n-workflow'), join(app, 'node_modules', 'n8n-workflow'), 'dir');
	copyFileSync(join(__dirname, 'merchant-app.js'), join(app, 'merchant-app.js'));
	return app;
}

const platformKey = loadPrivateKey(TEST_KEYS.platformPrivate);
const otherKey = loadPrivateKey(TEST_KEYS.otherPrivate);

/** A callback as HaiPay's gateway would post it, signed by the sandbox's own signer with the platform key. */
function callbackText(fields: Record<string, unknown>, key = platformKey): string {
	return JSON.stringify({ ...fields, sign: sandboxSign(fields, SECRET, key) });
}

const callback = {
	appId: APP_ID,
	currency: 'TZS',
	orderId: 'PO-1',
	orderNo: 'HP2025000001',
	amount: '2500',
	fee: '25',
	status: 2,
	payTime: '2025-01-02 03:04:05',
};
const genuine = callbackText(callback);
const answerData = { orderId: 'PO-1', orderNo: 'HP2025000001', amount: '2500', fee: '25', status: 1 };
const envelope = {
	status: '1',
	error: '00000000',
	msg: 'success',
	data: { ...answerData, sign: sandboxSign(answerData, SECRET, platformKey) },
};
/** HaiPay's envelope around data signed by the sandbox's signer with the platform key. */
function signedEnvelope(data: Record<string, unknown>) {
	return {
		status: '1',
		error: '00000000',
		msg: 'success',
		data: { ...data, sign: sandboxSign(data, SECRET, platformKey) },
	};
}

const input = {
	secret: SECRET,
	appId: String(APP_ID),
	notAKey: NOT_A_KEY,
	merchant: { privateKey: TEST_KEYS.merchantPkcs8, privateKeyBase64: bareBase64(TEST_KEYS.merchantPkcs8) },
	platform: { publicKey: bareBase64(TEST_KEYS.platformPublic) },
	payout: {
		orderId: 'PO-7',
		amount: '15000',
		currency: 'TZS',
		accountNo: '255712345678',
		name: 'Amina Juma',
		appId: 9,
		sign: 'stale',
	},
	vectors,
	callbacks: {
		genuine,
		tampered: genuine.replace('"status":2', '"status":3'),
		missingSign: JSON.stringify(callback),
		malformedSign: JSON.stringify({ ...callback, sign: 'not base64!' }),
		truncatedSign: JSON.stringify({ ...callback, sign: (JSON.parse(genuine) as { sign: string }).sign.slice(0, 40) }),
		otherKey: callbackText(callback, otherKey),
		notJson: 'status=2&sign=abc',
		// HaiPay's Java side may write an amount as a JSON number with its scale: the signed text says 1.50.
		decimal: callbackText({ ...callback, amount: '1.50' }).replace('"amount":"1.50"', '"amount":1.50'),
		// Genuinely signed, but "PO-1&orderNo=HP9" with no orderNo signs exactly like orderId "PO-1" with orderNo "HP9".
		ambiguous: callbackText({ ...callback, orderNo: undefined, orderId: 'PO-1&orderNo=HP9' }),
		// Bank text, free text that could end in another field, a field HaiPay added: all genuine, all true.
		bankText: callbackText({ ...callback, status: 3, errorMsg: 'code=51 & account closed' }),
		freeText: callbackText({ ...callback, status: 3, errorMsg: 'x&errorNote=y' }),
		addedField: callbackText({ ...callback, channelRef: 'X-9' }),
	},
	answers: {
		envelope,
		dataAlone: envelope.data,
		tampered: { ...envelope, data: { ...envelope.data, amount: '25000' } },
		refusal: { status: '0', error: '10000001', msg: 'order exists' },
		unsigned: { ...envelope, data: answerData },
	},
	reservedNames: ['key', 'KEY', 'k_e_y'],
	acceptances: {
		genuine: envelope,
		// The signed "no such order" of HaiPay's order query, replayed as the answer to a payout.
		replayedNotFound: signedEnvelope({ orderId: 'PO-1', orderNo: '', status: 3, errorMsg: 'order does not exist' }),
		failedNoOrderNo: signedEnvelope({ orderId: 'PO-1', status: 'FAILED' }),
	},
};

interface Outcome<T = unknown> {
	value?: T;
	error?: string;
}

interface Found {
	resolved: { package: string | null; peer: string | null; repositoryOnly: string | null };
	exports: string[];
	classes: { node: string; trigger: string; credential: string; sameAsN8n: boolean };
	payout: Outcome<Record<string, unknown>>;
	vectors: Array<Outcome<{ sign: string }>>;
	callbacks: Record<string, Outcome<boolean>>;
	answers: Record<string, Outcome<boolean>>;
	errors: Record<string, Outcome>;
	refused: Record<string, Outcome>;
	acceptances: Record<string, { signed: Outcome<boolean>; accepted: Outcome<boolean> }>;
}

let work: string;
let app: string;
let found: Found;

beforeAll(() => {
	if (!existsSync(join(root, 'dist', 'index.js')))
		throw new Error('dist/index.js is missing: run `npm run build` first (npm test does).');
	work = mkdtempSync(join(tmpdir(), 'haipay-tarball-'));
	app = installTarball(work);
	found = JSON.parse(run(process.execPath, ['merchant-app.js'], app, JSON.stringify(input))) as Found;
}, 120_000);

afterAll(() => {
	if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the packed package, required from a clean folder', () => {
	it('resolves from the clean folder, which cannot reach the repository', () => {
		expect(found.resolved.package).toBe(
			join(realpathSync(app), 'node_modules', 'n8n-nodes-haipay', 'dist', 'index.js'),
		);
		// The linked peer, by its real path (see installTarball).
		expect(found.resolved.peer).toBe(
			realpathSync(join(root, 'node_modules', 'n8n-workflow', 'dist', 'cjs', 'index.js')),
		);
		expect(found.resolved.repositoryOnly).toBeNull();
	});

	it('exports the node, the trigger and the credential n8n loads, and the signing API', () => {
		expect(found.exports).toEqual([
			'HaiPay',
			'HaiPayApi',
			'HaiPayTrigger',
			'KeyFormatError',
			'SigningError',
			'signBody',
			'verifyAcceptance',
			'verifyAnswer',
			'verifyCallback',
		]);
		expect(found.classes).toEqual({
			node: 'haiPay',
			trigger: 'haiPayTrigger',
			credential: 'haiPayApi',
			sameAsN8n: true,
		});
	});
});

describe('signBody', () => {
	it('signs a payout body that the sandbox gateway and openssl both verify with the merchant public key', () => {
		const signed = found.payout.value as Record<string, unknown> & { sign: string };
		expect(found.payout.error).toBeUndefined();
		// The App ID of the options, as a number, replaces the body's; a stale sign is replaced.
		expect(signed).toEqual({ ...input.payout, appId: APP_ID, sign: expect.any(String) });
		const { sign, ...fields } = signed;
		expect(verifyBody(fields, sign, SECRET, loadPublicKey(TEST_KEYS.merchantPublic))).toBe(true);
		writeFileSync(join(work, 'message'), canonicalString(fields, SECRET), 'utf8');
		writeFileSync(join(work, 'signature'), Buffer.from(sign, 'base64'));
		writeFileSync(join(work, 'merchant.pem'), TEST_KEYS.merchantPublic);
		const openssl = run(
			'openssl',
			['dgst', '-sha256', '-verify', 'merchant.pem', '-signature', 'signature', 'message'],
			work,
		);
		expect(openssl).toContain('Verified OK');
	});

	it("reproduces the openssl vectors' signatures, and refuses the one whose signed string is ambiguous", () => {
		vectors.forEach((vector, index) => {
			const result = found.vectors[index];
			if (Object.values(vector.body).some((value) => typeof value === 'string' && /[&=]/.test(value))) {
				// Its notifyUrl holds "?x=1&y=2": the node's credential refuses to sign it too.
				expect(result.error).toMatch(/^SigningError: The value of "notifyUrl" holds "="/);
			} else {
				expect(result).toEqual({ value: expect.objectContaining({ sign: vector.signature }) });
			}
		});
	});
});

describe('signBody refuses what the node refuses', () => {
	it.each(['key', 'KEY', 'k_e_y'])(
		'a field "%s", which reads as key, where the signed text holds the secret',
		(name) => {
			expect(found.refused[name].error).toMatch(
				/^SigningError: The field "[^"]+" (is|reads as) the field "key".*where the signed text holds the secret key: nothing was signed\.$/,
			);
		},
	);

	it.each([
		['unsafe', 'past 9007199254740991'],
		['infinite', 'not a number JSON can carry'],
		['residue', 'not the decimal meant'],
		['nested', 'not a number JSON can carry'],
	])('a number JSON would not carry as meant: %s', (name, why) => {
		expect(found.refused[name].error).toMatch(/^SigningError: The value of "fee" holds /);
		expect(found.refused[name].error).toContain(why);
		expect(found.refused[name].error).toContain('send it as a string; nothing was signed.');
	});
});

describe('verifyAcceptance: a signed answer is an acceptance only when it says so', () => {
	it("HaiPay's answer naming the order and its orderNo: signed and accepted", () => {
		expect(found.acceptances.genuine).toEqual({ signed: { value: true }, accepted: { value: true } });
	});

	it.each(['replayedNotFound', 'failedNoOrderNo'])('%s: signed, yet no acceptance', (name) => {
		expect(found.acceptances[name]).toEqual({ signed: { value: true }, accepted: { value: false } });
	});
});

describe('verifyCallback', () => {
	it('accepts a callback signed by the sandbox gateway, as text and as a Buffer', () => {
		expect(found.callbacks.genuine).toEqual({ value: true });
		expect(found.callbacks.buffer).toEqual({ value: true });
	});

	it.each(['bankText', 'freeText', 'addedField'])(
		'accepts a genuine callback with %s: HaiPay asks receivers to take added fields',
		(name) => {
			expect(found.callbacks[name]).toEqual({ value: true });
		},
	);

	it('reads the raw text exactly: 1.50 verifies as sent, while a parsed object has lost it', () => {
		expect(found.callbacks.decimal).toEqual({ value: true });
		expect(found.callbacks.parsedDecimal).toEqual({ value: false });
	});

	it('refuses the ambiguous callback for its ambiguity alone: its signature itself holds', () => {
		const { sign, ...fields } = JSON.parse(input.callbacks.ambiguous) as { sign: string };
		expect(verifyBody(fields, sign, SECRET, loadPublicKey(TEST_KEYS.platformPublic))).toBe(true);
		expect(input.callbacks.tampered).not.toBe(genuine);
	});

	it.each(['tampered', 'missingSign', 'malformedSign', 'truncatedSign', 'otherKey', 'notJson', 'ambiguous'])(
		'refuses a callback: %s',
		(name) => {
			expect(found.callbacks[name]).toEqual({ value: false });
		},
	);
});

describe('verifyAnswer', () => {
	it('accepts the envelope, its data alone and its text', () => {
		expect(found.answers.envelope).toEqual({ value: true });
		expect(found.answers.dataAlone).toEqual({ value: true });
		expect(found.answers.text).toEqual({ value: true });
	});

	it.each(['tampered', 'refusal', 'unsigned'])('refuses an answer: %s', (name) => {
		expect(found.answers[name]).toEqual({ value: false });
	});
});

describe('mistakes in what the caller passes', () => {
	it('an unreadable key throws KeyFormatError naming the formats tried, never the key text', () => {
		expect(found.errors.badPublicKey.error).toMatch(
			/^KeyFormatError: The HaiPay public key could not be read\. Tried: /,
		);
		expect(found.errors.badPrivateKey.error).toMatch(
			/^KeyFormatError: The merchant private key could not be read\. Tried: /,
		);
		expect(JSON.stringify(found.errors)).not.toContain(NOT_A_KEY.slice(4));
	});

	it('a missing secret, an App ID that is not a number and an ambiguous body throw SigningError', () => {
		expect(found.errors.noSecret.error).toMatch(/^SigningError: secretKey is missing/);
		expect(found.errors.badAppId.error).toMatch(/^SigningError: appId must be the whole number/);
		expect(found.errors.ambiguous.error).toBe(
			'SigningError: The value of "name" holds "&", which would let the signature stand for other fields: nothing was signed.',
		);
	});
});

describe('the shipped types', () => {
	it('compile a TypeScript consumer of the package, and hold it to the options', () => {
		const consumer = [
			"import { HaiPay, signBody, verifyAcceptance, verifyAnswer, verifyCallback, SigningError, KeyFormatError, type AcceptanceOptions, type SignOptions, type VerifyOptions } from 'n8n-nodes-haipay';",
			'const signing: SignOptions = { appId: 1001, secretKey: "s", privateKey: "k" };',
			'const verifying: VerifyOptions = { secretKey: "s", haipayPublicKey: "k" };',
			'const accepting: AcceptanceOptions = { ...verifying, orderId: "A", identifier: "refundNo" };',
			'export async function use(): Promise<[number, string, string, boolean, boolean, string]> {',
			'	const signed = await signBody({ orderId: "A", amount: "1" }, signing);',
			'	// @ts-expect-error the private key is required',
			'	await signBody({ orderId: "A" }, { appId: 1, secretKey: "s" });',
			'	// @ts-expect-error the orderId the create was sent with is required',
			'	await verifyAcceptance({}, verifying);',
			'	void [SigningError, KeyFormatError, await verifyAcceptance({}, accepting)];',
			'	return [signed.appId, signed.sign, signed.orderId, await verifyCallback("{}", verifying), await verifyAnswer({}, verifying), new HaiPay().description.name];',
			'}',
		].join('\n');
		writeFileSync(join(app, 'consumer.ts'), consumer);
		// @types/node from the repository stands in for the merchant's own; skipLibCheck because n8n-workflow's types
		// name packages (express, langchain) a merchant's project would not have.
		const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
		const flags = [
			'--noEmit',
			'--strict',
			'--skipLibCheck',
			'--module',
			'commonjs',
			'--moduleResolution',
			'node',
			'--target',
			'es2022',
		];
		const types = ['--typeRoots', join(root, 'node_modules', '@types'), '--types', 'node'];
		const compiled = spawnSync(process.execPath, [tsc, ...flags, ...types, 'consumer.ts'], {
			cwd: app,
			env: cleanEnv(),
			encoding: 'utf8',
		});
		expect(compiled.stdout + compiled.stderr).toBe('');
		expect(compiled.status).toBe(0);
	});
});
