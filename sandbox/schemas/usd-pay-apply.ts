import {
	amount,
	appId,
	email,
	EXACT_TWO_DECIMALS_PATTERN,
	nonEmptyText,
	orderId,
	partnerUserId,
	phone,
	sign,
	text,
	url,
	when,
	type Schema,
} from './common';

/**
 * HaiPay's USD payout page: exactly two decimals, a subject, a name of at least a first and a last name in English
 * letters; for PayPal the account number is the PayPal email address.
 */
export const usdPayApply: Schema = {
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
		'subject',
		'partnerUserId',
		'sign',
	],
	properties: {
		appId,
		orderId,
		amount: amount(EXACT_TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
		accountType: nonEmptyText,
		bankCode: nonEmptyText,
		accountNo: nonEmptyText,
		name: { type: 'string', pattern: '^[A-Za-z]+( +[A-Za-z]+)+$', hint: 'first and last name in English letters' },
		phone,
		email,
		subject: nonEmptyText,
		partnerUserId,
		sign,
		notifyUrl: url,
		body: text,
	},
	allOf: [
		when('bankCode', 'PayPal', {
			properties: { accountNo: { type: 'string', format: 'email', hint: 'the PayPal email address' } },
		}),
	],
};
