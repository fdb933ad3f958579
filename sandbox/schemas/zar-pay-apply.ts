import {
	amount,
	appId,
	englishName,
	nonEmptyText,
	orderId,
	payoutTail,
	phone,
	TWO_DECIMALS_PATTERN,
	type Schema,
} from './common';

/** Contract 4.2. Required flags and bank codes are not shown: the fields a payout cannot go without are required. */
export const zarPayApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount(TWO_DECIMALS_PATTERN, { min: '1', max: '10000000' }),
		accountType: { type: 'string', enum: ['BANK_ACCOUNT'] },
		bankCode: nonEmptyText,
		accountNo: nonEmptyText,
		name: englishName,
		phone,
		...payoutTail,
	},
};
