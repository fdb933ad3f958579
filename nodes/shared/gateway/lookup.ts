import type { IDataObject } from 'n8n-workflow';

import { ItemFailure, gatewayText } from './outcome';
import { callGateway, type CallOptions, type GatewayContext } from './request';
import type { HaiPaySettings } from '../signing/credential';
import { queryShowsAbsence } from '../contract/absence';
import { queryPath } from '../contract/paths';
import { exactStatus, type OrderKind } from '../contract/statuses';
import { exactText } from '../text';

/** One order to ask HaiPay about: by orderNo (faster), by orderId, or both. */
interface OrderRef {
	kind: OrderKind;
	/** Upper-case ISO code of the order's currency. */
	currency: string;
	orderId?: string;
	orderNo?: string;
	/**
	 * Whether this query publishes a "no such order" answer (contract §4.7: status 3 and no order). Where it does not
	 * (false), such an answer proves nothing, and the lookup fails as unproven instead of finding the order absent.
	 * Unset, the currency's rules say (contract/absence.ts), so that no caller can forget it.
	 */
	absence?: boolean;
}

/**
 * What HaiPay says of one order, once its answer is proven: signed by HaiPay, and naming the order asked for.
 * `found: false` is HaiPay's "no such order" (see `isNotFound`).
 */
export type LookupResult = { found: true; data: IDataObject } | { found: false; errorMsg: string };

/**
 * Why an answer's data is not about the order asked for, or undefined when it is. A member that is present and
 * non-empty must equal what was asked; an answer that names an order must name it by what was asked. Used for the
 * Get operations, where an answer that names no order is shown as it came.
 */
export function mismatchOf(ref: Pick<OrderRef, 'orderId' | 'orderNo'>, data: IDataObject): string | undefined {
	const orderId = exactText(data.orderId);
	const orderNo = exactText(data.orderNo);
	if (ref.orderId !== undefined && orderId !== '' && orderId !== ref.orderId) {
		return `the answer is about orderId "${gatewayText(orderId)}", not "${ref.orderId}"`;
	}
	if (ref.orderNo !== undefined && orderNo !== '' && orderNo !== ref.orderNo) {
		return `the answer is about orderNo "${gatewayText(orderNo)}", not "${ref.orderNo}"`;
	}
	if (orderNo !== '' && ref.orderNo === undefined && orderId === '') {
		return 'the answer names an order but not by the orderId asked for';
	}
	return undefined;
}

/**
 * HaiPay's answer for an order it does not have (docs/contract.md §4.7): the exact status 3 with a reason, and no
 * order behind it: no order number of HaiPay's, or no amount (an order that exists and failed has both; a query by
 * orderNo may echo the number asked for).
 */
export function isNotFound(data: IDataObject): boolean {
	return exactStatus(data.status) === 3 && (exactText(data.orderNo) === '' || exactText(data.amount) === '');
}

/**
 * Why a lookup answer proves nothing about the order asked for, or undefined when it names it. Stricter than
 * `mismatchOf`, because what a lookup concludes is acted on without a person reading it: the answer must name the
 * order by the orderId asked for (and by the orderNo, when one is known), and an order HaiPay has must carry its
 * orderNo. A signed answer to some other request (a balance, another order, `{amount, status}`) names neither.
 */
export function unproven(
	ref: Pick<OrderRef, 'orderId' | 'orderNo' | 'absence'>,
	data: IDataObject,
): string | undefined {
	const mismatch = mismatchOf(ref, data);
	if (mismatch !== undefined) return mismatch;
	const orderId = exactText(data.orderId);
	const orderNo = exactText(data.orderNo);
	if (ref.orderId !== undefined && orderId !== ref.orderId)
		return `the answer does not name the orderId "${ref.orderId}"`;
	if (ref.orderId === undefined && orderNo !== ref.orderNo)
		return `the answer does not name the orderNo "${ref.orderNo ?? ''}"`;
	if (orderNo !== '') return undefined;
	if (!isNotFound(data)) return 'the answer names no HaiPay order number, so it shows no order';
	if (ref.absence === false) {
		const said = gatewayText(exactText(data.errorMsg));
		return `the answer has status 3 and no HaiPay order number${said === '' ? '' : ` ("${said}")`}, and HaiPay publishes no "no such order" answer for this query, so it proves nothing`;
	}
	return undefined;
}

/**
 * Queries one order and proves the answer is about it. Throws an ItemFailure when no proven answer came:
 * `untrusted` for an answer not signed by HaiPay or not about this order, `unavailable` after the read's retries.
 */
export async function lookupOrder(
	ctx: GatewayContext,
	settings: HaiPaySettings,
	ref: OrderRef,
	options: Omit<CallOptions, 'kind' | 'acceptFile'>,
): Promise<LookupResult> {
	const body: IDataObject = {
		...(ref.orderId !== undefined ? { orderId: ref.orderId } : {}),
		...(ref.orderNo !== undefined ? { orderNo: ref.orderNo } : {}),
	};
	const absence = ref.absence ?? queryShowsAbsence(ref.kind, ref.currency);
	const asked = { ...ref, absence };
	const data = await provenData(
		ctx,
		{ path: queryPath(ref.kind, ref.currency), body, what: 'order' },
		settings,
		options,
		(answer) => unproven(asked, answer),
	);
	// A status 3 that names HaiPay's order is that order failed wherever absence is not published: found, not absent.
	if (absence && isNotFound(data)) return { found: false, errorMsg: exactText(data.errorMsg) };
	return { found: true, data };
}

/** Why a lookup without the HaiPay public key proves nothing. */
function unsignedLookup(what: string): string {
	return `HaiPay's answer to the ${what} query is not signed (the credential has no HaiPay public key), so it proves nothing about the ${what}`;
}

/**
 * One query sent as a read, and the answer's data once it proves itself: a data object, signed by HaiPay, that
 * `unprovenBy` finds about what was asked. Throws an ItemFailure otherwise: `untrusted` for an answer that is not
 * such, `unavailable` after the read's retries, `rejected` for HaiPay's refusal.
 */
export async function provenData(
	ctx: GatewayContext,
	query: { path: string; body: IDataObject; what: string },
	settings: HaiPaySettings,
	options: Omit<CallOptions, 'kind' | 'acceptFile'>,
	unprovenBy: (data: IDataObject) => string | undefined,
): Promise<IDataObject> {
	const answer = await callGateway(ctx, query.path, query.body, settings, { ...options, kind: 'read' });
	if (answer.type !== 'data')
		throw new ItemFailure('untrusted', `HaiPay answered the ${query.what} query without a data object`, {});
	if (answer.verification !== 'verified') throw new ItemFailure('untrusted', unsignedLookup(query.what), {});
	const why = unprovenBy(answer.data);
	if (why !== undefined) throw new ItemFailure('untrusted', `HaiPay's answer could not be trusted: ${why}`, {});
	return answer.data;
}
