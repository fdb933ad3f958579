import { checkAmount } from './amount';
import { codePoint, invisibleIn } from '../../shared/contract/rules/identifiers';
import type { FieldRule, RequestRules } from '../../shared/contract/rules/types';
import { looseName, readsAs, reservedUse } from '../../shared/signing/signable';

export interface Violation {
	field: string;
	/**
	 * Which rule failed: required, type, maxLength, minLength, enum, pattern, amount, maxDigits, format, invisible,
	 * address, checksum, network (a USDT wallet address), unknownField (and, beyond one item's fields, conflict, unique, separator, credential, reserved, number).
	 */
	rule: string;
	/** Says what is wrong and shows only the offending part of the value. */
	message: string;
}

export type RequestBody = Record<string, string | number>;

interface Checked {
	body: RequestBody;
	violations: Violation[];
	/** What the fields' `warn` found in valid values, which are sent as given. */
	warnings: string[];
}

/** A rule's own check, as a violation of `fallback` (pattern, amount) or of the rule it names. */
function checked(
	rule: FieldRule,
	text: string,
	fields: Record<string, unknown>,
	fallback: string,
): Violation | undefined {
	const problem = rule.check?.(text, fields);
	if (problem === undefined) return undefined;
	const [kind, reason] = typeof problem === 'string' ? [fallback, problem] : [problem.rule, problem.reason];
	return { field: rule.name, rule: kind, message: `"${rule.name}" ${reason}` };
}

/** Names that reach into an object's prototype when used as keys. */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Longest text an extra field may carry, as for the listed free-text fields. */
const EXTRA_FIELD_MAX_LENGTH = 1024;

/**
 * The field of the operation, or the field the signing itself uses (shared/signing/signable.ts, as the library's
 * signBody checks it), that an extra field's name stands for, as a gateway that binds names loosely (or a person)
 * might read it: `a_mount`, `AMOUNT` and `Order Id` would sign and send a second amount or order ID.
 */
function collision(name: string, known: readonly string[]): Violation | undefined {
	const loose = looseName(name);
	const field = known.find((other) => looseName(other) === loose);
	const why = field !== undefined ? `${readsAs(name, field)}, which has its own parameter` : reservedUse(name);
	if (why === undefined) return undefined;
	return {
		field: 'extraFields',
		rule: 'reserved',
		message: `The extra field "${name}" ${why}: it cannot be sent as an extra field`,
	};
}

/** Why an extra field's name may not be used, or undefined when it may. */
function refusedExtraName(name: string, known: readonly string[]): Violation | undefined {
	if (PROTOTYPE_NAMES.has(name))
		return { field: name, rule: 'unknownField', message: `"${name}" cannot be a field name` };
	const twin = collision(name, known);
	if (twin !== undefined) return twin;
	if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name)) {
		return {
			field: name,
			rule: 'unknownField',
			message: `"${name}" is not a field name: letters, digits and _ only, starting with a letter, at most 64`,
		};
	}
	return undefined;
}

/** Caps for text fields the contract gives no length for: far above any real value, far below a flood. */
const TEXT_MAX_LENGTH = 255;
const URL_MAX_LENGTH = 1024;

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
	return {
		field,
		rule: 'type',
		message: `"${field}" must be text (got ${Array.isArray(value) ? 'a list' : typeof value})`,
	};
}

function checkText(rule: FieldRule, text: string, fields: Record<string, unknown>): Violation | undefined {
	const field = rule.name;
	const violation = (kind: string, message: string): Violation => ({
		field,
		rule: kind,
		message: `"${field}" ${message}`,
	});
	const length = [...text].length;
	const maxLength = rule.maxLength ?? (rule.format === 'url' ? URL_MAX_LENGTH : TEXT_MAX_LENGTH);
	if (rule.minLength !== undefined && length < rule.minLength) {
		return violation('minLength', `must be at least ${rule.minLength} characters (got ${length})`);
	}
	if (length > maxLength) {
		return violation('maxLength', `must be at most ${maxLength} characters (got ${length})`);
	}
	const hidden = rule.identifier ? invisibleIn(text) : undefined;
	if (hidden !== undefined) {
		return violation(
			'invisible',
			`must not hold a character nobody sees: ${codePoint(hidden.char)} at character ${hidden.position}; HaiPay would take it as another ID than the one it looks like`,
		);
	}
	if (rule.enum !== undefined && !rule.enum.includes(text)) {
		return violation('enum', `must be one of ${rule.enum.join(', ')} (got "${text}")`);
	}
	if (rule.pattern !== undefined && !rule.pattern.test(text)) {
		const bad = rule.allowedChars ? offendingChars(text, rule.allowedChars) : '';
		const detail = bad ? ` (found "${bad}")` : '';
		return violation('pattern', `must be ${rule.patternText ?? `in the form ${rule.pattern.source}`}${detail}`);
	}
	if (rule.format === 'email' && !EMAIL.test(text))
		return violation('format', 'must be an email address such as name@email.com');
	if (rule.format === 'url' && !isHttpUrl(text)) return violation('format', 'must be a full http:// or https:// URL');
	return checked(rule, text, fields, 'pattern');
}

