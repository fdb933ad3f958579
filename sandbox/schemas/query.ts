import { appId, haiPayNo, orderId, sign, type Schema } from './common';

/**
 * Contract 4.7 and the generic `/{ccy}/pay/query`, `/{ccy}/collect/query`: which of orderId and orderNo is
 * required is not shown, so either one will do.
 */
export const orderQuery: Schema = {
	type: 'object',
	required: ['appId', 'sign'],
	anyOf: [{ required: ['orderId'] }, { required: ['orderNo'] }],
	properties: {
		appId,
		orderId,
		orderNo: haiPayNo,
		sign,
	},
};
