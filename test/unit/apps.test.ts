/**
 * Which of a credential's App IDs signs a request: the path's currency decides; on the voucher's path, which serves
 * every currency, an appId in the body chooses among the credential's own App IDs. Checked on the credential's
 * real `authenticate`, with each signature verified by the test-side verifier under the App ID's own secret.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { HaiPayApi } from '../../credentials/HaiPayApi.credentials';
import { parsePublicKey } from '../../nodes/shared/signing/keys';
import { settingsOf, signerOfAppId } from '../../nodes/shared/signing/credential';
import { TEST_KEYS } from '../helpers/keys';
import { verifyBody } from '../helpers/signing';

const credential = new HaiPayApi();
const merchantPublic = parsePublicKey(TEST_KEYS.merchantPublic);

const multi: ICredentialDataDecryptedObject = {
	environment: 'custom',
	baseUrl: 'http://127.0.0.1:8642',
	appId: 1001,
	currency: 'TZS',
	secretKey: 'test-only-secret-tzs',
	privateKey: TEST_KEYS.merchantPkcs8,
	otherCurrencies: ['ZAR', 'NGN'],
	appIdZar: 1002,
	secretKeyZar: 'test-only-secret-zar',
	appIdNgn: 1003,
	secretKeyNgn: 'test-only-secret-ngn',
};

async function signedBody(url: string, body: object, data = multi): Promise<Record<string, unknown>> {
	return (await credential.authenticate(data, { method: 'POST', url, body })).body as Record<string, unknown>;
}

describe("a credential's App IDs", () => {
	it("signs each currency's path with that currency's App ID and secret, and no other", async () => {
		for (const [path, appId, secret] of [
			['/tzs/pay/apply', 1001, 'test-only-secret-tzs'],
			['/zar/pay/apply', 1002, 'test-only-secret-zar'],
			['/ngn/pay/query', 1003, 'test-only-secret-ngn'],
		] as const) {
			const body = await signedBody(path, { orderId: 'O-1' });
			expect(body.appId).toBe(appId);
			expect(verifyBody(body, body.sign, secret, merchantPublic)).toBe(true);
			expect(
				verifyBody(
					body,
					body.sign,
					'test-only-secret-tzs' === secret ? 'test-only-secret-zar' : 'test-only-secret-tzs',
					merchantPublic,
				),
			).toBe(false);
		}
	});

	it("replaces an appId in the body with the path's own, even one of the credential's other App IDs", async () => {
		expect((await signedBody('/zar/pay/apply', { appId: 1003, orderId: 'X' })).appId).toBe(1002);
		expect((await signedBody('/zar/pay/apply', { appId: 9999, orderId: 'X' })).appId).toBe(1002);
	});

	it("on the voucher's path, signs with the App ID the body names when the credential holds it, else the first", async () => {
		const zar = await signedBody('/common/voucher/pdf', { appId: 1002, orderNos: ['HP1'] });
		expect(zar.appId).toBe(1002);
		expect(verifyBody(zar, zar.sign, 'test-only-secret-zar', merchantPublic)).toBe(true);
		expect((await signedBody('/common/voucher/pdf', { appId: 9999, orderNos: ['HP1'] })).appId).toBe(1001);
		expect((await signedBody('/common/voucher/pdf', { orderNos: ['HP1'] })).appId).toBe(1001);
	});

	it('refuses a currency it holds no App ID for, naming the ones it holds, before signing', async () => {
		await expect(signedBody('/egp/pay/apply', { orderId: 'X' })).rejects.toThrow(
			"This HaiPay credential holds App IDs for TZS (App ID 1001), ZAR (App ID 1002), NGN (App ID 1003), but the operation is in EGP. Add EGP's App ID and secret key under its Other Currencies: nothing was sent.",
		);
	});

	it('ignores the fields of a currency no longer listed, and finds an App ID given as a number or its digits', () => {
		const settings = settingsOf({ ...multi, otherCurrencies: ['ZAR'] });
		expect(settings.apps.map((app) => app.currency)).toEqual(['TZS', 'ZAR']);
		expect(settings.secrets).toEqual(['test-only-secret-tzs', 'test-only-secret-zar']);
		expect(signerOfAppId(settings, ' 1002 ')?.secretKey).toBe('test-only-secret-zar');
		expect(signerOfAppId(settings, 1002)?.currency).toBe('ZAR');
		for (const other of [1003, '1002.0', '0x3EA', [1002], null, ''])
			expect(signerOfAppId(settings, other)).toBeUndefined();
	});

	it('keeps a single App ID without a currency signing every path, as before', async () => {
		const single: ICredentialDataDecryptedObject = { ...multi, currency: '', otherCurrencies: [] };
		expect((await signedBody('/egp/pay/apply', { orderId: 'X' }, single)).appId).toBe(1001);
	});
});
