import { MIT_RULES } from './rules/collection';
import { COIN_COLLECTION_RULES } from './rules/coinCollection';
import { LOCAL_COLLECTION_RULES } from './rules/localCollection';
import { PAYOUT_RULES } from './rules/payout';
import type { RequestRules } from './rules/types';
import type { OrderKind } from './statuses';

/** The creates whose orders each order query shows: payouts for the payout query, collections for the collection query. */
const CREATES: Record<OrderKind, ReadonlyArray<Partial<Record<string, RequestRules>>>> = {
	payout: [PAYOUT_RULES],
	collection: [{ USD: MIT_RULES }, LOCAL_COLLECTION_RULES, COIN_COLLECTION_RULES],
};

/**
 * Whether the order query of `kind` in `currency` publishes a "no such order" answer. Contract §4.7 publishes one
 * (status 3, no order) for the currencies it covers, and a currency with no rules here is one of those; a currency
 * whose page publishes none (rules `queryShowsAbsence: false`: USDT, KRW ...) never has an order found absent, by the
 * node's settlement or by the trigger's Confirm With HaiPay alike.
 */
export function queryShowsAbsence(kind: OrderKind, currency: string): boolean {
	const code = currency.toUpperCase();
	return CREATES[kind].every((rules) => rules[code]?.queryShowsAbsence !== false);
}
