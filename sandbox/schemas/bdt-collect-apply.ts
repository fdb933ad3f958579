import {
	amount,
	appId,
	email,
	fullName,
	nonEmptyText,
	orderId,
	partnerUserId,
	phone,
	sign,
	text,
	url,
	type Schema,
} from './common';

/**
 * HaiPay's BDT collection page (docs/haipay-facts.md): "firstName lastName", an amount with two decimals, a required
 * subject, and `country` 458 for the cashier mode. The 100-50,000 limit is the merchant's configuration: not checked.
 */
export const bdtCollectApply: Schema = {
	type: 'object',
	required: [
		'appId',
		'orderId',
		'name',
		'phone',
		'email',
		'amount',
		'payType',
		'inBankCode',
		'callBackUrl',
		'callBackFailUrl',
		'subject',
		'partnerUserId',
		'sign',
	],
	properties: {
		appId,
		orderId,
		name: fullName,
		phone,
		email,
		amount: amount('^\\d+\\.\\d{2}$', { minExclusive: '0' }),
		payType: nonEmptyText,
		inBankCode: nonEmptyText,
		callBackUrl: url,
		callBackFailUrl: url,
		subject: nonEmptyText,
		partnerUserId,
		sign,
		notifyUrl: url,
		body: text,
		country: { type: 'string', enum: ['458'] },
	},
};
