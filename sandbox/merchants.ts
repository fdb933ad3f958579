import type { KeyObject } from 'crypto';

import { loadPublicKey, type ArrayStyle } from './signing';

/** One merchant account as the gateway knows it: an appId bound to one currency, its secret and its public key. */
export interface MerchantConfig {
	appId: number;
	/** ISO code, upper or lower case; the path prefix an appId must be used with. */
	currency: string;
	secretKey: string;
	/** The merchant's RSA public key (X.509 SubjectPublicKeyInfo or PKCS#1), PEM or bare base64. */
	publicKey?: string | KeyObject;
	/** Merchants of the other environment are unknown to this gateway, as on the real one. Default `sandbox`. */
	environment?: 'sandbox' | 'production';
	/** Starting available balance, a decimal string. Default 1000000000.00. */
	balance?: string;
	/** How arrays (voucher `orderNos`) are written into the signed string. Default `json`. */
	arrayStyle?: ArrayStyle;
	/** Payout fee as a rate of the amount, e.g. "0.01"; charged on top of the amount. Default 0.01. */
	payoutFeeRate?: string;
	/** Collection fee as a rate of the paid amount; deducted before crediting. Default 0.03. */
	collectionFeeRate?: string;
	/** A label for logs and the credential file. */
	label?: string;
}

export interface Merchant {
	appId: number;
	currency: string;
	secretKey: string;
	publicKey: KeyObject;
	environment: 'sandbox' | 'production';
	balance: string;
	arrayStyle: ArrayStyle;
	payoutFeeRate: string;
	collectionFeeRate: string;
	label: string;
}

/** Test-only appIds, one per currency of the contract, then one per further payout rail. They protect nothing. */
export const DEFAULT_APP_IDS: ReadonlyArray<[number, string]> = [
	[1001, 'TZS'],
	[1002, 'ZAR'],
	[1003, 'NGN'],
	[1004, 'EGP'],
	[1005, 'BDT'],
	[1006, 'USD'],
	[1007, 'BRL'],
	[1008, 'MYR'],
	[1009, 'SAR'],
	[1010, 'IDR'],
	[1011, 'USDC'],
	// The payout rails beyond the contract (BRL, IDR, MYR and USD have theirs above).
	[1012, 'INR'],
	[1013, 'PHP'],
	[1014, 'MXN'],
	[1015, 'EUR'],
	[1016, 'THB'],
	[1017, 'VND'],
	[1018, 'PKR'],
	[1019, 'TRY'],
	// USDT to wallet addresses, KRW to Korean bank accounts (HaiPay's usdtc and KRW pages).
	[1020, 'USDT'],
	[1021, 'KRW'],
];

/**
 * HaiPay's global cashier signs with an App ID of its own, "currency is CASHIER": a merchant of the sandbox, but no
 * currency of its paths (no ledger or order query of `/cashier/`), so it is kept apart from the list above.
 */
export const CASHIER_APP_ID: [number, string] = [1022, 'CASHIER'];

export const DEFAULT_BALANCE = '1000000000.00';

export function defaultSecret(currency: string): string {
	return `test-only-secret-${currency.toLowerCase()}`;
}

/** The default merchants, all sharing one public key unless a per-appId key is given. */
export function defaultMerchants(publicKeys: (appId: number) => string | KeyObject): MerchantConfig[] {
	return [...DEFAULT_APP_IDS, CASHIER_APP_ID].map(([appId, currency]) => ({
		appId,
		currency,
		secretKey: defaultSecret(currency),
		publicKey: publicKeys(appId),
		environment: 'sandbox',
		balance: DEFAULT_BALANCE,
		label: `HaiPay Sandbox ${currency}`,
	}));
}

export function resolveMerchants(
	configs: MerchantConfig[],
	fallbackPublicKey: () => string | KeyObject,
): Map<number, Merchant> {
	const out = new Map<number, Merchant>();
	for (const config of configs) {
		if (!Number.isInteger(config.appId)) throw new Error(`merchant appId must be an integer: ${config.appId}`);
		if (out.has(config.appId)) throw new Error(`merchant appId ${config.appId} is configured twice`);
		const currency = config.currency.toUpperCase();
		out.set(config.appId, {
			appId: config.appId,
			currency,
			secretKey: config.secretKey,
			publicKey: loadPublicKey(config.publicKey ?? fallbackPublicKey()),
			environment: config.environment ?? 'sandbox',
			balance: config.balance ?? DEFAULT_BALANCE,
			arrayStyle: config.arrayStyle ?? 'json',
			payoutFeeRate: config.payoutFeeRate ?? '0.01',
			collectionFeeRate: config.collectionFeeRate ?? '0.03',
			label: config.label ?? `HaiPay Sandbox ${currency}`,
		});
	}
	return out;
}
