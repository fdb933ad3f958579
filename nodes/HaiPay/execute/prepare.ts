import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { ORDER_ID_MAX_LENGTH, ORDER_NO_MAX_LENGTH } from '../../shared/contract/rules/reads';
import type { RequestRules } from '../../shared/contract/rules/types';
import { ItemFailure } from '../../shared/gateway/outcome';
import { FIELDS_FROM_INPUT, FIELDS_FROM_PARAMETERS, inputValues, rulesAt } from '../descriptions/fromRules';
import { inexactNumbersInObject, inexactNumbersInText } from '../validation/numbers';
import { checkRequest, type RequestBody, type Violation } from '../validation/validate';
import { readFields } from './fieldGuard';
import { isFixedParameter, parameterValue } from './parameters';
import { refuseOtherCurrency } from './rowCurrency';
import { payeeConflicts } from './payee';
import type { Prepared } from './types';
import { trimmedText } from '../../shared/text';

/** How an item's parameters become a checked request body, for the operations that share a shape. */

/**
 * The item's currency: the Currency parameter's, checked against the operation's list. For a request whose amount
 * is in that currency (`amountIn`: a payout, a subscription), a fixed Currency that the item's own `currency`
 * contradicts refuses the item: its amount would be paid in another currency. A read, a refund (of a whole payment)
 * or a cancel names no amount, and an item of another currency feeding it is no contradiction.
 */
export function currencyOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	allowed: readonly string[],
	amountIn = false,
): string {
	const value = String(parameterValue(ctx, itemIndex, 'currency', '') ?? '')
		.trim()
		.toUpperCase();
	if (!allowed.includes(value)) {
		throw new ItemFailure('invalid', `"currency" must be one of ${allowed.join(', ')} (got "${value}")`, {
			field: 'currency',
			rule: 'enum',
		});
	}
	if (amountIn && isFixedParameter(ctx, 'currency')) refuseOtherCurrency(ctx, itemIndex, value, 'Currency');
	return value;
}

/**
 * Extra gateway fields from the options, for fields the contract may gain (TZS accepts none), and the numbers among
 * them that would not reach the gateway as written.
 */
function extraFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { fields: Record<string, unknown>; violations: Violation[] } {
	const options = (parameterValue(ctx, itemIndex, 'options', {}) ?? {}) as IDataObject;
	const raw = options.extraFields;
	if (raw === undefined || raw === '' || raw === null) return { fields: {}, violations: [] };
	const parsed = typeof raw === 'string' ? jsonParse<unknown>(raw, { fallbackValue: undefined }) : raw;
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new ItemFailure('invalid', '"extraFields" must be a JSON object such as {"field": "value"}', {
			field: 'extraFields',
			rule: 'type',
		});
	}
	const fields = parsed as Record<string, unknown>;
	return { fields, violations: typeof raw === 'string' ? inexactNumbersInText(raw) : inexactNumbersInObject(fields) };
}

/**
 * Checks an item against the rules; every broken rule is listed in one error that names the fields. A valid item's
 * warnings (what its fields' `warn` found) come with its body.
 */
function checkedBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rules: RequestRules,
	values: Record<string, unknown>,
	more: Violation[] = [],
): { body: RequestBody; warnings: string[] } {
	const extra = extraFields(ctx, itemIndex);
	const checked = checkRequest(rules, values, extra.fields);
	const violations = [...more, ...checked.violations, ...extra.violations];
	if (violations.length > 0) {
		const first = violations[0];
		throw new ItemFailure('invalid', violations.map((violation) => violation.message).join('; '), {
			field: first.field,
			rule: first.rule,
		});
	}
	return { body: checked.body, warnings: checked.warnings };
}

/**
 * A create's request for one item: the currency's rules, its top-level fields and "Additional Fields". With
 * `fromInput` false the fields come from the parameters only, whatever "Fields From" holds (a refund, whose input
 * items usually carry the collection's own orderId).
 */
export function prepareCreate(
	ctx: IExecuteFunctions,
	itemIndex: number,
	allRules: RequestRules,
	currency: string,
	fromInput = true,
): Prepared {
	// The fields of the node's own version: a saved workflow of an earlier one reads no field added since.
	const rules = rulesAt(allRules, ctx.getNode().typeVersion);
	const fromItem =
		fromInput && parameterValue(ctx, itemIndex, 'fieldsFrom', FIELDS_FROM_PARAMETERS) === FIELDS_FROM_INPUT;
	const values = fromItem
		? inputValues(rules, ctx.getInputData()[itemIndex]?.json ?? {})
		: readFields(ctx, itemIndex, rules, currency);
	const conflicts = fromItem ? [] : payeeConflicts(ctx, itemIndex, rules, values);
	const { body, warnings } = checkedBody(ctx, itemIndex, rules, values, conflicts);
	const takesNotifyUrl = rules.fields.some((field) => field.name === 'notifyUrl');
	return {
		path: rules.path,
		body,
		...(warnings.length > 0 ? { warnings } : {}),
		currency,
		orderId: String(body.orderId),
		takesNotifyUrl,
		absence: rules.queryShowsAbsence !== false,
	};
}

/** One key a query may look an order or a refund up by, with its limit and what it is, for the error message. */
export interface LookupKey {
	name: string;
	maxLength: number;
	what: string;
}

const ORDER_KEYS: readonly [LookupKey, LookupKey] = [
	{ name: 'orderId', maxLength: ORDER_ID_MAX_LENGTH, what: 'your order ID' },
	{ name: 'orderNo', maxLength: ORDER_NO_MAX_LENGTH, what: "HaiPay's order number" },
];

/** The lookup keys of a query: orderId, orderNo, or both (orderNo is the faster one); a refund's orderId and refundNo. */
export function lookupBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	keys: readonly [LookupKey, LookupKey] = ORDER_KEYS,
): IDataObject {
	const values = keys.map((key) => trimmedText(parameterValue(ctx, itemIndex, key.name, '')));
	if (values.every((value) => value === '')) {
		throw new ItemFailure(
			'invalid',
			`Give "${keys[0].name}" (${keys[0].what}) or "${keys[1].name}" (${keys[1].what}), or both`,
			{
				field: keys[0].name,
				rule: 'required',
			},
		);
	}
	keys.forEach((key, index) => {
		const length = values[index].length;
		if (length > key.maxLength) {
			throw new ItemFailure('invalid', `"${key.name}" must be at most ${key.maxLength} characters (got ${length})`, {
				field: key.name,
				rule: 'maxLength',
			});
		}
	});
	return Object.fromEntries(keys.flatMap((key, index) => (values[index] === '' ? [] : [[key.name, values[index]]])));
}
