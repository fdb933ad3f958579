import { amount, appId, email, lettersName, nonEmptyText, orderId, partnerUserId, phone, sign, text, url, type Schema } from './common';

/**
 * HaiPay's USDT payout page (api-reference usdtc, usdtPayApply): a wallet address as accountNo, "Range:
 * 0.0001-5000000". accountType and bankCode are required with no values listed, and no field names a network.
 * The text's "two decimal places" contradicts the range's own minimum: this gateway takes up to four.
 */
export const usdtPayApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'phone', 'email', 'partnerUserId', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount('^(0|[1-9]\\d*)(\\.\\d{1,4})?$', { min: '0.0001', max: '5000000' }),
		accountType: nonEmptyText,
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
