import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { HaiPayApi } from '../../credentials/HaiPayApi.credentials';
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { testHaiPayCredential } from '../../nodes/shared/gateway/credentialTest';
import { parsePublicKey } from '../../nodes/shared/signing/keys';
import { PRODUCTION_URL, SANDBOX_URL, settingsOf } from '../../nodes/shared/signing/credential';
import { verifyBody } from '../helpers/signing';
import { bareBase64, TEST_KEYS } from '../helpers/keys';

const credential = new HaiPayApi();

function credentials(overrides: Partial<ICredentialDataDecryptedObject> = {}): ICredentialDataDecryptedObject {
	return {
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:8642/',
		appId: 1001,
		currency: 'TZS',
		secretKey: 'test-only-secret-tzs',
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
		...overrides,
	};
}

function request(url: string, body: object = { orderId: 'O-1', amount: '1000' }): IHttpRequestOptions {
	return { method: 'POST', url, body };
}

const merchantPublic = parsePublicKey(TEST_KEYS.merchantPublic);

describe('credential authenticate', () => {
	it('adds the appId, signs, and sends exactly the body it signed', async () => {
		const signed = await credential.authenticate(credentials(), request('/tzs/pay/apply'));
		const body = signed.body as Record<string, unknown>;
		expect(body).toMatchObject({ orderId: 'O-1', amount: '1000', appId: 1001 });
		expect(verifyBody(body, body.sign, 'test-only-secret-tzs', merchantPublic)).toBe(true);
		expect(signed.baseURL).toBe('http://127.0.0.1:8642');
		expect(signed.headers).toMatchObject({ 'Content-Type': 'application/json' });
	});

	it('overrides an appId smuggled into the body with the credential one', async () => {
		const signed = await credential.authenticate(
			credentials(),
			request('/tzs/pay/apply', { appId: 9999, orderId: 'X' }),
		);
		expect((signed.body as Record<string, unknown>).appId).toBe(1001);
	});

	it("does not change the caller's body object", async () => {
		const body = { orderId: 'O-2' };
		await credential.authenticate(credentials(), request('/tzs/pay/query', body));
		expect(body).toEqual({ orderId: 'O-2' });
	});

	it('renders arrays as the credential says', async () => {
		const listed = await credential.authenticate(
			credentials({ arrayStyle: 'list', currency: '' }),
			request('/common/voucher/pdf', { orderNos: ['A', 'B'] }),
		);
		const body = listed.body as Record<string, unknown>;
		expect(verifyBody(body, body.sign, 'test-only-secret-tzs', merchantPublic, { arrayStyle: 'list' })).toBe(true);
		expect(verifyBody(body, body.sign, 'test-only-secret-tzs', merchantPublic, { arrayStyle: 'json' })).toBe(false);
	});

	it('accepts the private key as bare base64 PKCS#1', async () => {
		const signed = await credential.authenticate(
			credentials({ privateKey: bareBase64(TEST_KEYS.merchantPkcs1) }),
			request('/tzs/pay/apply'),
		);
		const body = signed.body as Record<string, unknown>;
		expect(verifyBody(body, body.sign, 'test-only-secret-tzs', merchantPublic)).toBe(true);
	});

	it('refuses an operation in another currency before signing, naming both currencies', async () => {
		await expect(credential.authenticate(credentials(), request('/ngn/pay/apply'))).rejects.toThrow(
			/for TZS \(App ID 1001\), but the operation is in NGN.*nothing was sent/,
		);
	});

	it('lets the currency-neutral voucher path through, and any currency when none is set', async () => {
		for (const [fields, path] of [
			[credentials(), '/common/voucher/pdf'],
			[credentials({ currency: '' }), '/ngn/pay/apply'],
		] as const) {
			const signed = await credential.authenticate(fields, request(path, { orderNos: ['HP1'] }));
			const body = signed.body as Record<string, unknown>;
			expect(body).toMatchObject({ orderNos: ['HP1'], appId: 1001 });
			expect(verifyBody(body, body.sign, 'test-only-secret-tzs', merchantPublic)).toBe(true);
			expect(signed.url).toBe(path);
		}
	});

	it.each([
		[{ appId: 0 }, /needs an App ID/],
		[{ appId: 1.5 }, /needs an App ID/],
		[{ secretKey: ' ' }, /needs its secret key/],
		[{ privateKey: '' }, /needs the merchant private key/],
		[{ baseUrl: 'ftp://x' }, /base URL that starts with http/],
		[{ privateKey: 'MIIB-not-a-key' }, /merchant private key could not be read/],
	])('explains a misconfiguration %p without leaking secrets', async (overrides, message) => {
		const attempt = credential.authenticate(credentials(overrides), request('/tzs/pay/apply'));
		await expect(attempt).rejects.toThrow(message);
		const error = await attempt.catch((caught: Error) => caught);
		expect(String((error as Error).message)).not.toContain('test-only-secret-tzs');
		expect(String((error as Error).message)).not.toContain(bareBase64(TEST_KEYS.merchantPkcs8).slice(40, 80));
	});

	it('replaces a stale sign in the body with one over the fields it sends', async () => {
		const signed = await credential.authenticate(
			credentials(),
			request('/tzs/pay/apply', { orderId: 'O-3', amount: '1000', sign: 'stale' }),
		);
		const body = signed.body as Record<string, unknown>;
		expect(body.sign).not.toBe('stale');
		expect(verifyBody(body, body.sign, 'test-only-secret-tzs', merchantPublic)).toBe(true);
	});

	it('signs with what the credential object holds now, when the same object comes back changed', async () => {
		const reused = credentials();
		const first = (await credential.authenticate(reused, request('/tzs/pay/apply'))).body as Record<string, unknown>;
		expect(verifyBody(first, first.sign, 'test-only-secret-tzs', merchantPublic)).toBe(true);
		Object.assign(reused, { appId: 1002, secretKey: 'another-test-only-secret', privateKey: TEST_KEYS.otherPrivate });
		const second = (await credential.authenticate(reused, request('/tzs/pay/apply'))).body as Record<string, unknown>;
		expect(second.appId).toBe(1002);
		expect(verifyBody(second, second.sign, 'another-test-only-secret', parsePublicKey(TEST_KEYS.otherPublic))).toBe(
			true,
		);
		reused.baseUrl = 'http://127.0.0.1:9999';
		expect((await credential.authenticate(reused, request('/tzs/pay/apply'))).baseURL).toBe('http://127.0.0.1:9999');
		// A field the settings gain later is noticed as well: any change of the object derives them again.
		reused.arrayStyle = 'list';
		const listed = (await credential.authenticate(reused, request('/common/voucher/pdf', { orderNos: ['A', 'B'] })))
			.body as Record<string, unknown>;
		const otherPublic = parsePublicKey(TEST_KEYS.otherPublic);
		expect(verifyBody(listed, listed.sign, 'another-test-only-secret', otherPublic, { arrayStyle: 'list' })).toBe(true);
	});

	it('asks for the currency when the credential test runs without one', async () => {
		await expect(
			credential.authenticate(credentials({ currency: '' }), request('/-/account/ledger', {})),
		).rejects.toThrow(/To test this credential, set its Currency/);
	});
});

