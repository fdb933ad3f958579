import { ORDER_ID_MAX_LENGTH } from './reads';
import type { FieldRule } from './types';

/**
 * Field rules shared by several requests. Where the contract marks no "required" column, a field is treated as
 * required when the contract lists it before `sign`, as the TZS table (which has the column) does.
 */

function isIpv4(text: string): boolean {
	const parts = text.split('.');
	return parts.length === 4 && parts.every((part) => /^(?:0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

/** A full IPv4 address, or an IPv6 address (`::` at most once, 1-4 hex digits a group, an IPv4 tail allowed). */
export function isIpAddress(text: string): boolean {
	if (isIpv4(text)) return true;
	if (!/^[0-9A-Fa-f:.]{2,45}$/.test(text)) return false;
	const halves = text.split('::');
	if (halves.length > 2) return false;
	const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
	let width = 8;
	const last = groups[groups.length - 1];
	if (last !== undefined && last.includes('.')) {
		if (!text.endsWith(last) || !isIpv4(last)) return false;
		groups.pop();
		width = 6;
	}
	if (!groups.every((group) => /^[0-9A-Fa-f]{1,4}$/.test(group))) return false;
	return halves.length === 2 ? groups.length < width : groups.length === width;
}

const PARTNER_USER_ID_PATTERN = /^[A-Za-z0-9\-~!@#$%&*()_]+$/;

export function orderId(): FieldRule {
	return {
		name: 'orderId',
		displayName: 'Order ID',
		required: true,
		maxLength: ORDER_ID_MAX_LENGTH,
		identifier: true,
		description:
			'Your unique ID for this order (at most 48 characters). Take it from your data, never generate it here: it is what makes a resend safe.',
		placeholder: 'PAYOUT-2026-000123',
	};
}

export function partnerUserId(required: boolean, maxLength?: number): FieldRule {
	return {
		name: 'partnerUserId',
		displayName: 'Partner User ID',
		required,
		pattern: PARTNER_USER_ID_PATTERN,
		allowedChars: /[A-Za-z0-9\-~!@#$%&*()_]/,
		patternText: 'letters, digits and -~!@#$%&*()_ only',
		maxLength,
		description: "Your stable ID for the recipient, used by HaiPay's risk control",
		placeholder: 'user-1234',
	};
}

/** English letters, 2 or 3 words ("first middle last", middle optional), no digits or symbols. */
export function englishName(required: boolean, maxLength = 30): FieldRule {
	return {
		name: 'name',
		displayName: 'Name',
		required,
		minLength: 1,
		maxLength,
		pattern: /^[A-Za-z]+(?: [A-Za-z]+){1,2}$/,
		allowedChars: /[A-Za-z ]/,
		patternText:
			"English letters only, as 'firstName lastName' or 'firstName middleName lastName' separated by single spaces",
		description: "Recipient's name in English letters: 'firstName middleName lastName', middle name optional",
		placeholder: 'Amina Juma',
	};
}

export function phone(required: boolean, description = "Recipient's real phone number"): FieldRule {
	return {
		name: 'phone',
		displayName: 'Phone',
		required,
		pattern: /^\+?[0-9]{6,20}$/,
		allowedChars: /[0-9+]/,
		patternText: 'digits, optionally after a leading +',
		description,
		placeholder: '255712345678',
	};
}

export function email(required: boolean): FieldRule {
	return {
		name: 'email',
		displayName: 'Email',
		required,
		format: 'email',
		maxLength: 254,
		description: "Recipient's real email address",
		placeholder: 'name@email.com',
	};
}

export function notifyUrl(): FieldRule {
	return {
		name: 'notifyUrl',
		displayName: 'Notify URL',
		required: false,
		format: 'url',
		maxLength: 1024,
		description:
			"Where HaiPay posts the result callback: paste the HaiPay Trigger node's production URL. Leave empty to use the URL set in HaiPay's merchant portal.",
		placeholder: 'https://n8n.example.com/webhook/haipay',
	};
}

export function subject(): FieldRule {
	return {
		name: 'subject',
		displayName: 'Subject',
		required: false,
		maxLength: 255,
		description: 'Payment note: title, product name or reason, at most 255 characters',
	};
}

export function body(): FieldRule {
	return {
		name: 'body',
		displayName: 'Body',
		required: false,
		maxLength: 1024,
		description: 'Detailed note, at most 1,024 characters',
	};
}

export function bankCode(required: boolean, description: string): FieldRule {
	return { name: 'bankCode', displayName: 'Bank Code', required, description, placeholder: 'Bank or wallet code' };
}

/** The kind of account decides what accountNo is, a wallet or a bank account, a card or a CLABE: who is paid. */
export function accountType(required: boolean, description: string): FieldRule {
	return {
		name: 'accountType',
		displayName: 'Account Type',
		required,
		description,
		decidesPayee: 'the kind of account accountNo is',
	};
}

export function accountNo(required: boolean, description: string): FieldRule {
	return { name: 'accountNo', displayName: 'Account Number', required, description };
}

/** The payer's real name as 'firstName lastName', as the USD card and the BDT collection pages ask. */
export function firstLastName(placeholder: string): FieldRule {
	return {
		name: 'name',
		displayName: 'Name',
		required: true,
		pattern: /^\S+(?: \S+)+$/,
		patternText: "'firstName lastName' separated by a space",
		maxLength: 100,
		description: "Payer's real name: 'firstName lastName' separated by a space",
		placeholder,
	};
}
