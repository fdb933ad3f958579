import {
	amount,
	appId,
	email,
	IBAN_PATTERN,
	nonEmptyText,
	oneOf,
	orderId,
	partnerUserId,
	phone,
	sign,
	text,
	TWO_DECIMALS_PATTERN,
	url,
	when,
	type Schema,
} from './common';

/**
 * HaiPay's TRY payout page (partly legible): a bank account's number is its IBAN; bankCode PAPARA needs the kind of
 * Papara ID (`identifyType`). `ibanAccount` appears in the page's example and is taken as text.
 */
export const tryPayApply: Schema = {
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
		amount: amount(TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
		accountType: oneOf('BANK_ACCOUNT', 'EWALLET'),
		bankCode: nonEmptyText,
		accountNo: nonEmptyText,
		name: nonEmptyText,
		phone,
		email,
		partnerUserId,
		sign,
		ibanAccount: text,
		identifyType: oneOf('PAPARA_NUMBER', 'PHONE', 'EMAIL', 'TURKISH_ID'),
		notifyUrl: url,
		subject: text,
		body: text,
	},
	allOf: [
		when('accountType', 'BANK_ACCOUNT', {
			properties: { accountNo: { type: 'string', pattern: IBAN_PATTERN, hint: 'a bank account is given by its IBAN' } },
		}),
		when('bankCode', 'PAPARA', { required: ['identifyType'], hint: 'bankCode PAPARA needs the kind of Papara ID' }),
	],
};
