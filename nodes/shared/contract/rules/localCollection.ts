import { collectApplyPath } from '../paths';
import { body, email, firstLastName, notifyUrl, orderId, partnerUserId, phone, subject } from './common';
import type { AmountRule, FieldRule, RequestRules } from './types';

/*
 * Collections in local currencies, `POST /{ccy}/collect/apply`: beyond the contract, as HaiPay's own pages state them
 * (docs/haipay-facts.md, "Local-currency collections", which names each page and how sure we are). The payer pays a
 * PIX or QR Ph code, a virtual account or a cashier page; the answer carries `payUrl` and, per rail, `qrCode`,
 * `bankNo` and `bankCode`. USD stays the card collection in MIT mode (collection.ts).
 */

export const LOCAL_COLLECTION_CURRENCIES = ['BRL', 'IDR', 'PHP', 'BDT'] as const;
export type LocalCollectionCurrency = (typeof LOCAL_COLLECTION_CURRENCIES)[number];

function amount(rule: AmountRule, description: string, placeholder: string): FieldRule {
	return { name: 'amount', displayName: 'Amount', required: true, amount: rule, description, placeholder };
}

/** The payer's name as BRL, IDR and PHP state it: 1-30 characters of the given kind. */
function payerName(pattern: RegExp, allowedChars: RegExp, patternText: string, placeholder: string): FieldRule {
	return {
		name: 'name',
		displayName: 'Name',
		required: true,
		minLength: 1,
		maxLength: 30,
		pattern,
		allowedChars,
		patternText,
		description: `Payer's name: ${patternText}, at most 30 characters`,
		placeholder,
	};
}

const LETTERS_SPACES_BANG_DASH = payerName(
	/^[A-Za-z\s!-]+$/,
	/[A-Za-z\s!-]/,
	'English letters, spaces, ! and - only',
	'Maria Silva',
);

function payType(description: string, placeholder: string): FieldRule {
	return { name: 'payType', displayName: 'Pay Type', required: true, description, placeholder };
}

function inBankCode(description: string, placeholder: string): FieldRule {
	return { name: 'inBankCode', displayName: 'Payment Method Code', required: true, description, placeholder };
}

/** Where the payer's browser goes after paying on HaiPay's page, or after failing: required by every local rail. */
function redirects(): FieldRule[] {
	return [
		{
			name: 'callBackUrl',
			displayName: 'Success Redirect URL',
			required: true,
			format: 'url',
			maxLength: 1024,
			description: 'Page the payer returns to after a successful payment',
		},
		{
			name: 'callBackFailUrl',
			displayName: 'Failure Redirect URL',
			required: true,
			format: 'url',
			maxLength: 1024,
			description: 'Page the payer returns to after a failed payment',
		},
	];
}

/** The optional notes every collection takes (BDT requires its subject). */
function notes(subjectRequired = false): FieldRule[] {
	return [notifyUrl(), { ...subject(), required: subjectRequired }, body()];
}

const BRL: RequestRules = {
	path: collectApplyPath('BRL'),
	additionalProperties: true,
	fields: [
		orderId(),
		LETTERS_SPACES_BANG_DASH,
		phone(true, "Payer's real phone number"),
		email(true),
		// The page's pattern asks for two decimals and allows 0.01 to 99,999.99; its text says "Range: 1-99999". Where the
		// two disagree only what both refuse is refused (docs/haipay-facts.md): the minimum and the cents are HaiPay's call.
		amount(
			{ maxDecimals: 2, exactDecimals: 2, max: '99999.99', unit: 'BRL' },
			'Amount in BRL with exactly two decimals, up to 99,999.99, e.g. 300.00',
			'300.00',
		),
		payType('Transaction type: QR for a PIX QR code, as enabled for your merchant account', 'QR'),
		inBankCode('Payment method: PIX, as enabled for your merchant account', 'PIX'),
		{
			name: 'inBankNo',
			displayName: 'Payer CPF',
			required: true,
			pattern: /^\d{11}$/,
			allowedChars: /[0-9]/,
			patternText: "the payer's CPF: exactly 11 digits, without dots or dash",
			description: "The payer's CPF (Brazilian tax number): 11 digits, without dots or dash",
			placeholder: '12345678909',
		},
		...redirects(),
		partnerUserId(true),
		...notes(),
	],
};

