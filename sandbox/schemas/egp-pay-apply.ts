import { amount, appId, nonEmptyText, orderId, payoutTail, TWO_DECIMALS_PATTERN, type Schema } from './common';

/**
 * Contract 4.5. A wallet account is a mobile number in +2 format on the 010/011/012 carriers; a bank account is
 * anything else that does not start with "+". Decimal rules are not shown: two decimals, above zero.
 */
export const egpPayApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount(TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
		accountType: nonEmptyText,
		bankCode: nonEmptyText,
		accountNo: { type: 'string', minLength: 1, pattern: '^(\\+201[012][0-9]{8}|[^+].*)$' },
		name: nonEmptyText,
		phone: { type: 'string', pattern: '^\\+20[0-9]{10}$' },
		...payoutTail,
	},
};
