import {
	amount,
	appId,
	lettersName,
	nonEmptyText,
	oneOf,
	orderId,
	payoutTail,
	phone,
	when,
	type Schema,
} from './common';

/**
 * HaiPay's BRL payout page: PIX to an e-wallet, the kind of PIX key in `identifyType`. The amount pattern is the page's
 * own (1-99999, whole or with exactly two decimals); a CPF key is 11 digits, an EMAIL key an address.
 */
export const brlPayApply: Schema = {
	type: 'object',
	required: [
		'appId',
		'orderId',
		'amount',
		'accountType',
		'bankCode',
		'identifyType',
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
		amount: amount('^(?:[1-9]\\d{0,4}|99999)(?:\\.\\d{2})?$', { min: '1' }),
		accountType: oneOf('EWALLET'),
		bankCode: nonEmptyText,
		identifyType: oneOf('CPF', 'PHONE', 'EMAIL'),
		accountNo: nonEmptyText,
		name: lettersName,
		phone,
		...payoutTail,
	},
	allOf: [
		when('identifyType', 'CPF', {
			properties: { accountNo: { type: 'string', pattern: '^\\d{11}$', hint: 'a CPF key is 11 digits' } },
		}),
		when('identifyType', 'EMAIL', {
			properties: { accountNo: { type: 'string', format: 'email', hint: 'an EMAIL key is an email address' } },
		}),
	],
};
