import type { IDataObject } from 'n8n-workflow';

import type { OrderKind } from '../../shared/contract/statuses';
import { lookupCashierOrder } from '../../shared/gateway/cashierLookup';
import { lookupOrder } from '../../shared/gateway/lookup';
import { gatewayText } from '../../shared/gateway/outcome';
import { lookupRefund } from '../../shared/gateway/refundLookup';
import { lookupSubscription } from '../../shared/gateway/subscriptionLookup';
import { CANCELLED_STATUS } from '../../shared/contract/rules/subscription';
import { compareDecimal } from '../validation/amount';
import { dataItem, refundItem } from './present';
import type { Judged, Prepared, Settlement } from './types';
import { exactText } from '../../shared/text';

/**
 * How an open sent-once request is settled by HaiPay's proven answers (execute/resolve.ts): one settlement per thing
 * asked about. A settlement judges what the query shows; the kind's truth table (gateway/kinds.ts) names the outcome.
 */

function plainDecimal(value: unknown): string | undefined {
	const text = typeof value === 'number' ? String(value) : value;
	return typeof text === 'string' && /^\d+(?:\.\d{1,10})?$/.test(text) ? text : undefined;
}

/**
 * A payout or a collection: its order query by orderId; an order for another amount is another request's. A "no such
 * order" counts only where the currency's query publishes that answer (`Prepared.absence`).
 */
export function orderSettlement(kind: OrderKind): Settlement {
	return {
		lookup: async (ctx, signer, prepared, call) =>
			await lookupOrder(
				ctx,
				signer,
				{ kind, currency: prepared.currency, orderId: prepared.orderId, absence: prepared.absence },
				call,
			),
		judge(data, prepared): Judged {
			const theirs = plainDecimal(data.amount);
			const ours = plainDecimal(prepared.body.amount);
			if (theirs === undefined || ours === undefined || compareDecimal(theirs, ours) === 0) return { verdict: 'done' };
			return {
				verdict: 'other',
				why: `HaiPay has an order with this orderId for the amount ${gatewayText(theirs)}, not ${ours}: it was made by another request, and this one created nothing`,
			};
		},
		item: (data, prepared, outcome): IDataObject =>
			dataItem({ type: 'data', data, verification: 'verified' }, prepared, kind, { outcome, resolvedBy: 'query' }),
	};
}

/**
 * A card refund: its refund query by the refund ID (`/usd/refund/refundQuery`). A refund of another payment under the
 * same refund ID is another request's. HaiPay's query answers with the payment's orderNo, as its apply does; an answer
 * without one does not show whose refund it is, so it settles nothing and is asked again (then unknown), never taken
 * as this refund. HaiPay publishes no "no such refund" answer, so a refund is never found absent: one that no proven
 * answer shows stays unknown, and is never sent again.
 */
export const refundSettlement: Settlement = {
	lookup: async (ctx, signer, prepared, call) => ({
		found: true,
		data: await lookupRefund(ctx, signer, { orderId: prepared.orderId }, call),
	}),
	judge(data, prepared): Judged {
		const theirs = exactText(data.orderNo);
		const ours = exactText(prepared.body.orderNo);
		if (theirs === ours) return { verdict: 'done' };
		if (theirs === '')
			return {
				verdict: 'pending',
				why: `HaiPay shows a refund with this Refund ID but names no collection (orderNo), so it does not show a refund of ${ours}`,
			};
		return {
			verdict: 'other',
			why: `HaiPay has a refund with this Refund ID for the collection ${gatewayText(theirs)}, not ${ours}: it was made by another request, and this one created nothing`,
		};
	},
	item: (data, prepared, outcome): IDataObject =>
		refundItem({ type: 'data', data, verification: 'verified' }, prepared, { outcome, resolvedBy: 'query' }),
};

/**
 * A subscription's create: its query by the subscriptionOrderId. One for another amount is another request's.
 * HaiPay publishes no "no such subscription" answer: an open create that no proven answer shows stays unknown.
 */
export const subscriptionSettlement: Settlement = {
	lookup: async (ctx, signer, prepared, call) => ({
		found: true,
		data: await lookupSubscription(ctx, signer, { subscriptionOrderId: prepared.orderId }, call),
	}),
	judge(data, prepared): Judged {
		const theirs = plainDecimal(data.amount);
		const ours = plainDecimal(prepared.body.amount);
		if (theirs === undefined || ours === undefined || compareDecimal(theirs, ours) === 0) return { verdict: 'done' };
		return {
			verdict: 'other',
			why: `HaiPay has a subscription with this subscriptionOrderId for the amount ${gatewayText(theirs)}, not ${ours}: it was made by another request, and this one created nothing`,
		};
	},
	item: (data, prepared, outcome): IDataObject =>
		refundItem({ type: 'data', data, verification: 'verified' }, prepared, { outcome, resolvedBy: 'query' }),
};

/**
 * A subscription's cancel: its query by the subscriptionNo. Finding the subscription proves nothing; only the state
 * the cancel page answers with (CANCELLED_STATUS) shows the cancel. No page names a state a cancel cannot leave, so
 * nothing is judged `refused`: a subscription found in any other state is `pending`, asked again, then unknown.
 */
export const cancelSettlement: Settlement = {
	lookup: async (ctx, signer, prepared, call) => ({
		found: true,
		data: await lookupSubscription(ctx, signer, { subscriptionNo: prepared.orderId }, call),
	}),
	judge(data): Judged {
		if (exactText(data.status) === CANCELLED_STATUS) return { verdict: 'done' };
		return {
			verdict: 'pending',
			why: `HaiPay shows the subscription in status ${gatewayText(exactText(data.status)) || '(none)'}, not cancelled (${CANCELLED_STATUS})`,
		};
	},
	item: (data, prepared, outcome): IDataObject =>
		refundItem({ type: 'data', data, verification: 'verified' }, prepared, { outcome, resolvedBy: 'query' }),
};

/** The orderNo of HaiPay's signed answer to this create, when that answer named the create's own orderId. */
function signedOrderNo(prepared: Prepared): string {
	const data = prepared.signedData;
	if (data === undefined || exactText(data.orderId) !== prepared.orderId) return '';
	return exactText(data.orderNo);
}

/**
 * A global cashier order: its query (`/global/cashier/collect/query`) requires the orderNo as well as the orderId, so
 * only a create whose signed answer named its orderNo can be asked about. No page publishes the query's answer for an
 * order HaiPay does not have: a status 3 without an order proves nothing, and no cashier order is ever `not_found`.
 */
export const cashierSettlement: Settlement = {
	unaskable(prepared) {
		if (signedOrderNo(prepared) !== '') return undefined;
		return "HaiPay's cashier query needs the order's orderNo as well as its orderId, and no signed answer of HaiPay's gave this order's orderNo";
	},
	async lookup(ctx, signer, prepared, call) {
		return {
			found: true,
			data: await lookupCashierOrder(
				ctx,
				signer,
				{ orderId: prepared.orderId, orderNo: signedOrderNo(prepared) },
				call,
			),
		};
	},
	judge: (data, prepared) => orderSettlement('collection').judge(data, prepared),
	item: (data, prepared, outcome) => orderSettlement('collection').item(data, prepared, outcome),
};
