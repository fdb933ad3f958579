import { execFileSync } from 'child_process';
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { canonicalString } from '../../nodes/shared/signing/canonical';
import { KeyFormatError, parsePrivateKey, parsePublicKey } from '../../nodes/shared/signing/keys';
import { privateKeyOf, publicKeyOf, settingsFor, settingsOf } from '../../nodes/shared/signing/credential';
import { sign, verify } from '../../nodes/shared/signing/signature';
import { signBody, verifyBody } from '../helpers/signing';
import vectors from '../fixtures/signing/vectors.json';
import { bareBase64, TEST_KEYS } from '../helpers/keys';

type Vector = (typeof vectors)[number] & { arrayStyle?: 'json' | 'list' };

const privateKey = parsePrivateKey(TEST_KEYS.merchantPkcs8);
const publicKey = parsePublicKey(TEST_KEYS.merchantPublic);

describe('known-answer vectors signed by the openssl command line', () => {
	it.each(vectors as Vector[])('$name: the string to sign', (vector) => {
		expect(canonicalString(vector.body, vector.secret, { arrayStyle: vector.arrayStyle })).toBe(vector.canonical);
	});

	it('a signature made by the package verifies with openssl', async () => {
		const body = { appId: 1001, orderId: 'OSSL-1', amount: '1000', name: 'Zoë Ämber' };
		const dir = mkdtempSync(join(tmpdir(), 'haipay-sig-'));
		// The text openssl checks is written out here, not taken from the package's canonicalString.
		writeFileSync(join(dir, 'msg'), 'amount=1000&appId=1001&name=Zoë Ämber&orderId=OSSL-1&key=sec', 'utf8');
		writeFileSync(join(dir, 'sig'), Buffer.from(await sign(body, 'sec', privateKey), 'base64'));
		writeFileSync(join(dir, 'pub.pem'), TEST_KEYS.merchantPublic);
		const out = execFileSync('openssl', [
			'dgst',
			'-sha256',
			'-verify',
			join(dir, 'pub.pem'),
			'-signature',
			join(dir, 'sig'),
			join(dir, 'msg'),
		]);
		expect(out.toString()).toContain('Verified OK');
	});
});

describe('canonical string', () => {
	it('does not depend on the order of the fields', () => {
		const a = { orderId: 'A', amount: '1.00', appId: 3, name: 'X Y' };
		const b = { name: 'X Y', appId: 3, amount: '1.00', orderId: 'A' };
		expect(canonicalString(a, 's')).toBe(canonicalString(b, 's'));
	});

	it('leaves out null, undefined and the empty string, and keeps 0, "0", false and a space', () => {
		expect(canonicalString({ a: null, b: undefined, c: '', d: 0, e: '0', f: false, g: ' ' }, 's')).toBe(
			'd=0&e=0&f=false&g= &key=s',
		);
	});

	it('leaves out sign whatever its value', () => {
		expect(canonicalString({ sign: 'abc', x: '1' }, 's')).toBe('x=1&key=s');
	});

	it('does not URL-encode', () => {
		expect(canonicalString({ url: 'https://a.b/c?d=1&e=%20' }, 's')).toBe('url=https://a.b/c?d=1&e=%20&key=s');
	});

	it('sorts by bytes, not by locale', () => {
		expect(canonicalString({ b: '1', B: '2', a: '3', _: '4' }, 's')).toBe('B=2&_=4&a=3&b=1&key=s');
	});

	it('prints numbers as JSON does', () => {
		expect(canonicalString({ appId: 1054, rate: 1.5, big: 1e21 }, 's')).toBe('appId=1054&big=1e+21&rate=1.5&key=s');
	});

	it('of an empty body is the secret alone', () => {
		expect(canonicalString({}, 's')).toBe('key=s');
	});
});

describe('sign', () => {
	const body = { appId: 1001, orderId: 'T-1', amount: '2500', name: 'Amina Juma', subject: 'Malipo' };
	// The test signer is not the package's code: the two agreeing is a check of the package (unit/independent-signing).
	const signature = signBody(body, 'secret', privateKey);

	it('signs as the independent signer does, whatever form the key was pasted in', async () => {
		const forms = [
			TEST_KEYS.merchantPkcs8,
			TEST_KEYS.merchantPkcs1,
			bareBase64(TEST_KEYS.merchantPkcs8),
			bareBase64(TEST_KEYS.merchantPkcs1),
		];
		for (const form of forms) expect(await sign(body, 'secret', parsePrivateKey(form))).toBe(signature);
		for (const form of [TEST_KEYS.merchantPublic, bareBase64(TEST_KEYS.merchantPublic)]) {
			expect(await verify(body, signature, 'secret', parsePublicKey(form))).toBe(true);
		}
	});

	it('is standard padded base64 of a 2048-bit signature', async () => {
		const made = await sign(body, 'secret', privateKey);
		expect(made).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
		expect(Buffer.from(made, 'base64')).toHaveLength(256);
	});
});

