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
