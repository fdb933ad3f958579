import { accountNo, bankCode, email, partnerUserId, phone, subject } from '../common';
import type { FieldRule, RequestRules } from '../types';
import { accountTypes, amount, contact, lettersName, payApply, phoneAs, plainName, twoDecimals } from './fields';

/**
 * Payouts in INR, IDR, PHP, THB, VND, MYR and PKR, as HaiPay's page for each currency states them
 * (docs/haipay-facts.md, "Payout rails"). What a page leaves open is left to HaiPay: the field is sent as given.
 */

const BANK_OR_WALLET = ['EWALLET', 'BANK_ACCOUNT'];

/** An IFSC (Reserve Bank of India): 4 letters for the bank, a 0, 6 letters or digits for the branch. */
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;

/**
 * The INR page gives the email the pattern `^[A-Za-z0-9._%+-]+@gmail\.com$` (a schema pattern, on the payout and the
 * collection page alike; the page's examples are placeholders): a rule, checked. Its advice to use a name and a number
 * before the @ is advice, not checked.
 */
const GMAIL: FieldRule = {
	...email(true),
	pattern: /^[A-Za-z0-9._%+-]+@gmail\.com$/,
	allowedChars: /[A-Za-z0-9._%+\-@]/,
	patternText: 'an address ending in @gmail.com, as HaiPay requires for INR',
	description: "Recipient's email: HaiPay's INR rail takes only addresses ending in @gmail.com",
	placeholder: 'ravikumar1990@gmail.com',
};

export const INR: RequestRules = payApply('INR', 'official', [
	amount({ maxDecimals: 0, min: '1', unit: 'INR' }, 'Amount in INR: whole rupees, no decimals or commas', '1000'),
	accountTypes(['BANK_ACCOUNT'], 'Bank accounts only'),
	{
		...bankCode(true, "The IFSC of the recipient's branch: 4 letters, 0, then 6 letters or digits"),
		pattern: IFSC,
		allowedChars: /[A-Z0-9]/,
		patternText: 'an IFSC: 4 capital letters, a 0, then 6 capital letters or digits (e.g. HDFC0001234)',
		placeholder: 'HDFC0001234',
	},
	{ ...accountNo(true, "The recipient's bank account number"), placeholder: '50100123456789' },
	{
		...plainName('Recipient name: English letters and spaces only'),
		pattern: /^[A-Za-z\s]+$/,
		allowedChars: /[A-Za-z\s]/,
		patternText: 'English letters and spaces only',
		placeholder: 'Ravi Kumar',
	},
	phoneAs(/^[6-9]\d{9}$/, '10 digits starting with 6, 7, 8 or 9', '9876543210'),
	GMAIL,
	partnerUserId(true),
]);

export const IDR: RequestRules = payApply('IDR', 'official', [
	amount({ maxDecimals: 2, unit: 'IDR' }, 'Amount in IDR; limits follow your merchant configuration', '50000'),
	accountTypes(['BANK_ACCOUNT', 'EWALLET'], 'Bank account or e-wallet'),
	bankCode(true, 'The bank or wallet code'),
	{ ...accountNo(true, "The recipient's bank or wallet account number"), placeholder: '1234567890' },
	{ ...lettersName(), placeholder: 'Budi Santoso' },
	...contact(),
]);

export const PHP: RequestRules = payApply('PHP', 'official', [
	twoDecimals('PHP'),
	accountTypes(BANK_OR_WALLET, 'E-wallet or bank account'),
	bankCode(true, 'The wallet or bank code'),
	{ ...accountNo(true, "The recipient's wallet or bank account number"), placeholder: '09171234567' },
	{ ...lettersName(), placeholder: 'Maria Santos' },
	...contact(phoneAs(/^09\d{9}$/, '11 digits starting with 09', '09171234567')),
]);

export const THB: RequestRules = payApply('THB', 'official', [
	twoDecimals('THB'),
	accountTypes(BANK_OR_WALLET, 'E-wallet or bank account'),
	bankCode(true, 'The wallet or bank code'),
	{ ...accountNo(true, "The recipient's wallet or bank account"), placeholder: '1234567890' },
	{ ...lettersName(), placeholder: 'Somchai Jaidee' },
	...contact(phoneAs(/^0\d{9}$/, '10 digits starting with 0', '0812345678')),
]);

export const VND: RequestRules = payApply('VND', 'official', [
	amount(
		{ maxDecimals: 2, min: '50000', max: '10000000', unit: 'VND' },
		'Amount in VND, 50,000 to 10,000,000',
		'500000',
	),
	accountTypes(['BANK_ACCOUNT'], 'Bank accounts only'),
	bankCode(true, 'The bank code'),
	{ ...accountNo(true, "The recipient's bank account number"), placeholder: '0123456789' },
	{
		...lettersName("Recipient's name in English or Vietnamese letters; spaces and ' . - allowed"),
		pattern: /^[\p{L}\p{M}\s'.-]+$/u,
		allowedChars: /[\p{L}\p{M}\s'.-]/u,
		patternText: "letters (Vietnamese ones too), spaces and ' . - only",
		placeholder: 'Nguyen Van An',
	},
	...contact(),
]);

export const MYR: RequestRules = payApply('MYR', 'official', [
	twoDecimals('MYR'),
	accountTypes(BANK_OR_WALLET, 'E-wallet or bank account'),
	bankCode(true, 'The wallet or bank code'),
	{ ...accountNo(true, "The recipient's wallet or bank account number"), placeholder: '1234567890' },
	{ ...lettersName(), placeholder: 'Ahmad Ali' },
	...contact(),
]);

function isCalendarDate(text: string): boolean {
	const [year, month, day] = text.split('-').map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const BIRTH: FieldRule = {
	name: 'birth',
	displayName: 'Date of Birth',
	required: true,
	pattern: /^\d{4}-\d{2}-\d{2}$/,
	allowedChars: /[0-9-]/,
	patternText: 'a date written yyyy-MM-dd, e.g. 1990-04-25',
	check: (value) => (isCalendarDate(value) ? undefined : `must be a date that exists (got "${value}")`),
	description: "Recipient's date of birth, written yyyy-MM-dd",
	placeholder: '1990-04-25',
};

const GENDER: FieldRule = {
	name: 'gender',
	displayName: 'Gender',
	required: true,
	enum: ['MALE', 'FEMALE', 'OTHER'],
	enumLabels: { MALE: 'Male', FEMALE: 'Female', OTHER: 'Other' },
	decidesPayee: "the recipient's gender, part of the identity HaiPay's PKR page asks for",
	description: "Recipient's gender",
};

export const PKR: RequestRules = payApply('PKR', 'official', [
	twoDecimals('PKR'),
	accountTypes(BANK_OR_WALLET, 'E-wallet or bank account'),
	bankCode(true, 'The wallet or bank code'),
	{ ...accountNo(true, "The recipient's bank or wallet account number"), placeholder: '03001234567' },
	{ ...plainName(), placeholder: 'Ali Khan' },
	phone(true),
	email(true),
	{
		...subject(),
		required: true,
		description: 'Payment note (title, product name or reason): HaiPay requires it for PKR, at most 255 characters',
	},
	BIRTH,
	GENDER,
	partnerUserId(true),
	{
		name: 'idCard',
		displayName: 'ID Card Number',
		required: false,
		description: "Recipient's ID card number",
		placeholder: '3520212345671',
	},
]);
