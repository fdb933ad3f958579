import { amount, appId, email, IBAN_PATTERN, lettersName, nonEmptyText, oneOf, orderId, partnerUserId, phone, sign, text, TWO_DECIMALS_PATTERN, url, type Schema } from './common';

/**
 * HaiPay's EUR payout page and its EU page: 1-150,000 euros with at most two decimals, to an IBAN, with the bank's
 * SWIFT/BIC and the recipient's city, street and postal code.
 */
export const eurPayApply: Schema = {
	type: 'object',
	required: [
		'appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'phone', 'email', 'partnerUserId', 'sign',
		'swiftCode', 'city', 'street', 'postalCode',
	],
	properties: {
		appId,
		orderId,
		amount: amount(TWO_DECIMALS_PATTERN, { min: '1', max: '150000' }),
		accountType: oneOf('BANK_ACCOUNT'),
		bankCode: nonEmptyText,
		accountNo: { type: 'string', pattern: IBAN_PATTERN, hint: 'an IBAN' },
		name: lettersName,
		phone,
		email,
		partnerUserId,
		sign,
		swiftCode: { type: 'string', pattern: '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$', hint: 'a SWIFT/BIC' },
		city: nonEmptyText,
		street: nonEmptyText,
		postalCode: nonEmptyText,
		notifyUrl: url,
		subject: text,
		body: text,
	},
};
