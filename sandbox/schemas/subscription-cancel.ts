import { appId, sign, type Schema } from './common';

/** HaiPay's subscriptionCancel page: appId, subscriptionNo and sign, all required. */
export const subscriptionCancel: Schema = {
	type: 'object',
	required: ['appId', 'subscriptionNo', 'sign'],
	properties: { appId, subscriptionNo: { type: 'string', minLength: 1, maxLength: 64 }, sign },
};
