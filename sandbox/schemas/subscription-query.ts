import { appId, haiPayNo, orderId, sign, type Schema } from './common';

/** No public copy shows the subscription query's page: either key, as the order and refund queries take theirs. */
export const subscriptionQuery: Schema = {
	type: 'object',
	required: ['appId', 'sign'],
	anyOf: [{ required: ['subscriptionOrderId'] }, { required: ['subscriptionNo'] }],
	properties: { appId, subscriptionOrderId: orderId, subscriptionNo: haiPayNo, sign },
};
