import { applyPath } from '../../paths';
import { accountType, body, email, notifyUrl, orderId, partnerUserId, phone, subject } from '../common';
import type { AmountRule, FieldRule, PageSource, RequestRules } from '../types';

/**
 * Field builders for the payout rails beyond docs/contract.md, whose rules come from HaiPay's API page for each
 * currency (docs/haipay-facts.md, "Payout rails", gives the page and what it says, rule by rule).
 */

/** HaiPay's payout page of a currency. */
function payApplyPage(currency: string): string {
	return `https://doc.haipay.net/docs/en/api-reference/${currency.toLowerCase()}/api/payApply`;
}

function source(currency: string, certainty: PageSource['certainty'], page = payApplyPage(currency)): PageSource {
	return { certainty, page };
}

/**
 * A payout application's rules: orderId first, then the currency's fields, then the optional notes. `page` where
 * HaiPay's page is not at the usual address (USDT's is under usdtc).
 */
export function payApply(
	currency: string,
	certainty: PageSource['certainty'],
	fields: FieldRule[],
	page?: string,
): RequestRules {
	const given = new Set(fields.map((field) => field.name));
	const notes = [notifyUrl(), subject(), body()].filter((note) => !given.has(note.name));
	return {
		path: applyPath(currency),
		additionalProperties: true,
		source: source(currency, certainty, page),
		fields: [orderId(), ...fields, ...notes],
	};
}

/**
 * A rail in a file of its own (rails/index.ts lists them): its currency's code, the name the currency lists show,
 * and its rules. The code is the path's prefix, `/usdt/pay/apply`.
 */
export interface Rail<C extends string = string> {
	currency: C;
	name: string;
	rules: RequestRules;
}

export function rail<C extends string>(currency: C, name: string, rules: RequestRules): Rail<C> {
	return { currency, name, rules };
}

export function amount(rule: AmountRule, description: string, placeholder = '1000.00'): FieldRule {
	return { name: 'amount', displayName: 'Amount', required: true, amount: rule, description, placeholder };
}

/** `^\d+\.\d{2}$` on the page: exactly two decimals, so a number 25 is written "25.00" and the text "25" refused. */
export function twoDecimals(
	unit: string,
	description = `Amount in ${unit} with exactly two decimals and no commas, e.g. 1000.00`,
): FieldRule {
	return amount({ maxDecimals: 2, exactDecimals: 2, unit }, description);
}

const ACCOUNT_TYPE_LABELS: Record<string, string> = {
	BANK_ACCOUNT: 'Bank Account',
	EWALLET: 'E-Wallet',
	BANK_CARD: 'Debit Card',
};

/** An account type whose values the page lists. */
export function accountTypes(values: string[], description: string, labels: Record<string, string> = {}): FieldRule {
	const enumLabels = Object.fromEntries(
		values.map((value) => [value, labels[value] ?? ACCOUNT_TYPE_LABELS[value] ?? value]),
	);
	return { ...accountType(true, description), enum: values, enumLabels };
}

/** Letters, spaces and ' . - only, 1-30 characters: `^[A-Za-z\s'.-]+$` on most rails' pages. */
export function lettersName(description = "Recipient's name in English letters; spaces and ' . - allowed"): FieldRule {
	return {
		name: 'name',
		displayName: 'Name',
		required: true,
		minLength: 1,
		maxLength: 30,
		pattern: /^[A-Za-z\s'.-]+$/,
		allowedChars: /[A-Za-z\s'.-]/,
		patternText: "English letters, spaces and ' . - only",
		description,
		placeholder: 'Maria Santos',
	};
}

/** A name the page gives no rule for: required, and no longer than the house's cap for free text. */
export function plainName(description = "Recipient's name"): FieldRule {
	return { name: 'name', displayName: 'Name', required: true, description, placeholder: 'Maria Santos' };
}

/** A phone the page gives a pattern for. */
export function phoneAs(pattern: RegExp, patternText: string, placeholder: string): FieldRule {
	return { ...phone(true, `Recipient's mobile number: ${patternText}`), pattern, patternText, placeholder };
}

/** Phone, email and partnerUserId, required, as every rail's page lists them. */
export function contact(phoneRule: FieldRule = phone(true)): FieldRule[] {
	return [phoneRule, email(true), partnerUserId(true)];
}

/** Text of an item's field as the checks compare it: trimmed, upper case. */
export function upper(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim().toUpperCase() : '';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
	return EMAIL.test(value);
}

/** An IBAN's shape (ISO 13616), as HaiPay's EUR page gives it. Check digits are not computed: no page asks for it. */
export const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/;
