import {
	amount,
	appId,
	email,
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
 * HaiPay's BRL collection page (docs/haipay-facts.md): the payer's CPF in `inBankNo`, a name of letters, spaces, !
 * and -, and an amount by the page's pattern (two decimals, up to 99999.99); its text's "Range: 1-99999" is not
 * checked where the pattern allows more. The redirects are
 * required on the older page's table. `payType`/`inBankCode` (QR, PIX) come from merchant configuration: any text.
 */
export const brlCollectApply: Schema = {
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
		'inBankNo',
		'callBackUrl',
		'callBackFailUrl',
		'partnerUserId',
		'sign',
	],
	properties: {
		appId,
		orderId,
		name: { type: 'string', minLength: 1, maxLength: 30, pattern: '^[A-Za-z\\s!-]+$' },
		phone,
		email,
		amount: amount('^(?:[1-9]\\d{0,4}|0)(?:\\.\\d{2})$', { minExclusive: '0' }),
		payType: nonEmptyText,
		inBankCode: nonEmptyText,
		inBankNo: { type: 'string', pattern: '^\\d{11}$', hint: "the payer's CPF, 11 digits" },
		callBackUrl: url,
		callBackFailUrl: url,
		partnerUserId,
		sign,
		notifyUrl: url,
		subject: text,
		body: text,
	},
};
