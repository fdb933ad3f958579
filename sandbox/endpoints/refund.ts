import { ERROR_CODES } from '../constants';
import { fail, type Endpoint, type Handler } from './shared';

/**
 * Card refunds (docs/haipay-facts.md, "Card refunds"): a refund of a paid USD collection, whole, under the merchant's
 * refund number; and its query, by refundNo (first) or that number. A repeated refund number is refused as a repeated
 * orderId is; so is a refund of an order that is unknown, not paid, or already refunded.
 */
const refundApply: Handler = (gateway, merchant, request) => {
	const refund = gateway.refunds.create(merchant, request.orderId as string, request.orderNo as string);
	gateway.placedRefund(refund);
	return { type: 'ok', merchant, data: gateway.refunds.answer(refund) };
};

const refundQuery: Handler = (gateway, merchant, request) => {
	const orderId = typeof request.orderId === 'string' ? request.orderId : undefined;
	const refundNo = typeof request.refundNo === 'string' ? request.refundNo : undefined;
	const refund = gateway.refunds.find(merchant.appId, orderId, refundNo);
	if (!refund) return fail(ERROR_CODES.unknownRefund, 'refund does not exist');
	return { type: 'ok', merchant, data: gateway.refunds.answer(refund) };
};

export const REFUND_ENDPOINTS: Endpoint[] = [
	{ path: '/usd/refund/apply', currency: 'USD', schema: 'usdRefundApply', handle: refundApply },
	{ path: '/usd/refund/refundQuery', currency: 'USD', schema: 'usdRefundQuery', handle: refundQuery },
];
