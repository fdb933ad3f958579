import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { trimmedText } from '../text';

/*
 * HaiPay issues one App ID, with its own secret key, per currency; the merchant's RSA keys are the same for all of
 * them. A credential holds the first App ID in its original fields (so saved credentials keep working) and any
 * further ones under "Other Currencies", each in a field pair named after its currency. A product may have an App ID
 * of its own in place of a currency's (products/index.ts `PRODUCT_APPS`: the global cashier's, CASHIER).
 */

/** One App ID of the credential. */
export interface HaiPayApp {
	appId: number;
	/** Upper-case ISO code, or '' for a single App ID whose currency the merchant left unset. */
	currency: string;
	secretKey: string;
}

/** The credential field listing the currencies of the further App IDs. */
export const OTHER_CURRENCIES_FIELD = 'otherCurrencies';

/** The credential fields of one further currency's App ID and secret key: `appIdZar`, `secretKeyZar`. */
export function appFieldNames(currency: string): { appId: string; secretKey: string } {
	const suffix = currency.charAt(0).toUpperCase() + currency.slice(1).toLowerCase();
	return { appId: `appId${suffix}`, secretKey: `secretKey${suffix}` };
}

/** The currencies listed under "Other Currencies", upper-cased, in the order given, each once. */
function otherCurrencies(credentials: ICredentialDataDecryptedObject): string[] {
	const listed = credentials[OTHER_CURRENCIES_FIELD];
	const values = Array.isArray(listed) ? listed : typeof listed === 'string' ? listed.split(',') : [];
	return [...new Set(values.map((value) => trimmedText(value).toUpperCase()).filter((value) => value !== ''))];
}

/** Every App ID the credential holds, the first one first. Fields of currencies no longer listed are ignored. */
export function appsOf(credentials: ICredentialDataDecryptedObject): HaiPayApp[] {
	const first: HaiPayApp = {
		appId: Number(credentials.appId),
		currency: trimmedText(credentials.currency).toUpperCase(),
		secretKey: trimmedText(credentials.secretKey),
	};
	const others = otherCurrencies(credentials).map((currency) => {
		const names = appFieldNames(currency);
		return { appId: Number(credentials[names.appId]), currency, secretKey: trimmedText(credentials[names.secretKey]) };
	});
	return [first, ...others];
}

function isAppId(value: number): boolean {
	return Number.isSafeInteger(value) && value > 0;
}

/** What the further App IDs lack before any of them can sign, or undefined; the first one is checked with the keys. */
export function appsLacking(apps: readonly HaiPayApp[]): string | undefined {
	const [first, ...others] = apps;
	if (others.length === 0) return undefined;
	if (first.currency === '') {
		return 'The HaiPay credential holds Other Currencies, so set the Currency of its first App ID too: each App ID must say which currency it signs for.';
	}
	const seen = new Map<number, string>([[first.appId, first.currency]]);
	for (const app of others) {
		if (app.currency === first.currency) {
			return `The HaiPay credential lists ${app.currency} under Other Currencies, but its first App ID is already for ${app.currency}.`;
		}
		if (!isAppId(app.appId))
			return `The HaiPay credential needs the ${app.currency} App ID: the whole number shown in the merchant backend.`;
		if (app.secretKey === '') return `The HaiPay credential needs the ${app.currency} secret key.`;
		const twin = seen.get(app.appId);
		if (twin !== undefined) {
			return `The HaiPay credential gives App ID ${app.appId} for both ${twin} and ${app.currency}: HaiPay issues one App ID per currency.`;
		}
		seen.set(app.appId, app.currency);
	}
	return undefined;
}
