/**
 * The test-side signer (test/helpers/signing.ts, which is the sandbox's) against the openssl command line, over
 * canonical strings written out by hand from docs/haipay-facts.md ("Signing"), and against the package's own
 * string to sign: on every body the package signs, the two implementations must write the same text.
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { canonicalString as packageCanonical } from '../../nodes/shared/signing/canonical';
import { parsePrivateKey, parsePublicKey } from '../../nodes/shared/signing/keys';
import { sign as packageSign } from '../../nodes/shared/signing/signature';
import { TEST_KEY_DIR } from '../../sandbox/keys';
import { canonicalString as sandboxCanonical } from '../../sandbox/signing';
import { signBody, verifyBody, withSignature } from '../helpers/signing';
import { TEST_KEYS } from '../helpers/keys';

const PRIVATE_PEM = join(TEST_KEY_DIR, 'merchant-test-only.pkcs8.pem');
const PUBLIC_PEM = join(TEST_KEY_DIR, 'merchant-test-only.public.pem');
const privateKey = parsePrivateKey(TEST_KEYS.merchantPkcs8);
const publicKey = parsePublicKey(TEST_KEYS.merchantPublic);

/** openssl's own SHA256withRSA (PKCS#1 v1.5) signature of a text, base64. */
function opensslSign(text: string): string {
	return execFileSync('openssl', ['dgst', '-sha256', '-sign', PRIVATE_PEM], {
		input: Buffer.from(text, 'utf8'),
	}).toString('base64');
}

