import {
	amount,
	appId,
	nonEmptyText,
	oneOf,
	orderId,
	payoutTail,
	phone,
	TWO_DECIMALS_PATTERN,
	type Schema,
} from './common';

/** HaiPay's VND payout page: 50,000-10,000,000 dong to a bank account; a name in English or Vietnamese letters. */
export const vndPayApply: Schema = {
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
		amount: amount(TWO_DECIMALS_PATTERN, { min: '50000', max: '10000000' }),
		accountType: oneOf('BANK_ACCOUNT'),
		bankCode: nonEmptyText,
		accountNo: nonEmptyText,
		name: { type: 'string', minLength: 1, maxLength: 30, pattern: "^[\\p{L}\\p{M}\\s'.-]+$" },
		phone,
		...payoutTail,
	},
};
