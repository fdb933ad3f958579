import { createHash, type KeyObject } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import { appFieldNames, appsLacking, appsOf, OTHER_CURRENCIES_FIELD, type HaiPayApp } from './apps';
import type { ArrayStyle } from './canonical';
import { parsePrivateKey, parsePublicKey } from './keys';
import { trimmedText } from '../text';

export const SANDBOX_URL = 'https://uat-interface.haipay.asia';
export const PRODUCTION_URL = 'https://interface.haipay.asia';

/** The path prefix that is no currency's nor any product's: the voucher endpoint serves every appId. */
const CURRENCY_NEUTRAL = 'COMMON';

/**
 * The first segments of paths (upper-cased) that name no currency, as the product modules declare them
 * (products/index.ts `PATH_SIGNERS`), each with the App ID that signs it: a product's own (the cashier's), or '' where
 * any App ID may, the one the body's appId names, else the first.
 */
export type PathSigners = ReadonlyMap<string, string>;

/** The marker the credential test puts in its path when no currency is set, so the test can say what is missing. */
const NO_CURRENCY_SEGMENT = '-';

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

/**
 * A credential as the nodes use it. `appId`, `currency` and `secretKey` are those of the App ID in use: the first
 * one for the credential as a whole, the currency's own in the view `signerFor` or `signerOfAppId` gives.
 */
export interface HaiPaySettings {
	baseUrl: string;
	appId: number;
	/** Upper-case ISO code the appId belongs to, or '' when the merchant left it unset. */
	currency: string;
	secretKey: string;
	/** Every App ID the credential holds, the first one first. */
	readonly apps: readonly HaiPayApp[];
	/** Every secret key the credential holds: none of them may reach an output, whichever App ID was in use. */
	readonly secrets: readonly string[];
	privateKey: string;
	haipayPublicKey: string;
	arrayStyle: ArrayStyle;
	/** The notifyUrl a create sends when its item gives none, or '' (the HaiPay Trigger's Production URL, as a rule). */
	defaultNotifyUrl: string;
	readonly keys: ParsedKeys;
	/** What the credential lacks before it can sign anything, found once when the settings are derived. */
	readonly lacking?: string;
}

export function settingsOf(credentials: ICredentialDataDecryptedObject): HaiPaySettings {
	const environment = trimmedText(credentials.environment) || 'sandbox';
	const baseUrl =
		environment === 'production'
			? trimmedText(credentials.productionUrl) || PRODUCTION_URL
			: environment === 'custom'
				? trimmedText(credentials.baseUrl)
				: SANDBOX_URL;
	const privateKey = trimmedText(credentials.privateKey);
	const haipayPublicKey = trimmedText(credentials.haipayPublicKey);
	const apps = appsOf(credentials);
	const fields = {
		baseUrl: baseUrl.replace(/\/+$/, ''),
		...apps[0],
		privateKey,
		haipayPublicKey,
		arrayStyle: (credentials.arrayStyle === 'list' ? 'list' : 'json') as ArrayStyle,
		defaultNotifyUrl: trimmedText(credentials.defaultNotifyUrl),
	};
	const secrets = apps.map((app) => app.secretKey).filter((secret) => secret !== '');
	const lacking = lackingOf(fields) ?? appsLacking(apps);
	return { ...fields, apps, secrets, keys: new ParsedKeys(privateKey, haipayPublicKey), lacking };
}

