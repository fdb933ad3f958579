import { appId, email, nonEmptyText, orderId, partnerUserId, sign, text, url, type Schema } from './common';

/**
 * HaiPay's PHP collection page (docs/haipay-facts.md): a phone of 09 and 9 digits, and the page's amount pattern:
 * 50 to 49,999 pesos, whole or with exactly two decimals.
 */
export const phpCollectApply: Schema = {
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
		'partnerUserId',
		'sign',
	],
	properties: {
		appId,
		orderId,
		name: { type: 'string', minLength: 1, maxLength: 30, pattern: '^[A-Za-z\\s!-]+$' },
		phone: { type: 'string', pattern: '^09\\d{9}$' },
		email,
		amount: { type: 'string', pattern: '^(?:[5-9]\\d|[1-9]\\d{2,3}|[1-4]\\d{4}|49999)(?:\\.\\d{2})?$' },
		payType: nonEmptyText,
		inBankCode: nonEmptyText,
		callBackUrl: url,
		callBackFailUrl: url,
		partnerUserId,
		sign,
		notifyUrl: url,
		subject: text,
		body: text,
	},
};
