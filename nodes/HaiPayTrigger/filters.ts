import { statusGroup } from '../shared/contract/statuses';
import { isProductApp, NAMED_BY_CALLBACK, namedProductOfKind, PRODUCT_APPS, type NamedKind } from '../shared/products';
import { shown } from './shown';

/**
 * What the node is told the callbacks at its URL are: HaiPay's callback body does not say. A product a callback names
 * by a member of its own (products/index.ts `NAMED_BY_CALLBACK`: a subscription's charge) is a kind of its own.
 */
export type KindSetting = 'payout' | 'collection' | NamedKind | 'either';

/**
 * The kind put on an output item: the configured one, or what the body proves when the node takes either. A
 * refund-shaped callback (it names a `refundNo`) is a `refund` whatever the setting: HaiPay documents no refund
 * callback (docs/haipay-facts.md, "Card refunds"), so such a body is never reported as a payment.
 */
export type CallbackKind = 'payout' | 'collection' | 'refund' | NamedKind | 'unknown';

export type StatusChoice = 'any' | 'success' | 'failed' | 'partial' | 'other';

export interface TriggerFilters {
	kind: KindSetting;
	statuses: StatusChoice[];
	/** Upper-case ISO code, or '' for any currency. */
	currency: string;
}

function present(value: unknown): boolean {
	return value !== undefined && value !== null && String(value).trim() !== '';
}

/**
 * Only a collection carries a card token or ends partially or over-collected (docs/haipay-facts.md, "Order status
 * values"); nothing in a body proves it is a payout.
 */
function isCollectionEvidently(body: Record<string, unknown>): boolean {
	return present(body.tokenID) || present(body.tokenId) || statusGroup(body.status) === 'partial';
}

/** A body that names a refund: the refund API's own number, which no payout or collection result carries. */
function isRefundEvidently(body: Record<string, unknown>): boolean {
	return present(body.refundNo);
}

/** The product a body names by a member of its own (a subscription's charge, by its subscriptionNo), or undefined. */
function namedProductOf(body: Record<string, unknown>): (typeof NAMED_BY_CALLBACK)[number] | undefined {
	return NAMED_BY_CALLBACK.find((product) => present(body[product.callback.member]));
}

/** Whether a kind is that of a product a callback names by a member of its own. */
export function isNamedKind(kind: string): boolean {
	return namedProductOfKind(kind) !== undefined;
}

/**
 * A callback HaiPay signed with a product's own App ID (the Cashier App ID: the global cashier makes collections only,
 * docs/haipay-facts.md, "Global cashier collections"). The App ID it names says so, never the body's `currency`: no
 * page says whether a cashier callback's currency is the transaction's or CASHIER, and a callback of another App ID
 * may name CASHIER there.
 */
function isProductAppOf(app: string | undefined): boolean {
	return app !== undefined && isProductApp(app);
}

/** `app`: the currency of the credential's App ID that the callback's appId named (signing/apps.ts, a product's own). */
export function kindOf(body: Record<string, unknown>, setting: KindSetting, app?: string): CallbackKind {
	if (isRefundEvidently(body)) return 'refund';
	const named = namedProductOf(body);
	if (named !== undefined) return named.callback.kind;
	if (isNamedKind(setting)) return 'unknown';
	if (isProductAppOf(app)) return 'collection';
	if (setting !== 'either') return setting;
	return isCollectionEvidently(body) ? 'collection' : 'unknown';
}

function statusChoiceOf(body: Record<string, unknown>): StatusChoice {
	// Refund status values are not published: whatever they hold, none is a payment status. A product a callback names
	// by a member of its own (a subscription's charge) reads its status as its orderKind's (item.ts).
	if (isRefundEvidently(body)) return 'other';
	const group = statusGroup(body.status);
	return group === 'success' || group === 'failed' || group === 'partial' ? group : 'other';
}

/**
 * Why a verified callback is not emitted, or undefined when it passes. An empty status selection is read as
 * "any", because a trigger that silently drops every callback is never what was meant.
 */
export function filteredOutBy(
	body: Record<string, unknown>,
	filters: TriggerFilters,
	credentialCurrency: string,
): string | undefined {
	if (filters.kind === 'payout' && isRefundEvidently(body)) {
		return 'it names a refund (refundNo), not a payout, and this trigger takes payouts only';
	}
	const named = namedProductOf(body)?.callback;
	if (filters.kind === 'payout' && named !== undefined) {
		return `it names a ${named.noun} (${named.member}), ${named.what}, and this trigger takes payouts only`;
	}
	const wanted = namedProductOfKind(filters.kind)?.callback;
	if (wanted !== undefined && !present(body[wanted.member])) {
		return `it names no ${wanted.noun} (${wanted.member}), and this trigger takes ${wanted.noun} results only`;
	}
	if (filters.kind === 'payout' && isProductAppOf(credentialCurrency)) {
		return `it is signed with the ${PRODUCT_APPS[credentialCurrency ?? '']} App ID (${credentialCurrency ?? ''}), whose callbacks are collections, and this trigger takes payouts only`;
	}
	if (filters.kind === 'payout' && isCollectionEvidently(body)) {
		return 'it is a collection callback (it carries a card token or a partial/over-collected status) and this trigger takes payouts only';
	}
	const statuses = filters.statuses;
	if (statuses.length > 0 && !statuses.includes('any')) {
		const choice = statusChoiceOf(body);
		if (!statuses.includes(choice)) return `its status (${shown(body.status)}) is not one of the selected statuses`;
	}
	if (filters.currency !== '') return currencyFilteredOut(body, filters.currency, credentialCurrency);
	return undefined;
}

/**
 * The currency filter. A product's App ID (CASHIER) is chosen by the App ID the callback names alone: no page says
 * what a cashier callback's `currency` holds, and a callback of another App ID that names CASHIER is not one.
 */
function currencyFilteredOut(
	body: Record<string, unknown>,
	wanted: string,
	credentialCurrency: string,
): string | undefined {
	if (isProductApp(wanted) || isProductApp(credentialCurrency)) {
		if (credentialCurrency === wanted) return undefined;
		return `its appId is the credential's ${credentialCurrency === '' ? 'first' : shown(credentialCurrency)} App ID, and the trigger takes the ${wanted} App ID's callbacks only`;
	}
	// The appId already matched the credential's, and HaiPay issues one appId per currency.
	const received =
		typeof body.currency === 'string' && body.currency.trim() !== '' ? body.currency : credentialCurrency;
	const currency = received.trim().toUpperCase();
	if (currency === '')
		return `its currency is unknown (no currency field, and the credential has no currency set) and the trigger takes ${wanted} only`;
	if (currency !== wanted) return `its currency ${shown(currency)} is not ${wanted}`;
	return undefined;
}
