import { accountNo, bankCode, email, partnerUserId, phone, subject } from '../common';
import type { FieldRule, RequestRules } from '../types';
import { accountTypes, amount, contact, isEmail, lettersName, payApply, plainName, twoDecimals, upper } from './fields';

/**
 * Payouts in BRL, MXN and USD, as HaiPay's page for each currency states them (docs/haipay-facts.md, "Payout
 * rails"). Cross-field rules (the account number's form by the kind of account) are checks on accountNo.
 */

/**
 * BRL: the page's own pattern, `^(?:[1-9]\d{0,4}|99999)(?:\.\d{2})?$`: 1 to 99999 whole reais, or with exactly two
 * decimals. Its text says "Range: 1-99999", its pattern lets 99999.01-99999.99 through: only what both refuse is refused.
 */
const BRL_AMOUNT = /^(?:[1-9]\d{0,4}|99999)(?:\.\d{2})?$/;

/** The kind of PIX key in accountNo, and the form each one certainly has (a CPF is 11 digits, as HaiPay's BRL collection page gives it). */
const PIX_KEY: Record<string, { form: string; test: (value: string) => boolean } | undefined> = {
	CPF: { form: 'a CPF of 11 digits, e.g. 09876543210', test: (value) => /^\d{11}$/.test(value) },
	EMAIL: { form: 'an email address', test: isEmail },
	// A phone key's form is not on HaiPay's page: HaiPay decides.
	PHONE: undefined,
};

export const BRL: RequestRules = payApply('BRL', 'official', [
	amount(
		{
			maxDecimals: 2,
			min: '1',
			max: '99999.99',
			pattern: BRL_AMOUNT,
			patternText: 'whole or exactly 2 decimals',
			unit: 'BRL',
		},
		'Amount in BRL, 1 to 99,999: whole reais, or exactly two decimals (e.g. 500 or 500.00)',
		'500.00',
	),
	accountTypes(['EWALLET'], 'PIX payouts go to an e-wallet'),
	{ ...bankCode(true, 'The wallet code: PIX'), placeholder: 'PIX' },
	{
		name: 'identifyType',
		displayName: 'PIX Key Type',
		required: true,
		enum: ['CPF', 'PHONE', 'EMAIL'],
		enumLabels: { CPF: 'CPF', PHONE: 'Phone', EMAIL: 'Email' },
		decidesPayee: 'the kind of PIX key in accountNo',
		description: 'The kind of PIX key in Account Number',
	},
	{
		...accountNo(
			true,
			'The PIX key, of the kind in identifyType: a CPF as 11 digits, an email address, or a phone number',
		),
		placeholder: '09876543210',
		check: (value, fields) => {
			const key = PIX_KEY[upper(fields.identifyType)];
			return key === undefined || key.test(value)
				? undefined
				: `must be ${key.form}, as identifyType is ${upper(fields.identifyType)}`;
		},
	},
	{ ...lettersName(), placeholder: 'Joao Silva' },
	...contact(),
]);

/** MXN's two kinds of account, each with its number's length as the page's accountType list gives it. */
const MXN_ACCOUNTS: Record<string, { digits: number; what: string }> = {
	BANK_CARD: { digits: 16, what: 'a debit card number of 16 digits' },
	BANK_ACCOUNT: { digits: 18, what: 'a CLABE of 18 digits' },
};

export const MXN: RequestRules = payApply('MXN', 'partial', [
	twoDecimals('MXN'),
	accountTypes(['BANK_CARD', 'BANK_ACCOUNT'], 'A debit card (16 digits) or a CLABE account (18 digits)', {
		BANK_CARD: 'Debit Card (16 Digits)',
		BANK_ACCOUNT: 'CLABE (18 Digits)',
	}),
	{ ...bankCode(true, 'The bank code, e.g. STP'), placeholder: 'STP' },
	{
		...accountNo(true, 'A debit card number (16 digits) for BANK_CARD, or a CLABE (18 digits) for BANK_ACCOUNT'),
		placeholder: '646180157000000004',
		check: (value, fields) => {
			const account = MXN_ACCOUNTS[upper(fields.accountType)];
			if (account === undefined || new RegExp(`^\\d{${account.digits}}$`).test(value)) return undefined;
			return `must be ${account.what}, as accountType is ${upper(fields.accountType)} (got ${value.length} characters)`;
		},
	},
	{ ...plainName(), placeholder: 'Juan Perez' },
	email(true),
	partnerUserId(true),
	{ ...phone(false), placeholder: '5512345678' },
]);

/** USD: "at least firstName and lastName, no special characters, separated by spaces". */
const USD_NAME: FieldRule = {
	...plainName("Recipient's full name in English letters, at least first and last name separated by a space"),
	pattern: /^[A-Za-z ]+$/,
	allowedChars: /[A-Za-z ]/,
	patternText: 'English letters and spaces only',
	check: (value) =>
		/[A-Za-z]+ +[A-Za-z]+/.test(value) ? undefined : 'needs at least a first and a last name separated by a space',
	placeholder: 'John Smith',
};

export const USD: RequestRules = payApply('USD', 'official', [
	twoDecimals('USD'),
	{
		name: 'accountType',
		displayName: 'Account Type',
		required: true,
		description: 'The account type, e.g. EWALLET for PayPal',
		placeholder: 'EWALLET',
	},
	{ ...bankCode(true, 'The payment method, e.g. PayPal'), placeholder: 'PayPal' },
	{
		...accountNo(true, "The recipient's account: for PayPal, their PayPal email address"),
		placeholder: 'john.smith@example.com',
		check: (value, fields) =>
			upper(fields.bankCode) !== 'PAYPAL' || isEmail(value)
				? undefined
				: 'must be the PayPal email address, as bankCode is PayPal',
	},
	USD_NAME,
	...contact(),
	{
		...subject(),
		required: true,
		description: 'Payment note (title, product name or reason): HaiPay requires it for USD, at most 255 characters',
	},
]);
