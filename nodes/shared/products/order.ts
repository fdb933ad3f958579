import type { OrderKind } from '../contract/statuses';
import { lookupOrder } from '../gateway/lookup';
import type { Product, ProductQuery, State } from './types';

/*
 * Payout and collection orders of every currency (docs/contract.md §2.1, §4.7; docs/haipay-facts.md, "Order status
 * values"): the merchant's orderId, HaiPay's orderNo, an integer status. A create's answer (orderId, orderNo, and
 * per rail payUrl, qrCode, bankNo ...) states no status; one that does may carry only a status of an order on its
 * way or paid, never 3, which is both "failed" and HaiPay's "no such order".
 */

/** Not started, processing: the states before a final one HaiPay publishes for payouts (0 and 1 by analogy). */
const PAYOUT_STATUSES: Record<string, State> = { '0': 'pending', '1': 'pending', '2': 'done', '3': 'failed' };

/** Collections add partly and over-collected (final) and abnormal, awaiting confirmation. */
const COLLECTION_STATUSES: Record<string, State> = { ...PAYOUT_STATUSES, '4': 'done', '5': 'done', '-1': 'pending' };

/** The statuses an order create's answer may carry and still be an acceptance: not started, processing, paid. */
const TAKEN = ['0', '1', '2'];

const ORDER = { makes: 'order', ownMember: 'orderId', ownIdName: 'orderId', identifier: 'orderNo', acceptable: TAKEN };

/** The order query of its kind and currency (`/{ccy}/pay/query`, `/{ccy}/collect/query`), by orderId and orderNo. */
function orderQuery(kind: OrderKind): ProductQuery {
	return {
		ask: async (ctx, settings, ref, options) =>
			await lookupOrder(
				ctx,
				settings,
				{ kind, currency: ref.currency, orderId: ref.ownId, orderNo: ref.number, absence: ref.absence },
				options,
			),
	};
}

export const PAYOUT_ORDER: Product = {
	...ORDER,
	statuses: PAYOUT_STATUSES,
	orderKind: 'payout',
	query: orderQuery('payout'),
};
export const COLLECTION_ORDER: Product = {
	...ORDER,
	statuses: COLLECTION_STATUSES,
	orderKind: 'collection',
	query: orderQuery('collection'),
};
