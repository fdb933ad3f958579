import type { IDataObject } from 'n8n-workflow';

import type { OrderKind } from '../../shared/contract/statuses';
import { lookupOrder } from '../../shared/gateway/lookup';
import { gatewayText } from '../../shared/gateway/outcome';
import { PRODUCTS } from '../../shared/products';
import { lookupCashierOrder } from '../../shared/products/cashier';
import { judge } from '../../shared/products/judge';
import { lookupRefund } from '../../shared/products/refund';
import { lookupSubscription } from '../../shared/products/subscription';
import type { ProductName } from '../../shared/products/types';
import { exactText } from '../../shared/text';
import { askedOf } from './asked';
import { existingOrder } from './existingOrder';
import { dataItem, refundItem } from './present';
import type { Judged, Prepared, Settlement } from './types';

/**
 * How an open sent-once request is settled by HaiPay's proven answers (execute/resolve.ts): each product's query,
 * and the product's one judge (shared/products/judge.ts) of what it shows. A dispatcher: what an answer means is
 * the judge's, what each verdict is called is the kind's truth table (gateway/kinds.ts).
 */

/** The product judge's word on a query answer, as a settlement's verdict: `unknown` is asked again, never concluded. */
function judged(name: ProductName, data: IDataObject, prepared: Prepared): Judged {
	const product = PRODUCTS[name];
	const judgement = judge(product, data, askedOf(prepared, product));
	if (judgement.verdict === 'other') return { verdict: 'other', why: judgement.why };
	if (judgement.verdict === 'unknown')
		return { verdict: 'pending', why: `HaiPay's answer settles nothing: ${judgement.why}` };
	if (product.shows !== undefined && !product.shows(data))
		return {
			verdict: 'pending',
			why: `HaiPay shows it in status ${gatewayText(exactText(data.status)) || '(none)'}, which does not show the ${product.makes}`,
		};
	return { verdict: 'done' };
}

/** A payout or a collection: its order query by orderId, "no such order" only where its currency publishes one. */
function orderSettlement(kind: OrderKind, name: ProductName): Settlement {
	return {
		lookup: async (ctx, signer, prepared, call) =>
			await lookupOrder(
				ctx,
				signer,
				{ kind, currency: prepared.currency, orderId: prepared.orderId, absence: prepared.absence },
				call,
			),
		judge: (data, prepared) => judged(name, data, prepared),
		existing: (data) => existingOrder(data, kind),
		item: (data, prepared, outcome): IDataObject =>
			dataItem({ type: 'data', data, verification: 'verified' }, prepared, kind, { outcome, resolvedBy: 'query' }),
	};
}

/** What a settlement shows of a query answer that is no order (a refund, a subscription): HaiPay's data as sent. */
function shownAsSent(data: IDataObject, prepared: Prepared, outcome: string): IDataObject {
	return refundItem({ type: 'data', data, verification: 'verified' }, prepared, { outcome, resolvedBy: 'query' });
}

/**
 * A card refund: its refund query by the refund ID. HaiPay publishes no "no such refund" answer, so a refund is
 * never found absent: one that no proven answer shows stays unknown, and is never sent again.
 */
const refundSettlement: Settlement = {
	lookup: async (ctx, signer, prepared, call) => ({
		found: true,
		data: await lookupRefund(ctx, signer, { orderId: prepared.orderId }, call),
	}),
	judge: (data, prepared) => judged('refund', data, prepared),
	item: shownAsSent,
};

/** A subscription's create or cancel: its query by subscriptionOrderId or subscriptionNo; never found absent. */
function subscriptionSettlement(name: 'subscription' | 'cancellation'): Settlement {
	const key = name === 'subscription' ? 'subscriptionOrderId' : 'subscriptionNo';
	return {
		lookup: async (ctx, signer, prepared, call) => ({
			found: true,
			data: await lookupSubscription(ctx, signer, { [key]: prepared.orderId }, call),
		}),
		judge: (data, prepared) => judged(name, data, prepared),
		item: shownAsSent,
	};
}

/** The orderNo of HaiPay's signed answer to this create, when that answer named the create's own orderId. */
function signedOrderNo(prepared: Prepared): string {
	const data = prepared.signedData;
	if (data === undefined || exactText(data.orderId) !== prepared.orderId) return '';
	return exactText(data.orderNo);
}

/**
 * A global cashier order: its query requires the orderNo as well as the orderId, so only a create whose signed
 * answer named its orderNo can be asked about. No page publishes the query's answer for an order HaiPay does not
 * have: no cashier order is ever `not_found`.
 */
const cashierSettlement: Settlement = {
	...orderSettlement('collection', 'cashierOrder'),
	unaskable(prepared) {
		if (signedOrderNo(prepared) !== '') return undefined;
		return "HaiPay's cashier query needs the order's orderNo as well as its orderId, and no signed answer of HaiPay's gave this order's orderNo";
	},
	async lookup(ctx, signer, prepared, call) {
		const ref = { orderId: prepared.orderId, orderNo: signedOrderNo(prepared) };
		return { found: true, data: await lookupCashierOrder(ctx, signer, ref, call) };
	},
};

/** Every product's settlement, by the name its endpoint declares. */
export const SETTLEMENTS: Record<ProductName, Settlement> = {
	payoutOrder: orderSettlement('payout', 'payoutOrder'),
	collectionOrder: orderSettlement('collection', 'collectionOrder'),
	refund: refundSettlement,
	subscription: subscriptionSettlement('subscription'),
	cancellation: subscriptionSettlement('cancellation'),
	cashierOrder: cashierSettlement,
};
