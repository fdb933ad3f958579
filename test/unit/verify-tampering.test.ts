/**
 * The package's own verification (nodes/shared/signing/signature.ts `verify`, and verification.ts `verifySigned`,
 * which the node and the trigger use on every answer and callback) against tampered bodies and malformed
 * signatures. The genuine signatures come from the test signer, which is not the package's code and signs as the
 * openssl command line does (test/unit/independent-signing.test.ts).
 */
import { parsePrivateKey, parsePublicKey } from '../../nodes/shared/signing/keys';
import { settingsOf } from '../../nodes/shared/signing/credential';
import { verify } from '../../nodes/shared/signing/signature';
import { verifySigned } from '../../nodes/shared/signing/verification';
import { signBody, withSignature } from '../helpers/signing';
import { TEST_KEYS } from '../helpers/keys';

const SECRET = 'test-only-secret-tzs';
const platformKey = parsePrivateKey(TEST_KEYS.platformPrivate);
const platformPublic = parsePublicKey(TEST_KEYS.platformPublic);

/** An answer's `data` as HaiPay signs it: flat, with a nested member, every kind of value the rules treat apart. */
const BODY: Record<string, unknown> = {
	appId: 1001,
	orderId: 'T-1',
	orderNo: 'HP-1',
	amount: '2500.00',
	status: 2,
	fee: '0',
	errorMsg: '',
	extra: { b: 1, a: ['x'] },
};
const SIGNATURE = signBody(BODY, SECRET, platformKey);

type Body = Record<string, unknown>;

function renamed(body: Body, from: string, to: string): Body {
	const { [from]: moved, ...rest } = body;
	return { ...rest, [to]: moved };
}

function without(body: Body, name: string): Body {
	const { [name]: _gone, ...rest } = body;
	return rest;
}

/** Body changes, each with whether the genuine signature must still hold. */
const BODIES: Array<[string, Body, boolean]> = [
	['the body as signed', BODY, true],
	['the same members in another order', Object.fromEntries(Object.entries(BODY).reverse()), true],
	['a nested object whose members are reordered', { ...BODY, extra: { a: ['x'], b: 1 } }, true],
	['an added empty member (empty members are never signed)', { ...BODY, remark: '' }, true],
	['a changed value', { ...BODY, amount: '2500.01' }, false],
	['a value of another type that prints the same (2 and "2")', { ...BODY, status: '2' }, true],
	['a changed nested value', { ...BODY, extra: { b: 2, a: ['x'] } }, false],
	['an added member', { ...BODY, payUrl: 'https://pay.example' }, false],
	['an added member that repeats a value', { ...BODY, orderid: 'T-1' }, false],
	['a removed member', without(BODY, 'orderNo'), false],
	['a removed member of value 0', without(BODY, 'fee'), false],
	['a renamed member', renamed(BODY, 'amount', 'amout'), false],
	['a member renamed in case only', renamed(BODY, 'orderNo', 'OrderNo'), false],
	['an emptied member', { ...BODY, orderNo: '' }, false],
	[
		'a member moved into the nested object',
		{ ...without(BODY, 'fee'), extra: { ...(BODY.extra as Body), fee: '0' } },
		false,
	],
	['an empty body', {}, false],
];

const bits = Buffer.from(SIGNATURE, 'base64');
const flipped = Buffer.from(bits);
flipped[128] ^= 0x01;

