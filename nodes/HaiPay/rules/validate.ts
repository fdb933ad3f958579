import { checkAmount } from './amount';
import type { FieldRule, RequestRules } from './types';

export interface Violation {
	field: string;
	/** Which rule failed: required, type, maxLength, minLength, enum, pattern, amount, format, unknownField. */
	rule: string;
	/** Says what is wrong and shows only the offending part of the value. */
	message: string;
}

export type RequestBody = Record<string, string | number>;

export interface Checked {
	body: RequestBody;
	violations: Violation[];
}

/** Fields that the credential sets; a workflow may not supply them. */
const RESERVED = new Set(['appId', 'sign']);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isAbsent(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function offendingChars(value: string, allowed: RegExp): string {
	return [...new Set([...value].filter((char) => !allowed.test(char)))].join('');
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/** A cell that arrived as a number becomes its digits, when they are exact (account numbers, phones). */
function asText(field: string, value: unknown): { text: string } | Violation {
	if (typeof value === 'string') return { text: value.trim() };
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return { text: String(value) };
	if (typeof value === 'number') {
		return {
			field,
			rule: 'type',
			message: `"${field}" arrived as the number ${value}, which cannot be written exactly: format that column as text`,
		};
	}
	return { field, rule: 'type', message: `"${field}" must be text (got ${Array.isArray(value) ? 'a list' : typeof value})` };
}

function checkText(rule: FieldRule, text: string, fields: Record<string, unknown>): Violation | undefined {
	const field = rule.name;
	const violation = (kind: string, message: string): Violation => ({ field, rule: kind, message: `"${field}" ${message}` });
	const length = [...text].length;
	if (rule.minLength !== undefined && length < rule.minLength) {
		return violation('minLength', `must be at least ${rule.minLength} characters (got ${length})`);
	}
	if (rule.maxLength !== undefined && length > rule.maxLength) {
		return violation('maxLength', `must be at most ${rule.maxLength} characters (got ${length})`);
	}
	if (rule.enum !== undefined && !rule.enum.includes(text)) {
		return violation('enum', `must be one of ${rule.enum.join(', ')} (got "${text}")`);
	}
	if (rule.pattern !== undefined && !rule.pattern.test(text)) {
		const bad = rule.allowedChars ? offendingChars(text, rule.allowedChars) : '';
		const detail = bad ? ` (found "${bad}")` : '';
		return violation('pattern', `must be ${rule.patternText ?? `in the form ${rule.pattern.source}`}${detail}`);
	}
	if (rule.format === 'email' && !EMAIL.test(text)) return violation('format', 'must be an email address such as name@email.com');
	if (rule.format === 'url' && !isHttpUrl(text)) return violation('format', 'must be a full http:// or https:// URL');
	const reason = rule.check?.(text, fields);
	return reason === undefined ? undefined : violation('pattern', reason);
}

function checkField(rule: FieldRule, value: unknown, fields: Record<string, unknown>): { value: string | number } | Violation {
	const field = rule.name;
	if (rule.amount !== undefined) {
		const result = checkAmount(value, rule.amount);
		return 'problem' in result ? { field, rule: 'amount', message: `"${field}" ${result.problem}` } : result;
	}
	if (rule.integerEnum !== undefined) {
		const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
		if (typeof number !== 'number' || !rule.integerEnum.includes(number)) {
			return { field, rule: 'enum', message: `"${field}" must be one of ${rule.integerEnum.join(', ')} (got ${JSON.stringify(value)})` };
		}
		return { value: number };
	}
	const text = asText(field, value);
	if (!('text' in text)) return text;
	return checkText(rule, text.text, fields) ?? { value: text.text };
}

/**
 * Checks one item's fields against a request's rules and builds the body to sign. Every rule is checked and
 * every violation reported, so a spreadsheet row can be fixed in one go. Absent optional fields are left out.
 */
export function checkRequest(rules: RequestRules, fields: Record<string, unknown>, extra: Record<string, unknown> = {}): Checked {
	const body: RequestBody = {};
	const violations: Violation[] = [];
	for (const rule of rules.fields) {
		const value = fields[rule.name];
		if (isAbsent(value)) {
			if (rule.required) violations.push({ field: rule.name, rule: 'required', message: `"${rule.name}" is required` });
			continue;
		}
		const result = checkField(rule, value, fields);
		if ('value' in result) body[rule.name] = result.value;
		else violations.push(result);
	}
	const known = new Set(rules.fields.map((rule) => rule.name));
	for (const [name, value] of Object.entries(extra)) {
		if (isAbsent(value)) continue;
		if (RESERVED.has(name) || known.has(name)) {
			violations.push({ field: name, rule: 'unknownField', message: `"${name}" cannot be set as an extra field: use its own parameter` });
		} else if (!rules.additionalProperties) {
			violations.push({ field: name, rule: 'unknownField', message: `"${name}" is not a field of ${rules.path}, which accepts no other fields` });
		} else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
			body[name] = typeof value === 'boolean' ? String(value) : value;
		} else {
			violations.push({ field: name, rule: 'type', message: `"${name}" must be text or a number` });
		}
	}
	return { body, violations };
}
