import { appId, email, nonEmptyText, orderId, partnerUserId, sign, url, type Schema } from './common';

/**
 * HaiPay's subscriptionApply page (docs/haipay-facts.md, "Subscriptions"), read on its own: amount `^\d+\.\d{2}$`,
 * recurringInterval D/W/M/Y, recurringIntervalCount and recurringMaxNumber integers >= 1, inBankCode one of three,
 * payType SUBSCRIPTION, currency USD. Fields the page leaves open are let through.
 */
export const subscriptionApply: Schema = {
	type: 'object',
	required: [
		'appId',
		'subscriptionOrderId',
		'amount',
		'name',
		'email',
		'subject',
		'inBankCode',
		'payType',
		'callBackUrl',
		'currency',
		'partnerUserId',
		'recurringInterval',
		'recurringIntervalCount',
		'referer',
		'sign',
	],
	properties: {
		appId,
		subscriptionOrderId: orderId,
		amount: { type: 'string', pattern: '^\\d+\\.\\d{2}$' },
		name: nonEmptyText,
		email,
		subject: nonEmptyText,
		inBankCode: { enum: ['CREDIT_CARD', 'GOOGLE_PAY', 'APPLE_PAY'] },
		payType: { const: 'SUBSCRIPTION' },
		callBackUrl: url,
		notifyUrl: url,
		currency: { const: 'USD' },
		partnerUserId,
		recurringInterval: { enum: ['D', 'W', 'M', 'Y'] },
		recurringIntervalCount: { type: 'integer', minimum: 1 },
		recurringMaxNumber: { type: 'integer', minimum: 1 },
		referer: nonEmptyText,
		sign,
	},
};