/** Signature changes, each with whether it must still verify over the genuine body. */
const SIGNATURES: Array<[string, unknown, boolean]> = [
	['the signature wrapped over lines', SIGNATURE.match(/.{1,64}/g)?.join('\r\n'), true],
	['the signature with spaces around and inside', ` ${SIGNATURE.slice(0, 100)} ${SIGNATURE.slice(100)}\n`, true],
	['one bit flipped', flipped.toString('base64'), false],
	['truncated by 4 characters', SIGNATURE.slice(0, -4), false],
	['truncated by 1 character', SIGNATURE.slice(0, -1), false],
	['extended by 4 characters', `${SIGNATURE}AAAA`, false],
	['without its padding', SIGNATURE.replace(/=+$/, ''), false],
	['in the URL-safe alphabet', SIGNATURE.replace(/\+/g, '-').replace(/\//g, '_'), false],
	['with a character outside base64', `${SIGNATURE.slice(0, 10)}!${SIGNATURE.slice(11)}`, false],
	['255 bytes', bits.subarray(1).toString('base64'), false],
	['257 bytes', Buffer.concat([Buffer.from([0]), bits]).toString('base64'), false],
	['512 bytes: the signature twice', Buffer.concat([bits, bits]).toString('base64'), false],
	['the empty string', '', false],
	['whitespace only', ' \n ', false],
	['the hex of the signature', bits.toString('hex'), false],
	['a number', 12345, false],
	['null', null, false],
	['undefined', undefined, false],
	['an object', { sign: SIGNATURE }, false],
	['an array holding it', [SIGNATURE], false],
	['its bytes, not base64', bits, false],
	['true', true, false],
];

/** Rows with the case and the expectation first, so that test titles show them and not the values. */
function titled<T>(rows: Array<[string, T, boolean]>): Array<[string, boolean, T]> {
	return rows.map(([what, value, holds]) => [what, holds, value]);
}

describe('verify (signature.ts), over a body HaiPay signed', () => {
	it('has a genuine signature that the URL-safe case changes', () => {
		expect(SIGNATURE).toMatch(/[+/]/);
	});

	it.each(titled(BODIES))('%s: verifies %p', async (_what, holds, body) => {
		expect(await verify(body, SIGNATURE, SECRET, platformPublic)).toBe(holds);
	});

	it.each(titled(SIGNATURES))('a signature %s: verifies %p', async (_what, holds, signature) => {
		expect(await verify(BODY, signature, SECRET, platformPublic)).toBe(holds);
	});

	it('is false with another secret, even one that differs only in case or by a space', async () => {
		for (const secret of ['test-only-secret-zar', SECRET.toUpperCase(), `${SECRET} `, ''])
			expect(await verify(BODY, SIGNATURE, secret, platformPublic)).toBe(false);
	});

	it('is false with another public key, and for a signature made with another private key', async () => {
		expect(await verify(BODY, SIGNATURE, SECRET, parsePublicKey(TEST_KEYS.merchantPublic))).toBe(false);
		expect(
			await verify(BODY, signBody(BODY, SECRET, parsePrivateKey(TEST_KEYS.otherPrivate)), SECRET, platformPublic),
		).toBe(false);
	});

	it('is false for a signature made in the other array style', async () => {
		const voucher = { appId: 1001, orderNos: ['N1', 'N2'] };
		const listed = signBody(voucher, SECRET, platformKey, { arrayStyle: 'list' });
		expect(await verify(voucher, listed, SECRET, platformPublic, { arrayStyle: 'list' })).toBe(true);
		expect(await verify(voucher, listed, SECRET, platformPublic)).toBe(false);
	});

	it('an empty body verifies only with its own signature', async () => {
		const empty = signBody({}, SECRET, platformKey);
		expect(await verify({}, empty, SECRET, platformPublic)).toBe(true);
		expect(await verify({ blank: '', none: null }, empty, SECRET, platformPublic)).toBe(true);
		expect(await verify({ a: '1' }, empty, SECRET, platformPublic)).toBe(false);
		expect(await verify({}, SIGNATURE, SECRET, platformPublic)).toBe(false);
	});
});

describe('verifySigned (verification.ts), over a signed object with its sign member', () => {
	const fields = {
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:1',
		appId: 1001,
		secretKey: SECRET,
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
	};
	const settings = settingsOf(fields);
	const signed = { ...BODY, sign: SIGNATURE };

	it.each(titled(BODIES))('%s: verifies %p', async (_what, holds, body) => {
		expect(await verifySigned({ ...body, sign: SIGNATURE }, settings)).toBe(holds ? 'verified' : 'invalid');
	});

	it.each(titled(SIGNATURES))('a sign member %s: verifies %p', async (_what, holds, signature) => {
		expect(await verifySigned({ ...BODY, sign: signature }, settings)).toBe(holds ? 'verified' : 'invalid');
	});

	it('is invalid without a sign member, or with the sign member renamed', async () => {
		expect(await verifySigned({ ...BODY }, settings)).toBe('invalid');
		expect(await verifySigned(renamed(signed, 'sign', 'Sign'), settings)).toBe('invalid');
	});

	it("is invalid with another secret or another HaiPay public key in the credential's settings", async () => {
		expect(await verifySigned(signed, settingsOf({ ...fields, secretKey: 'test-only-secret-zar' }))).toBe('invalid');
		expect(await verifySigned(signed, settingsOf({ ...fields, haipayPublicKey: TEST_KEYS.otherPublic }))).toBe(
			'invalid',
		);
		expect(await verifySigned(signed, settingsOf({ ...fields }))).toBe('verified');
	});

	it("follows the credential's array style", async () => {
		const voucher = withSignature({ appId: 1001, orderNos: ['N1', 'N2'] }, SECRET, platformKey, { arrayStyle: 'list' });
		expect(await verifySigned(voucher, settingsOf({ ...fields, arrayStyle: 'list' }))).toBe('verified');
		expect(await verifySigned(voucher, settings)).toBe('invalid');
	});

	it('an empty signed object verifies; without a public key nothing is checked: unverified, never verified', async () => {
		expect(await verifySigned(withSignature({}, SECRET, platformKey), settings)).toBe('verified');
		const keyless = settingsOf({ ...fields, haipayPublicKey: '' });
		expect(await verifySigned(signed, keyless)).toBe('unverified');
		expect(await verifySigned({ ...BODY, sign: 'forged' }, keyless)).toBe('unverified');
	});
});