/** What a credential lacks before it can sign: checked once per credential, not once per request. */
function lackingOf(
	settings: Pick<HaiPaySettings, 'appId' | 'baseUrl' | 'secretKey' | 'privateKey'>,
): string | undefined {
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
const SETTING_FIELDS = [
	'environment',
	'productionUrl',
	'baseUrl',
	'appId',
	'currency',
	'secretKey',
	'privateKey',
	'haipayPublicKey',
	'arrayStyle',
	'defaultNotifyUrl',
	OTHER_CURRENCIES_FIELD,
];

/** The fields settings are read from: the fixed ones and those of each currency listed under Other Currencies. */
function settingFields(credentials: ICredentialDataDecryptedObject): string[] {
	const listed = appsOf(credentials).slice(1);
	return [...SETTING_FIELDS, ...listed.flatMap((app) => Object.values(appFieldNames(app.currency)))];
}

/** JSON keeps every value apart from the next, so no two different credentials can share a digest input. */
function digestOf(credentials: ICredentialDataDecryptedObject): string {
	const values = settingFields(credentials).map((name) => credentials[name] ?? null);
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
function currencyOfPath(url: string): string {
	const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '');
	return (path.split('/').find((segment) => segment !== '') ?? '').toUpperCase();
}

/** The settings as seen through one of the credential's App IDs, made once per App ID and kept with the settings. */
const views = new WeakMap<HaiPaySettings, Map<number, HaiPaySettings>>();

function through(settings: HaiPaySettings, app: HaiPayApp): HaiPaySettings {
	if (app.appId === settings.appId && app.currency === settings.currency) return settings;
	let known = views.get(settings);
	if (known === undefined) views.set(settings, (known = new Map()));
	let view = known.get(app.appId);
	if (view === undefined) known.set(app.appId, (view = { ...settings, ...app }));
	return view;
}

/** Whether an appId, as a number or the digits of one, names this App ID. */
function isAppIdOf(value: unknown, app: HaiPayApp): boolean {
	if (typeof value === 'number') return value === app.appId;
	return typeof value === 'string' && /^\d+$/.test(value.trim()) && Number(value.trim()) === app.appId;
}

/** The settings of the credential's App ID that a callback or answer names, or undefined when none has that appId. */
export function signerOfAppId(settings: HaiPaySettings, appId: unknown): HaiPaySettings | undefined {
	const app = settings.apps.find((candidate) => isAppIdOf(appId, candidate));
	return app === undefined ? undefined : through(settings, app);
}

function heldCurrencies(settings: HaiPaySettings): string {
	return settings.apps.map((app) => `${app.currency} (App ID ${app.appId})`).join(', ');
}

/**
 * The credential's settings for a request to `url`, seen through the App ID that signs it: the one of the path's
 * currency; on a path of every currency (the voucher), the App ID `appId` names when the credential holds it, else
 * the first. A single App ID without a currency signs everything, as before currencies could be named. Checks
 * that need no network: a misconfigured credential fails here, before anything is signed or sent.
 */
export function signerFor(
	settings: HaiPaySettings,
	url: string,
	signers: PathSigners,
	appId?: unknown,
): HaiPaySettings {
	if (settings.lacking !== undefined) throw new UserError(settings.lacking);
	const pathCurrency = currencyOfPath(url);
	if (pathCurrency === NO_CURRENCY_SEGMENT) {
		throw new UserError(
			"To test this credential, set its Currency: HaiPay issues each App ID for one currency, and the test reads that currency's balance.",
		);
	}
	const signer = signers.get(pathCurrency);
	if (pathCurrency === CURRENCY_NEUTRAL || signer === '') return signerOfAppId(settings, appId) ?? settings;
	if (settings.apps.length === 1 && settings.currency === '') return settings;
	return signerOfCurrency(settings, signer ?? pathCurrency);
}

/** The App ID of one currency (or product, CASHIER), or why the credential cannot sign for it. */
function signerOfCurrency(settings: HaiPaySettings, pathCurrency: string): HaiPaySettings {
	const app = settings.apps.find((candidate) => candidate.currency === pathCurrency);
	if (app !== undefined) return through(settings, app);
	if (settings.apps.length === 1) {
		throw new UserError(
			`This HaiPay credential is for ${settings.currency} (App ID ${settings.appId}), but the operation is in ${pathCurrency}. ` +
				`Use a credential whose App ID belongs to ${pathCurrency}, or add ${pathCurrency} under its Other Currencies: nothing was sent.`,
		);
	}
	throw new UserError(
		`This HaiPay credential holds App IDs for ${heldCurrencies(settings)}, but the operation is in ${pathCurrency}. ` +
			`Add ${pathCurrency}'s App ID and secret key under its Other Currencies: nothing was sent.`,
	);
}
