import { amount, appId, email, EXACT_TWO_DECIMALS_PATTERN, lettersName, nonEmptyText, oneOf, orderId, partnerUserId, phone, sign, text, url, type Schema } from './common';

/** HaiPay's MYR payout page: amounts with exactly two decimals. */
export const myrPayApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'phone', 'email', 'partnerUserId', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount(EXACT_TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
		accountType: oneOf('EWALLET', 'BANK_ACCOUNT'),
		bankCode: nonEmptyText,
		accountNo: nonEmptyText,
		name: lettersName,
		phone,
		email,
		partnerUserId,
		sign,
		notifyUrl: url,
		subject: text,
		body: text,
	},
};