describe('key parsing', () => {
	it('tolerates line breaks, spaces, CRLF, literal \\n and armour on one line', () => {
		const pem = TEST_KEYS.merchantPkcs8;
		const variants = [
			pem.replace(/\n/g, '\r\n'),
			pem.replace(/\n/g, '\\n'),
			pem.replace(/\n/g, ''),
			`  ${pem.replace(/\n/g, '\n   ')}  `,
			bareBase64(pem)
				.match(/.{1,64}/g)!
				.join('\n'),
		];
		const expected = signBody({ a: '1' }, 's', privateKey);
		for (const variant of variants) expect(signBody({ a: '1' }, 's', parsePrivateKey(variant))).toBe(expected);
	});

	it('names the key and the formats tried, without any key material', () => {
		const broken = `${bareBase64(TEST_KEYS.merchantPkcs8).slice(0, 300)}`;
		let error: unknown;
		try {
			parsePrivateKey(broken);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(KeyFormatError);
		const message = (error as Error).message;
		expect(message).toContain('merchant private key');
		expect(message).toContain('PKCS#8');
		expect(message).toContain('PKCS#1');
		expect(message).not.toContain(broken.slice(20, 40));
	});

	it('rejects a public key where a private key is expected, and the reverse', () => {
		expect(() => parsePrivateKey(TEST_KEYS.merchantPublic)).toThrow(/merchant private key could not be read/);
		expect(() => parsePublicKey('hello world', 'HaiPay public key')).toThrow(/HaiPay public key could not be read/);
		expect(() => parsePublicKey('')).toThrow(KeyFormatError);
	});

	it('reads a public key given as a private key file (its public half)', () => {
		const fromPrivate = parsePublicKey(TEST_KEYS.merchantPkcs8);
		expect(verifyBody({ a: '1' }, signBody({ a: '1' }, 's', privateKey), 's', fromPrivate)).toBe(true);
	});
});

describe('sign and verify on the thread pool', () => {
	it.each(vectors as Vector[])('match the openssl vector: $name', async (vector) => {
		const options = { arrayStyle: vector.arrayStyle };
		expect(await sign(vector.body, vector.secret, privateKey, options)).toBe(vector.signature);
		expect(await verify(vector.body, vector.signature, vector.secret, publicKey, options)).toBe(true);
	});

	// Tampered bodies and malformed signatures: unit/verify-tampering.test.ts.
	it('sign as the independent signer does, leaving a stale sign out', async () => {
		const body = { appId: 1, orderId: 'A-2', amount: '100', sign: 'stale' };
		expect(await sign(body, 's', privateKey)).toBe(signBody(body, 's', privateKey));
	});
});

describe('one memo per credential: its settings and parsed keys', () => {
	const fields = {
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:1',
		appId: 1001,
		secretKey: 's',
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
	};

	it('gives the same settings, keys parsed once, for every copy of the same credential', () => {
		const first = settingsFor({ ...fields });
		expect(settingsFor({ ...fields })).toBe(first);
		expect(privateKeyOf(first)).toBe(privateKeyOf(settingsFor({ ...fields })));
		expect(publicKeyOf(first)).toBe(publicKeyOf(first));
	});

	it('derives them again when any field changes', () => {
		const first = settingsFor({ ...fields });
		const other = settingsFor({ ...fields, privateKey: TEST_KEYS.otherPrivate });
		expect(other).not.toBe(first);
		expect(privateKeyOf(other)).not.toBe(privateKeyOf(first));
		expect(
			verifyBody(
				{ a: '1' },
				signBody({ a: '1' }, 's', privateKeyOf(other)),
				's',
				parsePublicKey(TEST_KEYS.otherPublic),
			),
		).toBe(true);
	});

	it('derives them again for a change in any field the settings read, and keeps them for one they ignore', () => {
		const first = settingsFor({ ...fields });
		const changes = {
			environment: 'production',
			productionUrl: 'https://x.example',
			baseUrl: 'http://127.0.0.1:2',
			appId: 1002,
			currency: 'ZAR',
			secretKey: 't',
			haipayPublicKey: TEST_KEYS.otherPublic,
			arrayStyle: 'list',
			otherCurrencies: ['NGN'],
		};
		for (const [name, value] of Object.entries(changes))
			expect(settingsFor({ ...fields, [name]: value })).not.toBe(first);
		expect(settingsFor({ ...fields, unrelated: 'anything' })).toBe(first);
		// A further currency's fields count once it is listed, and not before.
		expect(settingsFor({ ...fields, appIdNgn: 1003 })).toBe(first);
		const listed = settingsFor({ ...fields, otherCurrencies: ['NGN'], appIdNgn: 1003, secretKeyNgn: 'n' });
		expect(settingsFor({ ...fields, otherCurrencies: ['NGN'], appIdNgn: 1003, secretKeyNgn: 'other' })).not.toBe(
			listed,
		);
	});

	it('still reports a bad key, without keeping it', () => {
		const broken = settingsOf({ privateKey: 'not a key', haipayPublicKey: 'not a key either' });
		expect(() => privateKeyOf(broken)).toThrow(KeyFormatError);
		expect(() => publicKeyOf(broken)).toThrow(KeyFormatError);
		expect(privateKeyOf(settingsOf({ privateKey: TEST_KEYS.merchantPkcs8 })).asymmetricKeyType).toBe('rsa');
	});
});
