import {
	amount,
	appId,
	email,
	nonEmptyText,
	orderId,
	phone,
	sign,
	text,
	url,
	PARTNER_USER_ID_PATTERN,
	type Schema,
} from './common';

/** Contract 4.4. Amount limits come from merchant configuration, so only the contract's pattern applies. */
export const ngnPayApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount('^((([1-9]\\d*)(\\.\\d{1,4})?)|(0\\.(?!0+$)\\d{1,4}))$', {}),
		accountType: nonEmptyText,
		bankCode: nonEmptyText,
		accountNo: { type: 'string', pattern: '^\\d{10}$' },
		// `^[A-Za-z ]+$` from the contract, plus its "at least first and last name separated by a space".
		name: {
			type: 'string',
			pattern: '^[A-Za-z ]+$',
			allOf: [{ pattern: '[A-Za-z] +[A-Za-z]', hint: 'first and last name separated by a space' }],
		},
		sign,
		phone,
		email,
		notifyUrl: url,
		subject: text,
		body: text,
		partnerUserId: { type: 'string', maxLength: 64, pattern: PARTNER_USER_ID_PATTERN },
	},
};
