import { appId, orderId, sign, type Schema } from './common';

/** `/global/cashier/collect/query`: unlike the currencies' order queries, the orderId and the orderNo are both required. */
export const cashierCollectQuery: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'orderNo', 'sign'],
	properties: {
		appId,
		orderId,
		orderNo: { type: 'string', minLength: 1, maxLength: 64 },
		sign,
	},
};
