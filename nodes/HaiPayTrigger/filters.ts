import { statusGroup } from '../shared/contract/statuses';
import { shown } from './reply';

/** What the node is told the callbacks at its URL are: HaiPay's callback body does not say. */
export type KindSetting = 'payout' | 'collection' | 'either';

/** The kind put on an output item: the configured one, or what the body proves when the node takes either. */
export type OutputKind = 'payout' | 'collection' | 'unknown';

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
export function isCollectionEvidently(body: Record<string, unknown>): boolean {
	return present(body.tokenID) || present(body.tokenId) || statusGroup(body.status) === 'partial';
}

export function kindOf(body: Record<string, unknown>, setting: KindSetting): OutputKind {
	if (setting !== 'either') return setting;
	return isCollectionEvidently(body) ? 'collection' : 'unknown';
}

function statusChoiceOf(status: unknown): StatusChoice {
	const group = statusGroup(status);
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
	if (filters.kind === 'payout' && isCollectionEvidently(body)) {
		return 'it is a collection callback (it carries a card token or a partial/over-collected status) and this trigger takes payouts only';
	}
	const statuses = filters.statuses;
	if (statuses.length > 0 && !statuses.includes('any')) {
		const choice = statusChoiceOf(body.status);
		if (!statuses.includes(choice)) return `its status (${shown(body.status)}) is not one of the selected statuses`;
	}
	if (filters.currency !== '') {
		// The appId already matched the credential's, and HaiPay issues one appId per currency.
		const received = typeof body.currency === 'string' && body.currency.trim() !== '' ? body.currency : credentialCurrency;
		const currency = received.trim().toUpperCase();
		if (currency === '') return `its currency is unknown (no currency field, and the credential has no currency set) and the trigger takes ${filters.currency} only`;
		if (currency !== filters.currency) return `its currency ${shown(currency)} is not ${filters.currency}`;
	}
	return undefined;
}
