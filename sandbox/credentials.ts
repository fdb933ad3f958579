import type { MerchantConfig } from './merchants';

/**
 * The credential file `npm run sandbox` writes for `n8n import:credentials`: n8n's "HaiPay API" credential type, as
 * the merchant would fill it in for this gateway.
 */

/**
 * The currencies the payouts credential holds, in the order it lists them: the contract's own payout currencies
 * (the node pays more, nodes/shared/contract/rules/payout.ts `PAYOUT_CURRENCIES`; this credential holds these).
 */
export const PAYOUTS_CREDENTIAL_CURRENCIES = ['TZS', 'ZAR', 'NGN', 'EGP', 'BDT'] as const;

/** The id and name of the credential that holds one App ID per payout currency. */
export const PAYOUTS_CREDENTIAL = { id: 'hpsandboxpayouts', name: 'HaiPay Sandbox payouts' } as const;

export interface KeyPair {
	privatePem: string;
	publicPem: string;
}

/** The platform's keys and every merchant with its keys, as `npm run sandbox` prepares them in its state folder. */
export interface PreparedState {
	platform: KeyPair;
	merchants: Array<MerchantConfig & KeyPair>;
}

type PreparedMerchant = PreparedState['merchants'][number];

function credentialData(
	merchant: PreparedMerchant,
	platformPublicPem: string,
	baseUrl: string,
): Record<string, unknown> {
	return {
		environment: 'custom',
		baseUrl,
		appId: merchant.appId,
		currency: merchant.currency,
		secretKey: merchant.secretKey,
		privateKey: merchant.privatePem,
		haipayPublicKey: platformPublicPem,
		arrayStyle: merchant.arrayStyle ?? 'json',
	};
}

/**
 * One credential for every payout currency: the first merchant of TZS in the credential's own fields, the first of
 * each other payout currency under Other Currencies (`appIdZar`, `secretKeyZar`, ...). Only merchants that share the
 * first one's key and array style can be held together; none when fewer than two currencies qualify.
 */
function payoutsCredential(state: PreparedState, baseUrl: string): unknown[] {
	const byCurrency = PAYOUTS_CREDENTIAL_CURRENCIES.map((currency) =>
		state.merchants.find((merchant) => merchant.currency === currency),
	);
	const [first, ...rest] = byCurrency.filter((merchant): merchant is PreparedMerchant => merchant !== undefined);
	const others = rest.filter(
		(merchant) =>
			merchant.publicKey === first?.publicKey && (merchant.arrayStyle ?? 'json') === (first.arrayStyle ?? 'json'),
	);
	if (first === undefined || others.length === 0) return [];
	const data = credentialData(first, state.platform.publicPem, baseUrl);
	data.otherCurrencies = others.map((merchant) => merchant.currency);
	for (const merchant of others) {
		const suffix = merchant.currency.charAt(0) + merchant.currency.slice(1).toLowerCase();
		data[`appId${suffix}`] = merchant.appId;
		data[`secretKey${suffix}`] = merchant.secretKey;
	}
	return [{ ...PAYOUTS_CREDENTIAL, type: 'haiPayApi', data }];
}

/**
 * The array `n8n import:credentials --input=FILE` takes: one "HaiPay API" credential per appId, and one that holds
 * an App ID per payout currency (HaiPay Sandbox payouts).
 */
export function n8nCredentials(state: PreparedState, baseUrl: string): unknown[] {
	const single = state.merchants.map((merchant) => ({
		id: `hpsandbox${merchant.appId}`,
		name: `HaiPay Sandbox ${merchant.currency}${state.merchants.filter((m) => m.currency === merchant.currency).length > 1 ? ` ${merchant.appId}` : ''}`,
		type: 'haiPayApi',
		data: credentialData(merchant, state.platform.publicPem, baseUrl),
	}));
	return [...single, ...payoutsCredential(state, baseUrl)];
}
