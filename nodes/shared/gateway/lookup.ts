import type { IDataObject } from 'n8n-workflow';

import { GatewayFailure, gatewayText } from './outcome';
import { callGateway, type CallOptions, type GatewayContext } from './request';
import type { HaiPaySettings } from '../signing/settings';
import { queryPath } from '../contract/paths';
import type { OrderKind } from '../contract/statuses';
import type { Verification } from '../signing/verification';

/** One order to ask HaiPay about: by orderNo (faster), by orderId, or both. */
export interface OrderRef {
	kind: OrderKind;
	/** Upper-case ISO code of the order's currency. */
	currency: string;
	orderId?: string;
	orderNo?: string;
}

/**
 * What HaiPay says of one order, once its answer is proven to be about that order. `found: false` is HaiPay's
 * "no such order" (see `isNotFound`).
 */
export type LookupResult =
	| { found: true; data: IDataObject; verification: Verification }
	| { found: false; errorMsg: string; verification: Verification };


function text(value: unknown): string {
	return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/**
 * Why an answer's data is not about the order asked for, or undefined when it is. A member that is present and
 * non-empty must equal what was asked; an answer that names an order must name it by what was asked.
 */
export function mismatchOf(ref: Pick<OrderRef, 'orderId' | 'orderNo'>, data: IDataObject): string | undefined {
	const orderId = text(data.orderId);
	const orderNo = text(data.orderNo);
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
 * HaiPay's answer for an order it does not have (docs/contract.md §4.7): status 3 with a reason, and no order behind it: no
 * order number of HaiPay's, or no amount (an order that exists and failed has both; a query by orderNo may echo
 * the number asked for).
 */
export function isNotFound(data: IDataObject): boolean {
	return Number(data.status) === 3 && (text(data.orderNo) === '' || text(data.amount) === '');
}

/**
 * Queries one order and proves the answer is about it. Throws a GatewayFailure when no trusted answer came:
 * `untrusted` for an answer about another order (or a bad signature), `unavailable` after the read's retries.
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
	const answer = await callGateway(ctx, queryPath(ref.kind, ref.currency), body, settings, { ...options, kind: 'read' });
	if (answer.type !== 'data') {
		throw new GatewayFailure('untrusted', 'HaiPay answered the order query without a data object', {});
	}
	const mismatch = mismatchOf(ref, answer.data);
	if (mismatch !== undefined) throw new GatewayFailure('untrusted', `HaiPay's answer could not be trusted: ${mismatch}`, {});
	if (isNotFound(answer.data)) {
		return { found: false, errorMsg: text(answer.data.errorMsg), verification: answer.verification };
	}
	return { found: true, data: answer.data, verification: answer.verification };
}