/** Whether openssl verifies a base64 signature over a text with the merchant's public key. */
function opensslVerifies(text: string, signature: string): boolean {
	const dir = mkdtempSync(join(tmpdir(), 'haipay-ossl-'));
	try {
		writeFileSync(join(dir, 'sig'), Buffer.from(signature, 'base64'));
		const out = execFileSync('openssl', ['dgst', '-sha256', '-verify', PUBLIC_PEM, '-signature', join(dir, 'sig')], {
			input: Buffer.from(text, 'utf8'),
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		return out.toString().includes('Verified OK');
	} catch {
		// openssl exits 1 with "Verification failure".
		return false;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

interface Case {
	name: string;
	secret: string;
	arrayStyle?: 'json' | 'list';
	body: Record<string, unknown>;
	/** Written by hand from the rules, not printed by either implementation. */
	canonical: string;
}

const CASES: Case[] = [
	{
		name: 'the facts sheet example: an empty subject is left out',
		secret: 'S3CR3T',
		body: { appId: 1054, orderId: 'M1', amount: '500', subject: '' },
		canonical: 'amount=500&appId=1054&orderId=M1&key=S3CR3T',
	},
	{
		name: 'null, undefined and "" are left out; 0, "0", false and a space are kept; sign is never signed',
		secret: 's',
		body: { a: null, b: undefined, c: '', d: 0, e: '0', f: false, g: ' ', sign: 'stale' },
		canonical: 'd=0&e=0&f=false&g= &key=s',
	},
	{ name: 'an empty body is the secret alone', secret: 's', body: {}, canonical: 'key=s' },
	{
		name: 'a body of empty values and sign is the secret alone',
		secret: 's',
		body: { sign: 'x', a: '', b: null },
		canonical: 'key=s',
	},
	{
		name: 'a nested object prints as JSON, keys sorted at every depth; inside it null and "" are kept',
		secret: 'n',
		body: { appId: 5, extra: { b: 2, a: 'x', c: { z: null, y: [], x: '' } } },
		canonical: 'appId=5&extra={"a":"x","b":2,"c":{"x":"","y":[],"z":null}}&key=n',
	},
	{
		name: 'arrays as JSON (the default): an empty array is kept, elements keep their order',
		secret: 'vs',
		body: { orderNos: ['N2', 'N1'], empty: [], mixed: [1, 'a', null, { b: 1, a: 2 }] },
		canonical: 'empty=[]&mixed=[1,"a",null,{"a":2,"b":1}]&orderNos=["N2","N1"]&key=vs',
	},
	{
		name: "arrays as a Java list: strings unquoted, ', ' between elements, anything else as JSON",
		secret: 'vs',
		arrayStyle: 'list',
		body: { orderNos: ['N2', 'N1'], empty: [], mixed: [1, 'a', null, { b: 1, a: 2 }] },
		canonical: 'empty=[]&mixed=[1, a, null, {"a":2,"b":1}]&orderNos=[N2, N1]&key=vs',
	},
	{
		name: 'keys in UTF-8 byte order: upper case first, and a character above U+FFFF after U+FFFD',
		secret: 's',
		body: { b: '1', B: '2', a: '3', _: '4', é: '5', '\u{1F600}': '6', '\uFFFD': '7' },
		canonical: 'B=2&_=4&a=3&b=1&é=5&\uFFFD=7&\u{1F600}=6&key=s',
	},
	{
		name: 'numbers and booleans as JSON prints them',
		secret: 's',
		body: { appId: 1054, rate: 1.5, big: 1e21, neg: -0.5, t: true },
		canonical: 'appId=1054&big=1e+21&neg=-0.5&rate=1.5&t=true&key=s',
	},
	{
		name: 'no URL-encoding; text signs as UTF-8, a secret too',
		secret: '秘密',
		body: { url: 'https://a.b/c?d=1&e=%20', name: 'José 工资 💸' },
		canonical: 'name=José 工资 💸&url=https://a.b/c?d=1&e=%20&key=秘密',
	},
];

describe.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
	const options = { arrayStyle: c.arrayStyle };

	it('both implementations write the hand-written string to sign', () => {
		expect(sandboxCanonical(c.body, c.secret, c.arrayStyle ?? 'json')).toBe(c.canonical);
		expect(packageCanonical(c.body, c.secret, options)).toBe(c.canonical);
	});

	it('the test signer signs as openssl does over that string, and openssl verifies it', async () => {
		const signature = signBody(c.body, c.secret, privateKey, options);
		// PKCS#1 v1.5 is deterministic: the same key over the same bytes gives the same signature.
		expect(signature).toBe(opensslSign(c.canonical));
		expect(opensslVerifies(c.canonical, signature)).toBe(true);
		expect(opensslVerifies(`${c.canonical} `, signature)).toBe(false);
		expect(verifyBody(c.body, signature, c.secret, publicKey, options)).toBe(true);
		expect(await packageSign(c.body, c.secret, privateKey, options)).toBe(signature);
	});
});

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

// Well-formed text only: a lone surrogate is not text (UTF-8 cannot carry it), and the two sort it differently.
const NAME_PIECES = [
	'a',
	'b',
	'A',
	'Z',
	'_',
	'1',
	'é',
	'ß',
	'你',
	'\uE000',
	'\uFFFD',
	'\uFFFF',
	'\u{1F600}',
	'\u{10FFFF}',
	' ',
];
const VALUE_PIECES = [...NAME_PIECES, '&', '=', '"', '\\', ',', '[', ']', '\n'];

function pick<T>(next: () => number, list: readonly T[]): T {
	return list[Math.floor(next() * list.length)];
}

function text(next: () => number, pieces: string[], max: number): string {
	let out = '';
	for (let length = Math.floor(next() * max); length > 0; length--) out += pick(next, pieces);
	return out;
}

function value(next: () => number, depth: number): unknown {
	const kind = Math.floor(next() * (depth > 2 ? 6 : 8));
	if (kind === 0) return text(next, VALUE_PIECES, 6);
	if (kind === 1) return pick(next, [0, -1, 1.5, 1e21, 2 ** 53, -0, 1e-7]);
	if (kind === 2) return pick(next, [true, false]);
	if (kind === 3) return pick(next, [null, undefined, '']);
	if (kind === 4) return text(next, NAME_PIECES, 3);
	if (kind === 5) return String(Math.floor(next() * 1e6));
	if (kind === 6) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
	return body(next, depth + 1);
}

function body(next: () => number, depth = 0): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (let count = Math.floor(next() * 7); count > 0; count--)
		out[text(next, NAME_PIECES, 4) || 'x'] = value(next, depth);
	return out;
}

describe('the package and the independent signer', () => {
	it.each(['json', 'list'] as const)('write the same string to sign for random bodies (%s arrays)', (arrayStyle) => {
		const next = random(arrayStyle === 'json' ? 24 : 42);
		for (let round = 0; round < 2000; round++) {
			const generated = body(next);
			expect(packageCanonical(generated, 'k', { arrayStyle })).toBe(sandboxCanonical(generated, 'k', arrayStyle));
		}
	});
});

describe('the test signer as tests use it', () => {
	const signed = withSignature({ appId: 1001, orderId: 'T-1', amount: '2500', sign: 'stale' }, 'secret', privateKey);

	it('withSignature signs every field but sign, as openssl does', () => {
		expect(signed.sign).toBe(opensslSign('amount=2500&appId=1001&orderId=T-1&key=secret'));
	});

	it('verifyBody takes a signature wrapped over lines, and nothing that is not a string', () => {
		expect(verifyBody(signed, signed.sign.match(/.{1,76}/g)?.join('\r\n'), 'secret', publicKey)).toBe(true);
		for (const bad of [undefined, null, 42, {}, Buffer.from(signed.sign, 'base64')])
			expect(verifyBody(signed, bad, 'secret', publicKey)).toBe(false);
	});
});
