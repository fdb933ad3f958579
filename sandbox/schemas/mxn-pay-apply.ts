import {
	amount,
	appId,
	EXACT_TWO_DECIMALS_PATTERN,
	nonEmptyText,
	oneOf,
	orderId,
	payoutTail,
	phone,
	when,
	type Schema,
} from './common';

/**
 * HaiPay's MXN payout page (partly legible): exactly two decimals; a debit card of 16 digits (BANK_CARD) or a CLABE of
 * 18 digits (BANK_ACCOUNT). Its example request has no phone, so phone is optional here.
 */
export const mxnPayApply: Schema = {
	type: 'object',
	required: [
		'appId',
		'orderId',
		'amount',
		'accountType',
		'bankCode',
		'accountNo',
		'name',
		'email',
		'partnerUserId',
		'sign',
	],
	properties: {
		appId,
		orderId,
		amount: amount(EXACT_TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
		accountType: oneOf('BANK_CARD', 'BANK_ACCOUNT'),
		bankCode: nonEmptyText,
		accountNo: nonEmptyText,
		name: nonEmptyText,
		phone,
		...payoutTail,
	},
	allOf: [
		when('accountType', 'BANK_CARD', {
			properties: { accountNo: { type: 'string', pattern: '^\\d{16}$', hint: 'a debit card number is 16 digits' } },
		}),
		when('accountType', 'BANK_ACCOUNT', {
			properties: { accountNo: { type: 'string', pattern: '^\\d{18}$', hint: 'a CLABE is 18 digits' } },
		}),
	],
};
