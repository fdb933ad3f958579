import type { OrderKind } from './statuses';

/** Where each endpoint lives: the currency is the path's prefix (docs/contract.md §1, rule 2). */

export function applyPath(currency: string): string {
	return `/${currency.toLowerCase()}/pay/apply`;
}

export const MIT_APPLY_PATH = '/usd/mit/apply';

export function queryPath(kind: OrderKind, currency: string): string {
	return `/${currency.toLowerCase()}/${kind === 'payout' ? 'pay' : 'collect'}/query`;
}

export function balancePath(currency: string): string {
	return `/${currency.toLowerCase()}/account/ledger`;
}

/** Vouchers belong to no currency: every appId uses the same path. */
export const VOUCHER_PATH = '/common/voucher/pdf';

/** A collection in a local currency (docs/haipay-facts.md, "Local-currency collections"): `/brl/collect/apply`. */
export function collectApplyPath(currency: string): string {
	return `/${currency.toLowerCase()}/collect/apply`;
}

/** Card refunds belong to the USD card collections (docs/haipay-facts.md, "Card refunds"). */
export const REFUND_APPLY_PATH = '/usd/refund/apply';
export const REFUND_QUERY_PATH = '/usd/refund/refundQuery';

/**
 * Subscriptions (docs/haipay-facts.md, "Subscriptions"): apply and cancel are HaiPay's published paths; the query's
 * path is not in any public copy and follows theirs.
 */
export const SUBSCRIPTION_APPLY_PATH = '/subscription/apply';
export const SUBSCRIPTION_CANCEL_PATH = '/subscription/cancel';
export const SUBSCRIPTION_QUERY_PATH = '/subscription/query';

/**
 * The global cashier (docs/haipay-facts.md, "Global cashier collections") has no currency in its path: its prefix is
 * `global`, and the App ID that signs it is the merchant's Cashier-specific one (signing/apps.ts).
 */
export const CASHIER_APPLY_PATH = '/global/cashier/collect/apply';
export const CASHIER_QUERY_PATH = '/global/cashier/collect/query';