function checkField(
	rule: FieldRule,
	value: unknown,
	fields: Record<string, unknown>,
): { value: string | number } | Violation {
	const field = rule.name;
	if (rule.amount !== undefined) {
		const result = checkAmount(value, rule.amount);
		if ('problem' in result) return { field, rule: result.rule ?? 'amount', message: `"${field}" ${result.problem}` };
		// A least amount that depends on another field (the cashier's USD minimum) is the rule's own check.
		return checked(rule, String(result.value), fields, 'amount') ?? result;
	}
	if (rule.integerEnum !== undefined) {
		const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
		if (typeof number !== 'number' || !rule.integerEnum.includes(number)) {
			return {
				field,
				rule: 'enum',
				message: `"${field}" must be one of ${rule.integerEnum.join(', ')} (got ${JSON.stringify(value)})`,
			};
		}
		return { value: number };
	}
	if (rule.integer !== undefined) {
		const number = typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < rule.integer.min) {
			return {
				field,
				rule: 'integer',
				message: `"${field}" must be a whole number of at least ${rule.integer.min} (got ${JSON.stringify(value)})`,
			};
		}
		return { value: number };
	}
	const text = asText(field, value);
	if (!('text' in text)) return text;
	return checkText(rule, text.text, fields) ?? { value: text.text };
}

/** A missing field; one that decides who is paid, or how much or how often, says that it is never taken from a default. */
function requiredMessage(rule: FieldRule): string {
	if (rule.decidesMoney !== undefined)
		return `"${rule.name}" is required: it decides ${rule.decidesMoney}, so it is never sent from a default: choose it on the node, map it with an expression, or give it in the item's field of that name`;
	if (rule.decidesPayee === undefined) return `"${rule.name}" is required`;
	return `"${rule.name}" is required: it decides who is paid (${rule.decidesPayee}), so it is never sent from a default: choose it on the node, map it with an expression, or give it in the item's field of that name`;
}

/**
 * Checks one item's fields against a request's rules and builds the body to sign. Every rule is checked and
 * every violation reported, so a spreadsheet row can be fixed in one go. Absent optional fields are left out.
 */
export function checkRequest(
	rules: RequestRules,
	fields: Record<string, unknown>,
	extra: Record<string, unknown> = {},
): Checked {
	const body: RequestBody = {};
	const violations: Violation[] = [];
	const warnings: string[] = [];
	for (const rule of rules.fields) {
		const value = fields[rule.name];
		if (isAbsent(value)) {
			if (rule.required) violations.push({ field: rule.name, rule: 'required', message: requiredMessage(rule) });
			else if (rule.requiredWhen?.applies(fields)) {
				violations.push({
					field: rule.name,
					rule: 'required',
					message: `"${rule.name}" is required when ${rule.requiredWhen.when}`,
				});
			}
			continue;
		}
		const result = checkField(rule, value, fields);
		if (!('value' in result)) {
			violations.push(result);
			continue;
		}
		if (!rule.nodeOnly) body[rule.name] = result.value;
		const warning = rule.warn?.(String(result.value), fields);
		if (warning !== undefined) warnings.push(`"${rule.name}" ${warning}`);
	}
	const known = rules.fields.map((rule) => rule.name);
	for (const [name, value] of Object.entries(extra)) {
		const refused = refusedExtraName(name, known);
		if (refused !== undefined) {
			violations.push(refused);
		} else if (isAbsent(value)) {
			continue;
		} else if (!rules.additionalProperties) {
			violations.push({
				field: name,
				rule: 'unknownField',
				message: `"${name}" is not a field of ${rules.path}, which accepts no other fields`,
			});
		} else if (typeof value === 'string' && [...value].length > EXTRA_FIELD_MAX_LENGTH) {
			violations.push({
				field: name,
				rule: 'maxLength',
				message: `"${name}" must be at most ${EXTRA_FIELD_MAX_LENGTH} characters`,
			});
		} else if (
			typeof value === 'string' ||
			(typeof value === 'number' && Number.isFinite(value)) ||
			typeof value === 'boolean'
		) {
			body[name] = typeof value === 'boolean' ? String(value) : value;
		} else {
			violations.push({ field: name, rule: 'type', message: `"${name}" must be text or a number` });
		}
	}
	return { body, violations, warnings };
}
