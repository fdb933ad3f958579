import { amount, appId, email, EXACT_TWO_DECIMALS_PATTERN, lettersName, nonEmptyText, oneOf, orderId, partnerUserId, sign, text, url, type Schema } from './common';

/** HaiPay's PHP payout page: amounts with exactly two decimals, a mobile number of 11 digits from 09. */
export const phpPayApply: Schema = {
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
		phone: { type: 'string', pattern: '^09\\d{9}$' },
		email,
		partnerUserId,
		sign,
		notifyUrl: url,
		subject: text,
		body: text,
	},
};
