import type { IDataObject } from 'n8n-workflow';

import { REFUND_QUERY_PATH } from '../contract/paths';
import { provenData } from '../gateway/lookup';
import { gatewayText } from '../gateway/outcome';
import type { CallOptions, GatewayContext } from '../gateway/request';
import type { HaiPaySettings } from '../signing/credential';
import { exactText } from '../text';
import type { Product } from './types';

/**
 * A card refund (docs/haipay-facts.md, "Card refunds"): the merchant's refund ID as `orderId`, HaiPay's `refundNo`,
 * of the whole payment named by the collection's `orderNo`. HaiPay publishes no refund status values and asks
 * merchants to rely on the refund query, not the apply answer's status: an apply answer with any status is settled
 * by that query, whose answer is judged by the refund it shows (this refund ID, of this payment), its status shown
 * as sent.
 */
export const REFUND: Product = {
	makes: 'refund',
	ownMember: 'orderId',
	ownIdName: 'Refund ID',
	identifier: 'refundNo',
	paymentMember: 'orderNo',
	paymentName: 'collection',
	acceptable: [],
	query: {
		ask: async (ctx, settings, ref, options) => ({
			found: true,
			data: await lookupRefund(ctx, settings, { orderId: ref.ownId, refundNo: ref.number }, options),
		}),
	},
};

/**
 * A card refund asked about (docs/haipay-facts.md, "Card refunds"): by the merchant's refund ID (`orderId`), by
 * HaiPay's refund number (`refundNo`, which HaiPay looks up first), or both.
 */
interface RefundRef {
	orderId?: string;
	refundNo?: string;
}

/**
 * Why a refund answer is not about the refund asked for, or undefined when it is: a member that is present and
 * non-empty must equal what was asked, and an answer that names a refund must name it by what was asked. For
 * Collection → Get Refund, where an answer that names no refund is shown as it came.
 */
export function refundMismatchOf(ref: RefundRef, data: IDataObject): string | undefined {
	const orderId = exactText(data.orderId);
	const refundNo = exactText(data.refundNo);
	if (ref.orderId !== undefined && orderId !== '' && orderId !== ref.orderId) {
		return `the answer is about the refund ID "${gatewayText(orderId)}", not "${ref.orderId}"`;
	}
	if (ref.refundNo !== undefined && refundNo !== '' && refundNo !== ref.refundNo) {
		return `the answer is about the refund number "${gatewayText(refundNo)}", not "${ref.refundNo}"`;
	}
	if (refundNo !== '' && ref.refundNo === undefined && orderId === '')
		return 'the answer names a refund but not by the refund ID asked for';
	return undefined;
}

/**
 * Why a refund answer proves nothing about the refund asked for, or undefined when it shows it: it must name the
 * refund by the refund ID asked for (and by the refund number, when one is known), and carry HaiPay's refund number.
 * HaiPay publishes no "no such refund" answer, so an answer without a refund number shows nothing either way.
 */
function unprovenRefund(ref: RefundRef, data: IDataObject): string | undefined {
	const mismatch = refundMismatchOf(ref, data);
	if (mismatch !== undefined) return mismatch;
	if (ref.orderId !== undefined && exactText(data.orderId) !== ref.orderId)
		return `the answer does not name the refund ID "${ref.orderId}"`;
	if (ref.orderId === undefined && exactText(data.refundNo) !== ref.refundNo)
		return `the answer does not name the refund number "${ref.refundNo ?? ''}"`;
	if (exactText(data.refundNo) === '') return 'the answer names no HaiPay refund number, so it shows no refund';
	return undefined;
}

/**
 * Queries one refund (`/usd/refund/refundQuery`) and proves the answer shows it. Throws an ItemFailure when no
 * proven answer came: `untrusted` for an answer not signed by HaiPay or not showing this refund, `unavailable` after
 * the read's retries, `rejected` for HaiPay's refusal.
 */
export async function lookupRefund(
	ctx: GatewayContext,
	settings: HaiPaySettings,
	ref: RefundRef,
	options: Omit<CallOptions, 'kind' | 'acceptFile'>,
): Promise<IDataObject> {
	const body: IDataObject = {
		...(ref.orderId !== undefined ? { orderId: ref.orderId } : {}),
		...(ref.refundNo !== undefined ? { refundNo: ref.refundNo } : {}),
	};
	return await provenData(ctx, { path: REFUND_QUERY_PATH, body, what: 'refund' }, settings, options, (data) =>
		unprovenRefund(ref, data),
	);
}
