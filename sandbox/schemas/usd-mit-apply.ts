import {
	amount,
	appId,
	email,
	fullName,
	nonEmptyText,
	orderId,
	partnerUserId,
	phone,
	sign,
	text,
	url,
	type Schema,
} from './common';

/**
 * Contract 4.3. Required flags and the values of payType/inBankCode are not shown: only what an order cannot go
 * without is required, and the two codes accept any non-empty text.
 */
export const usdMitApply: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'amount', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount('^\\d+\\.\\d{2}$', { minExclusive: '0' }),
		payType: nonEmptyText,
		inBankCode: nonEmptyText,
		// 'firstName lastName' separated by a space.
		name: fullName,
		phone,
		email,
		clientIp: { type: 'string', format: 'ip' },
		callBackUrl: url,
		callBackFailUrl: url,
		notifyUrl: url,
		subject: text,
		body: text,
		partnerUserId,
		tokenID: text,
		loadingType: { type: 'integer', enum: [0, 1] },
		cancelUrl: url,
		sign,
	},
};
