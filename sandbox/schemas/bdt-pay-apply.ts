import { amount, appId, nonEmptyText, orderId, payoutTail, phone, type Schema } from './common';

/** Contract 4.6: whole taka only, and a name that may carry ' . - besides letters and spaces. */
export const bdtPayApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount('^\\d+$', { minExclusive: '0' }),
		accountType: { type: 'string', enum: ['EWALLET', 'BANK_ACCOUNT'] },
		bankCode: nonEmptyText,
		accountNo: nonEmptyText,
		name: { type: 'string', minLength: 1, maxLength: 30, pattern: "^[A-Za-z\\s'.-]+$" },
		phone,
		...payoutTail,
	},
};
