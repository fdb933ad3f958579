import { applyPath } from '../paths';
import {
	accountNo,
	accountType,
	bankCode,
	body,
	email,
	englishName,
	notifyUrl,
	orderId,
	partnerUserId,
	phone,
	subject,
} from './common';
import { RAIL_CURRENCIES, RAIL_RULES } from './rails';
import type { FieldRule, RequestRules } from './types';

/**
 * The payout (disbursement) applications of docs/contract.md §4.1, §4.2, §4.4, §4.5 and §4.6, then the rails whose
 * rules HaiPay's pages give (rails/). The first is the node's default currency.
 */
export const PAYOUT_CURRENCIES = ['TZS', 'ZAR', 'NGN', 'EGP', 'BDT', ...RAIL_CURRENCIES] as const;
export type PayoutCurrency = (typeof PAYOUT_CURRENCIES)[number];

/** The optional notes every application takes. */
function notes(): FieldRule[] {
	return [notifyUrl(), subject(), body()];
}

/** Recipient contact and risk-control fields, required, as TZS, ZAR, EGP and BDT list them. */
function contact(name: FieldRule, phoneRule: FieldRule = phone(true)): FieldRule[] {
	return [name, phoneRule, email(true), partnerUserId(true)];
}

function amount(rule: FieldRule['amount'], description: string): FieldRule {
	return { name: 'amount', displayName: 'Amount', required: true, amount: rule, description, placeholder: '1000' };
}

const TZS: RequestRules = {
	path: applyPath('TZS'),
	additionalProperties: false,
	fields: [
		orderId(),
		amount(
			{ maxDecimals: 2, min: '1000', max: '5000000', unit: 'TZS' },
			'Amount in TSh, 1,000 to 5,000,000, up to 2 decimals',
		),
		{
			...accountType(true, 'Mobile money only'),
			enum: ['EWALLET'],
			enumLabels: { EWALLET: 'E-Wallet (Mobile Money)' },
		},
		{
			...bankCode(true, 'The mobile money operator'),
			enum: ['AIRTEL', 'HALOPESA', 'TIGO', 'VODACOM'],
			decidesPayee: 'the operator whose wallet accountNo is',
			enumLabels: { AIRTEL: 'Airtel Money', HALOPESA: 'HaloPesa', TIGO: 'Tigo Pesa', VODACOM: 'Vodacom M-Pesa' },
		},
		{
			...accountNo(true, 'Tanzanian mobile number: 12 digits starting with 255'),
			pattern: /^255\d{9}$/,
			allowedChars: /[0-9]/,
			patternText: '12 digits starting with 255',
			placeholder: '255712345678',
		},
		...contact(englishName(true)),
		...notes(),
	],
};

const ZAR: RequestRules = {
	path: applyPath('ZAR'),
	additionalProperties: true,
	fields: [
		orderId(),
		amount(
			{ maxDecimals: 2, min: '1', max: '10000000', unit: 'ZAR' },
			'Amount in ZAR, 1 to 10,000,000, up to 2 decimals',
		),
		{
			...accountType(true, 'Bank accounts only'),
			enum: ['BANK_ACCOUNT'],
			enumLabels: { BANK_ACCOUNT: 'Bank Account' },
		},
		bankCode(true, "The recipient's bank code, as enabled for your merchant account"),
		{ ...accountNo(true, "The recipient's bank account number"), placeholder: '62000000000' },
		...contact(englishName(true)),
		...notes(),
	],
};

/** Contract 4.4 gives this pattern verbatim; the text also says "up to 2 decimal places", so both apply. */
const NGN_AMOUNT = /^((([1-9]\d*)(\.\d{1,4})?)|(0\.(?!0+$)\d{1,4}))$/;

const NGN: RequestRules = {
	path: applyPath('NGN'),
	additionalProperties: true,
	fields: [
		orderId(),
		amount(
			{ maxDecimals: 2, pattern: NGN_AMOUNT, unit: 'NGN' },
			'Amount in NGN, up to 2 decimals; limits follow your merchant configuration',
		),
		accountType(true, 'An account type enabled in your merchant configuration'),
		bankCode(true, 'A bank code enabled in your merchant payment-code configuration'),
		{
			...accountNo(true, 'Recipient account: exactly 10 digits'),
			pattern: /^\d{10}$/,
			allowedChars: /[0-9]/,
			patternText: 'exactly 10 digits',
			placeholder: '0123456789',
		},
		{
			...englishName(true),
			maxLength: undefined,
			minLength: undefined,
			pattern: /^[A-Za-z ]+$/,
			patternText: 'English letters and spaces only',
			check: (value) =>
				/[A-Za-z]+ +[A-Za-z]+/.test(value) ? undefined : 'needs at least a first and a last name separated by a space',
			description: 'Recipient name in English: at least first and last name, separated by a space',
		},
		phone(false),
		email(false),
		...notes(),
		partnerUserId(false, 64),
	],
};

/** Egyptian wallets: +2 then a mobile number on carriers 010, 011 or 012 (docs/contract.md §4.5). */
const EGP_WALLET = /^\+201[012]\d{8}$/;

const EGP: RequestRules = {
	path: applyPath('EGP'),
	additionalProperties: true,
	fields: [
		orderId(),
		amount({ maxDecimals: 2, unit: 'EGP' }, 'Amount in Egyptian pounds'),
		accountType(true, 'The account type enabled for your merchant account (a bank account type)'),
		bankCode(true, 'The bank or wallet code'),
		{
			...accountNo(true, 'Bank account, or a wallet as +2 and the mobile number (carriers 010, 011, 012 only)'),
			placeholder: '+201012345678',
			check: (value, fields) => {
				const wallet = value.startsWith('+') || /WALLET/i.test(String(fields.accountType ?? ''));
				if (wallet && !EGP_WALLET.test(value)) {
					return 'a wallet number must be +2 followed by an 11-digit mobile number on carrier 010, 011 or 012, e.g. +201012345678';
				}
				if (!wallet && !/^[0-9A-Za-z-]+$/.test(value))
					return 'a bank account number may hold letters, digits and - only';
				return undefined;
			},
		},
		...contact(
			{ name: 'name', displayName: 'Name', required: true, maxLength: 100, description: "Recipient's name" },
			{
				...phone(true, 'Recipient mobile number in the +2 format'),
				pattern: /^\+20\d{10}$/,
				patternText: '+2 followed by an 11-digit mobile number, e.g. +201012345678',
				placeholder: '+201012345678',
			},
		),
		...notes(),
	],
};

const BDT: RequestRules = {
	path: applyPath('BDT'),
	additionalProperties: true,
	fields: [
		orderId(),
		amount({ maxDecimals: 0, min: '1', unit: 'BDT' }, 'Amount in BDT: whole numbers only, no decimals or commas'),
		{
			...accountType(true, 'E-wallet or bank account'),
			enum: ['BANK_ACCOUNT', 'EWALLET'],
			enumLabels: { BANK_ACCOUNT: 'Bank Account', EWALLET: 'E-Wallet' },
		},
		bankCode(true, 'The bank or wallet code'),
		accountNo(true, "The recipient's account number"),
		...contact({
			...englishName(true),
			pattern: /^[A-Za-z\s'.-]+$/,
			allowedChars: /[A-Za-z\s'.-]/,
			patternText: "English letters, spaces and ' . - only",
			description: "Recipient's name in English: 'firstName middleName lastName', middle name optional; ' . - allowed",
		}),
		...notes(),
	],
};

export const PAYOUT_RULES: Record<PayoutCurrency, RequestRules> = { TZS, ZAR, NGN, EGP, BDT, ...RAIL_RULES };
