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