describe('credential settings', () => {
	it('starts a new credential with no App ID: n8n asks for each one, and one left empty signs nothing', () => {
		// n8n 2.40's credential editor (requiredPropertiesFilled) counts a required number as given only when it holds a
		// number or an expression: an App ID of 0 passed as given, and its test went to HaiPay with App ID 0.
		const given = (value: unknown) => typeof value === 'number' || (typeof value === 'string' && value.startsWith('='));
		const appIds = credential.properties.filter(
			(property) => property.name === 'appId' || /^appId[A-Z]/.test(property.name),
		);
		expect(appIds.map((property) => property.name)).toEqual(expect.arrayContaining(['appId', 'appIdZar', 'appIdUsdc']));
		for (const property of appIds) {
			expect(property).toMatchObject({ type: 'number', required: true });
			expect(given(property.default)).toBe(false);
		}
		expect(given(0)).toBe(true);
		expect(settingsOf(credentials({ appId: '' })).lacking).toBe(
			'The HaiPay credential needs an App ID: the whole number shown in the merchant backend.',
		);
	});

	it('picks the base URL per environment', () => {
		expect(settingsOf(credentials({ environment: 'sandbox' })).baseUrl).toBe(SANDBOX_URL);
		expect(settingsOf(credentials({ environment: 'production', productionUrl: '' })).baseUrl).toBe(PRODUCTION_URL);
		expect(settingsOf(credentials({ environment: 'production', productionUrl: 'https://live.example/' })).baseUrl).toBe(
			'https://live.example',
		);
		expect(settingsOf(credentials()).baseUrl).toBe('http://127.0.0.1:8642');
	});

	it('keeps every secret field a password field and the public key readable', () => {
		const byName = Object.fromEntries(credential.properties.map((property) => [property.name, property]));
		expect(byName.secretKey.typeOptions?.password).toBe(true);
		expect(byName.privateKey.typeOptions?.password).toBe(true);
		expect(byName.haipayPublicKey.typeOptions?.password).toBeUndefined();
	});

	it("is tested by both nodes' haiPayApiTest, one signed balance read per App ID (test/integration/currencies.cases.ts)", () => {
		expect((credential as { test?: unknown }).test).toBeUndefined();
		for (const node of [new HaiPay(), new HaiPayTrigger()]) {
			expect(node.description.credentials).toEqual([{ name: 'haiPayApi', required: true, testedBy: 'haiPayApiTest' }]);
			expect(node.methods.credentialTest.haiPayApiTest).toBe(testHaiPayCredential);
		}
	});
});
