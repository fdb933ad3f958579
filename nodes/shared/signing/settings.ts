import { createHash, type KeyObject } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import type { ArrayStyle } from './canonical';
import { parsePrivateKey, parsePublicKey } from './keys';

export const SANDBOX_URL = 'https://uat-interface.haipay.asia';
export const PRODUCTION_URL = 'https://interface.haipay.asia';

/** Path prefixes that are not a currency: the voucher endpoint serves every appId. */
const CURRENCY_NEUTRAL = new Set(['common']);

/** The marker the credential test puts in its path when no currency is set, so the test can say what is missing. */
export const NO_CURRENCY_SEGMENT = '-';

/** A credential's keys, each parsed the first time it is needed and kept for as long as the settings live. */
class ParsedKeys {
	private privateKey?: KeyObject;
	private publicKey?: KeyObject;

	constructor(
		private readonly privateText: string,
		private readonly publicText: string,
	) {}

	private(): KeyObject {
		return (this.privateKey ??= parsePrivateKey(this.privateText));
	}

	public(): KeyObject {
		return (this.publicKey ??= parsePublicKey(this.publicText));
	}
}

export interface HaiPaySettings {
	baseUrl: string;
	appId: number;
	/** Upper-case ISO code the appId belongs to, or '' when the merchant left it unset. */
	currency: string;
	secretKey: string;
	privateKey: string;
	haipayPublicKey: string;
	arrayStyle: ArrayStyle;
	readonly keys: ParsedKeys;
	/** What the credential lacks before it can sign anything, found once when the settings are derived. */
	readonly lacking?: string;
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
	const privateKey = text(credentials.privateKey);
	const haipayPublicKey = text(credentials.haipayPublicKey);
	const fields = {
		baseUrl: baseUrl.replace(/\/+$/, ''),
		appId: Number(credentials.appId),
		currency: text(credentials.currency).toUpperCase(),
		secretKey: text(credentials.secretKey),
		privateKey,
		haipayPublicKey,
		arrayStyle: (credentials.arrayStyle === 'list' ? 'list' : 'json') as ArrayStyle,
	};
	return { ...fields, keys: new ParsedKeys(privateKey, haipayPublicKey), lacking: lackingOf(fields) };
}

/** What a credential lacks before it can sign: checked once per credential, not once per request. */
function lackingOf(settings: Pick<HaiPaySettings, 'appId' | 'baseUrl' | 'secretKey' | 'privateKey'>): string | undefined {
	if (!Number.isSafeInteger(settings.appId) || settings.appId <= 0) {
		return 'The HaiPay credential needs an App ID: the whole number shown in the merchant backend.';
	}
	if (settings.baseUrl === '' || !/^https?:\/\/[^/\s]+/i.test(settings.baseUrl)) {
		return 'The HaiPay credential needs a base URL that starts with http:// or https://.';
	}
	if (settings.secretKey === '') return 'The HaiPay credential needs its secret key.';
	if (settings.privateKey === '') return 'The HaiPay credential needs the merchant private key.';
	return undefined;
}

/*
 * The one memo of a credential: its settings, and with them its parsed keys. A bulk run signs thousands of bodies
 * and a trigger verifies every callback with the same keys, and parsing a key costs far more than a signature.
 * n8n may hand over a fresh copy of the credential for each request, so the memo is keyed by a digest of the
 * fields the settings come from rather than by the object, and the key text itself is never kept as a map key.
 */
const memo = new Map<string, HaiPaySettings>();
const MEMO_LIMIT = 32;

/** The credential fields settings are derived from: nothing else can change them. */
const SETTING_FIELDS = ['environment', 'productionUrl', 'baseUrl', 'appId', 'currency', 'secretKey', 'privateKey', 'haipayPublicKey', 'arrayStyle'];

/** JSON keeps every value apart from the next, so no two different credentials can share a digest input. */
function digestOf(credentials: ICredentialDataDecryptedObject): string {
	const values = SETTING_FIELDS.map((name) => credentials[name] ?? null);
	return createHash('sha256').update(JSON.stringify(values)).digest('hex');
}

export function settingsFor(credentials: ICredentialDataDecryptedObject): HaiPaySettings {
	const id = digestOf(credentials);
	const known = memo.get(id);
	if (known !== undefined) return known;
	const settings = settingsOf(credentials);
	if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
	memo.set(id, settings);
	return settings;
}

export function privateKeyOf(settings: HaiPaySettings): KeyObject {
	return settings.keys.private();
}

export function publicKeyOf(settings: HaiPaySettings): KeyObject {
	return settings.keys.public();
}

/** The currency segment of a gateway path such as `/tzs/pay/apply`, upper-cased. */
export function currencyOfPath(url: string): string {
	const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '');
	return (path.split('/').find((segment) => segment !== '') ?? '').toUpperCase();
}

/** Checks that need no network: a misconfigured credential fails here, before anything is signed or sent. */
export function assertUsable(settings: HaiPaySettings, url: string): void {
	if (settings.lacking !== undefined) throw new UserError(settings.lacking);
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
