import { amount, appId, nonEmptyText, oneOf, orderId, partnerUserId, sign, text, url, type Schema } from './common';

/**
 * HaiPay's INR payout page: whole rupees, bank accounts only with the branch's IFSC as bankCode, a 10-digit mobile
 * number from 6-9, and an email ending in @gmail.com (the page's own pattern).
 */
export const inrPayApply: Schema = {
	type: 'object',
	required: [
		'appId',
		'orderId',
		'amount',
		'accountType',
		'bankCode',
		'accountNo',
		'name',
		'phone',
		'email',
		'partnerUserId',
		'sign',
	],
	properties: {
		appId,
		orderId,
		amount: amount('^[1-9]\\d*$', {}),
		accountType: oneOf('BANK_ACCOUNT'),
		bankCode: { type: 'string', pattern: '^[A-Z]{4}0[A-Z0-9]{6}$', hint: 'the IFSC' },
		accountNo: nonEmptyText,
		name: { type: 'string', minLength: 1, pattern: '^[A-Za-z\\s]+$' },
		phone: { type: 'string', pattern: '^[6-9]\\d{9}$' },
		email: { type: 'string', pattern: '^[A-Za-z0-9._%+-]+@gmail\\.com$' },
		partnerUserId,
		sign,
		notifyUrl: url,
		subject: text,
		body: text,
	},
};
