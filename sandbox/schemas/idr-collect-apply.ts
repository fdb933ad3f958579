import { amount, appId, email, nonEmptyText, orderId, partnerUserId, sign, text, url, type Schema } from './common';

/**
 * HaiPay's IDR collection page (docs/haipay-facts.md): a phone of 08 and 8 to 11 digits, whole rupiah, a name of
 * ASCII characters (the page's pattern), the three ways to pay of the older page, and an optional `currency` that
 * defaults to IDR.
 */
export const idrCollectApply: Schema = {
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
		name: { type: 'string', minLength: 1, maxLength: 30, pattern: '^[A-Za-z\\u0000-\\u007F\\s!-]+$' },
		phone: { type: 'string', pattern: '^08[0-9]{8,11}$' },
		email,
		amount: amount('^[0-9]+$', { minExclusive: '0' }),
		payType: { type: 'string', enum: ['QR', 'VA', 'EWALLET'] },
		inBankCode: nonEmptyText,
		callBackUrl: url,
		callBackFailUrl: url,
		partnerUserId,
		sign,
		notifyUrl: url,
		currency: { type: 'string', enum: ['IDR'] },
		subject: text,
		body: text,
	},
};
