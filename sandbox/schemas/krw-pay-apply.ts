import { amount, appId, email, EXACT_TWO_DECIMALS_PATTERN, lettersName, nonEmptyText, oneOf, orderId, partnerUserId, phone, sign, text, url, type Schema } from './common';

/**
 * HaiPay's KRW payout page: bank accounts only, amounts `^\d+\.\d{2}$`, a bank code from an appendix no public copy
 * holds (any code is taken here; the unknown-channel fault answers 4002).
 */
export const krwPayApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'phone', 'email', 'partnerUserId', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount(EXACT_TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
		accountType: oneOf('BANK_ACCOUNT'),
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