const IDR: RequestRules = {
	path: collectApplyPath('IDR'),
	additionalProperties: true,
	fields: [
		orderId(),
		payerName(/^[ -~]+$/, /[ -~]/, 'letters, digits, spaces and ASCII symbols only', 'Budi Santoso'),
		{
			...phone(true, "Payer's phone number: 08 and 8 to 11 more digits"),
			pattern: /^08[0-9]{8,11}$/,
			allowedChars: /[0-9]/,
			patternText: '08 followed by 8 to 11 digits',
			placeholder: '081234567890',
		},
		email(true),
		amount(
			{ maxDecimals: 0, min: '1', unit: 'IDR' },
			'Amount in rupiah: whole numbers only, no decimals or dots',
			'50000',
		),
		{
			...payType('How the payer pays: a QR code (QRIS), a virtual account (VA) or an e-wallet', 'QR'),
			enum: ['QR', 'VA', 'EWALLET'],
			enumLabels: { QR: 'QR Code (QR)', VA: 'Virtual Account (VA)', EWALLET: 'E-Wallet (EWALLET)' },
		},
		inBankCode(
			'Payment method code (the bank of a virtual account, the wallet ...), as enabled for your merchant account',
			'014',
		),
		...redirects(),
		partnerUserId(true),
		...notes(),
	],
};

const PHP: RequestRules = {
	path: collectApplyPath('PHP'),
	additionalProperties: true,
	fields: [
		orderId(),
		LETTERS_SPACES_BANG_DASH,
		{
			...phone(true, "Payer's phone number: 11 digits starting with 09"),
			pattern: /^09\d{9}$/,
			allowedChars: /[0-9]/,
			patternText: '11 digits starting with 09',
			placeholder: '09171234567',
		},
		email(true),
		amount(
			{
				maxDecimals: 2,
				min: '50',
				max: '49999.99',
				pattern: /^\d+(?:\.\d{2})?$/,
				patternText: 'a whole amount or one with exactly two decimals, e.g. 500 or 500.50',
				unit: 'PHP',
			},
			'Amount in pesos, 50 to 49,999.99: whole, or with exactly two decimals',
			'500',
		),
		payType('Transaction type: QR for a QR Ph code, as enabled for your merchant account', 'QR'),
		inBankCode(
			'Payment method, e.g. PH_QRPH_DYNAMIC for a dynamic QR Ph code, as enabled for your merchant account',
			'PH_QRPH_DYNAMIC',
		),
		...redirects(),
		partnerUserId(true),
		...notes(),
	],
};

const BDT: RequestRules = {
	path: collectApplyPath('BDT'),
	additionalProperties: true,
	fields: [
		orderId(),
		firstLastName('Rahim Uddin'),
		phone(true, "Payer's valid phone number"),
		email(true),
		amount(
			{ maxDecimals: 2, exactDecimals: 2, unit: 'BDT' },
			'Amount in BDT with exactly two decimals and no commas, e.g. 500.00',
			'500.00',
		),
		payType('Transaction type, as enabled for your merchant account', 'Transaction type'),
		inBankCode('Payment method code, as enabled for your merchant account', 'Payment method code'),
		...redirects(),
		partnerUserId(true),
		...notes(true),
		{
			name: 'country',
			displayName: 'Country',
			required: false,
			enum: ['458'],
			enumLabels: { '458': 'Cashier Mode (458)' },
			description: "HaiPay's cashier mode needs 458 here; leave it out otherwise",
		},
	],
};

export const LOCAL_COLLECTION_RULES: Record<LocalCollectionCurrency, RequestRules> = { BRL, IDR, PHP, BDT };

/** What a local collection's answer carries beside orderId and orderNo, for the rails that have each
 * (docs/haipay-node.md#collection--create-in-local-currencies-brl-idr-php-bdt). */
export const LOCAL_COLLECTION_ANSWER = [
	'payUrl',
	'qrCode',
	'bankNo',
	'bankCode',
	'bankUserName',
	'referenceCode',
	'exchangeRate',
	'orderAmount',
] as const;
