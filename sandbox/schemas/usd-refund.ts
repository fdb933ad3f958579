import { appId, byOrderIdAndNo, haiPayNo, orderId, sign, type Schema } from './common';

/** HaiPay's card refund page (docs/haipay-facts.md): the merchant's refund number and the collection's orderNo. */
export const usdRefundApply: Schema = byOrderIdAndNo;

/** HaiPay's refund query page: neither key is marked required, so either one will do. */
export const usdRefundQuery: Schema = {
	type: 'object',
	required: ['appId', 'sign'],
	anyOf: [{ required: ['orderId'] }, { required: ['refundNo'] }],
	properties: {
		appId,
		orderId,
		refundNo: haiPayNo,
		sign,
	},
};
