import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { TEST_KEYS } from './keys';

/** The test-only secret key the sandbox gives a currency's App ID. */
export const secretOf = (currency: string): string => `test-only-secret-${currency.toLowerCase()}`;

/**
 * A credential for the gateway at `baseUrl` holding the App ID and test-only secret of each currency given, the first
 * one first and the others under Other Currencies.
 */
export function multiCurrencyCredential(
	baseUrl: string,
	currencies: readonly (keyof typeof APP_IDS)[],
): ICredentialDataDecryptedObject {
	const [first, ...others] = currencies;
	const credential: ICredentialDataDecryptedObject = {
		environment: 'custom',
		baseUrl,
		appId: APP_IDS[first],
		currency: first,
		secretKey: secretOf(first),
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
		otherCurrencies: others,
	};
	for (const currency of others) {
		const suffix = currency.charAt(0) + currency.slice(1).toLowerCase();
		credential[`appId${suffix}`] = APP_IDS[currency];
		credential[`secretKey${suffix}`] = secretOf(currency);
	}
	return credential;
}

/** The credential a merchant would create for one of the sandbox's App IDs (test-only keys). */
export function sandboxCredential(
	sandbox: Sandbox,
	appId: number,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	const merchant = sandbox.merchants.find((candidate) => candidate.appId === appId);
	if (merchant === undefined) throw new Error(`sandbox has no merchant ${appId}`);
	return {
		environment: 'custom',
		baseUrl: sandbox.baseUrl,
		appId,
		currency: merchant.currency,
		secretKey: merchant.secretKey,
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
		...overrides,
	};
}
