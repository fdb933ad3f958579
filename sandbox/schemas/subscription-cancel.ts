import { appId, haiPayNo, sign, type Schema } from './common';

/** HaiPay's subscriptionCancel page: appId, subscriptionNo and sign, all required. */
export const subscriptionCancel: Schema = {
	type: 'object',
	required: ['appId', 'subscriptionNo', 'sign'],
	properties: { appId, subscriptionNo: haiPayNo, sign },
};
