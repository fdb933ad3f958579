import {
	amount,
	appId,
	email,
	EXACT_TWO_DECIMALS_PATTERN,
	fullName,
	orderId,
	partnerUserId,
	sign,
	text,
	url,
	when,
	type Schema,
} from './common';

/**
 * HaiPay's global cashier (api-reference cashier: collectApply; version2 GlobalCashier): "firstName lastName", the
 * page's amount with exactly two decimals, a three-letter transaction currency (USD at least 0.99, the others as
 * HaiPay's Region Codes allow, a table no public copy holds), a two-letter region, and the subject required.
 */
export const cashierCollectApply: Schema = {
	type: 'object',
	required: [
		'appId',
		'orderId',
		'name',
		'email',
		'amount',
		'currency',
		'callBackUrl',
		'callBackFailUrl',
		'subject',
		'region',
		'partnerUserId',
		'sign',
	],
	properties: {
		appId,
		orderId,
		name: fullName,
		email,
		amount: amount(EXACT_TWO_DECIMALS_PATTERN, {}),
		currency: { type: 'string', pattern: '^[A-Z]{3}$', hint: 'a three-letter currency code' },
		callBackUrl: url,
		callBackFailUrl: url,
		subject: { type: 'string', minLength: 1 },
		region: { type: 'string', pattern: '^[A-Za-z]{2}$', hint: 'a two-letter region code' },
		partnerUserId,
		sign,
		notifyUrl: url,
		body: text,
	},
	allOf: [when('currency', 'USD', { properties: { amount: amount(EXACT_TWO_DECIMALS_PATTERN, { min: '0.99' }) } })],
};
