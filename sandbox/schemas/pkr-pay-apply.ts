import { amount, appId, email, EXACT_TWO_DECIMALS_PATTERN, nonEmptyText, oneOf, orderId, partnerUserId, phone, sign, text, url, type Schema } from './common';

/** HaiPay's PKR payout page: exactly two decimals; subject, a date of birth (yyyy-MM-dd) and a gender are required. */
export const pkrPayApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'phone', 'email', 'subject', 'birth', 'gender', 'partnerUserId', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount(EXACT_TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
		accountType: oneOf('EWALLET', 'BANK_ACCOUNT'),
		bankCode: nonEmptyText,
		accountNo: nonEmptyText,
		name: nonEmptyText,
		phone,
		email,
		subject: nonEmptyText,
		birth: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' },
		gender: oneOf('MALE', 'FEMALE', 'OTHER'),
		partnerUserId,
		sign,
		notifyUrl: url,
		body: text,
		idCard: text,
	},
};
