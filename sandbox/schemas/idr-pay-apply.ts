import { amount, appId, email, lettersName, nonEmptyText, oneOf, orderId, partnerUserId, phone, sign, text, TWO_DECIMALS_PATTERN, url, type Schema } from './common';

/** HaiPay's IDR payout page. It gives the amount no decimal rule or range: two decimals at most, above zero. */
export const idrPayApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'phone', 'email', 'partnerUserId', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount(TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
		accountType: oneOf('BANK_ACCOUNT', 'EWALLET'),
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
