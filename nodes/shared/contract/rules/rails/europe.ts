import { accountNo, bankCode } from '../common';
import type { FieldRule, RequestRules } from '../types';
import { accountTypes, amount, contact, IBAN, lettersName, payApply, plainName, upper } from './fields';

/**
 * Payouts in EUR and TRY, as HaiPay's page for each currency states them (docs/haipay-facts.md, "Payout rails").
 */

/** A SWIFT/BIC (ISO 9362): 4 letters for the bank, 2 for the country, 2 letters or digits, optionally 3 more. */
const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

function address(name: string, displayName: string, description: string, placeholder: string): FieldRule {
	return { name, displayName, required: true, description, placeholder };
}

/**
 * EUR. The API page's amount pattern asks for exactly two decimals; HaiPay's EU page says "two decimal places" at most
 * and gives the range 1-150000: at most two decimals and that range are what both say, so that is what is checked.
 */
export const EUR: RequestRules = payApply('EUR', 'official', [
	amount(
		{ maxDecimals: 2, min: '1', max: '150000', unit: 'EUR' },
		'Amount in EUR, 1 to 150,000, up to 2 decimals',
		'150.00',
	),
	accountTypes(['BANK_ACCOUNT'], 'Bank accounts only'),
	bankCode(true, "The recipient's bank code"),
	{
		...accountNo(true, "The recipient's IBAN, in capitals without spaces"),
		pattern: IBAN,
		allowedChars: /[A-Z0-9]/,
		patternText: 'an IBAN: 2 capital letters, 2 digits, then up to 30 capital letters or digits, no spaces',
		placeholder: 'FR7630006000011234567890189',
	},
	{ ...lettersName("Recipient's name in English letters; spaces and ' . - allowed"), placeholder: 'Jean Dupont' },
	...contact(),
	{
		name: 'swiftCode',
		displayName: 'SWIFT Code',
		required: true,
		pattern: BIC,
		allowedChars: /[A-Z0-9]/,
		patternText: 'a SWIFT/BIC: 8 or 11 capital letters and digits, e.g. BNPAFRPP',
		description: "The SWIFT/BIC code of the recipient's bank",
		placeholder: 'BNPAFRPP',
	},
	address('city', 'City', "Recipient's city", 'Paris'),
	address('street', 'Street', "Recipient's street address", '10 Rue de Rivoli'),
	address('postalCode', 'Postal Code', "Recipient's postal code", '75001'),
]);

/** The kinds of Papara ID the TRY page lists for bankCode PAPARA. */
const PAPARA_ID_TYPE: FieldRule = {
	name: 'identifyType',
	displayName: 'Papara ID Type',
	required: false,
	enum: ['PAPARA_NUMBER', 'PHONE', 'EMAIL', 'TURKISH_ID'],
	enumLabels: {
		PAPARA_NUMBER: 'Papara Number',
		PHONE: 'Registered Phone',
		EMAIL: 'Registered Email',
		TURKISH_ID: 'Turkish ID Number',
	},
	requiredWhen: { when: 'bankCode is PAPARA', applies: (fields) => upper(fields.bankCode) === 'PAPARA' },
	decidesPayee: 'the kind of Papara ID in accountNo',
	description: 'Required when Bank Code is PAPARA: the kind of Papara ID in Account Number',
};

export const TRY: RequestRules = payApply('TRY', 'partial', [
	amount({ maxDecimals: 2, unit: 'TRY' }, 'Amount in TRY; limits follow your merchant configuration', '1000.00'),
	accountTypes(['BANK_ACCOUNT', 'EWALLET'], 'Bank account (by IBAN) or e-wallet'),
	{ ...bankCode(true, 'The bank or wallet code, e.g. PAPARA'), placeholder: 'PAPARA' },
	{
		...accountNo(true, "The recipient's account: the IBAN for BANK_ACCOUNT, the Papara ID for PAPARA"),
		placeholder: 'TR330006100519786457841326',
		check: (value, fields) =>
			upper(fields.accountType) !== 'BANK_ACCOUNT' || IBAN.test(value)
				? undefined
				: 'must be an IBAN (2 capital letters, 2 digits, then capital letters or digits, no spaces), as accountType is BANK_ACCOUNT',
	},
	{ ...plainName(), placeholder: 'Ayse Yilmaz' },
	...contact(),
	{
		name: 'ibanAccount',
		displayName: 'IBAN Account',
		required: false,
		description: "The recipient's IBAN, where HaiPay asks for it beside the account number",
		placeholder: 'TR330006100519786457841326',
	},
	PAPARA_ID_TYPE,
]);
