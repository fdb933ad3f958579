import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import { ambiguityOf, type ArrayStyle } from './canonical';
import { privateKeyOf } from './keys';
import { signBodyAsync } from './signature';

export const SANDBOX_URL = 'https://uat-interface.haipay.asia';
export const PRODUCTION_URL = 'https://interface.haipay.asia';

/** Path prefixes that are not a currency: the voucher endpoint serves every appId. */
const CURRENCY_NEUTRAL = new Set(['common']);

/** The marker the credential test puts in its path when no currency is set, so the test can say what is missing. */
export const NO_CURRENCY_SEGMENT = '-';

export interface HaiPaySettings {
	baseUrl: string;
	appId: number;
	/** Upper-case ISO code the appId belongs to, or '' when the merchant left it unset. */
	currency: string;
	secretKey: string;
	privateKey: string;
	haipayPublicKey: string;
	arrayStyle: ArrayStyle;
}

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

export function settingsOf(credentials: ICredentialDataDecryptedObject): HaiPaySettings {
	const environment = text(credentials.environment) || 'sandbox';
	const baseUrl =
		environment === 'production'
			? text(credentials.productionUrl) || PRODUCTION_URL
			: environment === 'custom'
				? text(credentials.baseUrl)
				: SANDBOX_URL;
	return {
		baseUrl: baseUrl.replace(/\/+$/, ''),
		appId: Number(credentials.appId),
		currency: text(credentials.currency).toUpperCase(),
		secretKey: text(credentials.secretKey),
		privateKey: text(credentials.privateKey),
		haipayPublicKey: text(credentials.haipayPublicKey),
		arrayStyle: credentials.arrayStyle === 'list' ? 'list' : 'json',
	};
}

/*
 * n8n hands `authenticate` the credential object the node passed in, the same one for every request of a run,
 * so its settings are derived once and kept beside it (and with them its parsed keys). If any field of that
 * object changed since, the settings are derived again.
 */
const derived = new WeakMap<object, { fields: ICredentialDataDecryptedObject; settings: HaiPaySettings }>();

function sameFields(now: ICredentialDataDecryptedObject, then: ICredentialDataDecryptedObject): boolean {
	const names = Object.keys(now);
	return names.length === Object.keys(then).length && names.every((name) => now[name] === then[name]);
}

export function settingsFor(credentials: ICredentialDataDecryptedObject): HaiPaySettings {
	const known = derived.get(credentials);
	if (known !== undefined && sameFields(credentials, known.fields)) return known.settings;
	const settings = settingsOf(credentials);
	derived.set(credentials, { fields: { ...credentials }, settings });
	return settings;
}

/** The currency segment of a gateway path such as `/tzs/pay/apply`, upper-cased. */
export function currencyOfPath(url: string): string {
	const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '');
	return (path.split('/').find((segment) => segment !== '') ?? '').toUpperCase();
}

/** Checks that need no network: a misconfigured credential fails here, before anything is signed or sent. */
export function assertUsable(settings: HaiPaySettings, url: string): void {
	if (!Number.isSafeInteger(settings.appId) || settings.appId <= 0) {
		throw new UserError('The HaiPay credential needs an App ID: the whole number shown in the merchant backend.');
	}
	if (settings.baseUrl === '' || !/^https?:\/\/[^/\s]+/i.test(settings.baseUrl)) {
		throw new UserError('The HaiPay credential needs a base URL that starts with http:// or https://.');
	}
	if (settings.secretKey === '') throw new UserError('The HaiPay credential needs its secret key.');
	if (settings.privateKey === '') throw new UserError('The HaiPay credential needs the merchant private key.');
	const pathCurrency = currencyOfPath(url);
	if (pathCurrency === NO_CURRENCY_SEGMENT) {
		throw new UserError(
			'To test this credential, set its Currency: HaiPay issues each App ID for one currency, and the test reads that currency\'s balance.',
		);
	}
	if (settings.currency !== '' && !CURRENCY_NEUTRAL.has(pathCurrency.toLowerCase()) && pathCurrency !== settings.currency) {
		throw new UserError(
			`This HaiPay credential is for ${settings.currency} (App ID ${settings.appId}), but the operation is in ${pathCurrency}. ` +
				`Use a credential whose App ID belongs to ${pathCurrency}: nothing was sent.`,
		);
	}
}

/**
 * The credential's `authenticate`: adds the appId, signs the body that will be sent and points the request
 * at the environment's base URL. The object that is signed is the object that is sent.
 */
export async function signRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const settings = settingsFor(credentials);
	assertUsable(settings, requestOptions.url);
	const privateKey = privateKeyOf(settings);
	const body = (typeof requestOptions.body === 'object' && requestOptions.body !== null ? requestOptions.body : {}) as object;
	// One copy, sent as signed: its canonical string is taken before `sign` is set (and leaves any old one out).
	const signed: Record<string, unknown> = { ...body, appId: settings.appId };
	// The last line of defence: the node refuses such values with a clear error long before they get here.
	const ambiguity = ambiguityOf(signed, { arrayStyle: settings.arrayStyle });
	if (ambiguity !== undefined) {
		throw new UserError(`HaiPay: "${ambiguity.field}" holds "${ambiguity.character}", which would let the signature stand for other fields: nothing was signed or sent.`);
	}
	signed.sign = await signBodyAsync(signed, settings.secretKey, privateKey, { arrayStyle: settings.arrayStyle });
	return {
		...requestOptions,
		baseURL: requestOptions.baseURL || settings.baseUrl,
		headers: { ...requestOptions.headers, 'Content-Type': 'application/json' },
		body: signed,
		json: requestOptions.json ?? true,
	};
}
