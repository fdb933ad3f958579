import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { ORDER_ID_MAX_LENGTH, ORDER_NO_MAX_LENGTH } from '../../shared/contract/rules/reads';
import type { RequestRules } from '../../shared/contract/rules/types';
import { ItemFailure } from '../../shared/gateway/outcome';
import { FIELDS_FROM_INPUT, FIELDS_FROM_PARAMETERS, fieldValues, inputValues } from '../descriptions/fromRules';
import { inexactNumbersInObject, inexactNumbersInText } from '../validation/numbers';
import { checkRequest, type RequestBody, type Violation } from '../validation/validate';
import { hasCollectionEntry, parameterValue } from './parameters';
import type { Prepared } from './types';

/** How an item's parameters become a checked request body, for the operations that share a shape. */

export function currencyOf(ctx: IExecuteFunctions, itemIndex: number, allowed: readonly string[]): string {
	const value = String(parameterValue(ctx, itemIndex, 'currency', '') ?? '').trim().toUpperCase();
	if (!allowed.includes(value)) {
		throw new ItemFailure('invalid', `"currency" must be one of ${allowed.join(', ')} (got "${value}")`, {
			field: 'currency',
			rule: 'enum',
		});
	}
	return value;
}

/**
 * Extra gateway fields from the options, for fields the contract may gain (TZS accepts none), and the numbers among
 * them that would not reach the gateway as written.
 */
function extraFields(ctx: IExecuteFunctions, itemIndex: number): { fields: Record<string, unknown>; violations: Violation[] } {
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

/** Checks an item against the rules; every broken rule is listed in one error that names the fields. */
function checkedBody(ctx: IExecuteFunctions, itemIndex: number, rules: RequestRules, values: Record<string, unknown>): RequestBody {
	const extra = extraFields(ctx, itemIndex);
	const checked = checkRequest(rules, values, extra.fields);
	const violations = [...checked.violations, ...extra.violations];
	if (violations.length > 0) {
		const first = violations[0];
		throw new ItemFailure('invalid', violations.map((violation) => violation.message).join('; '), {
			field: first.field,
			rule: first.rule,
		});
	}
	return checked.body;
}

/** A create's request for one item: the currency's rules, its top-level fields and "Additional Fields". */
export function prepareCreate(ctx: IExecuteFunctions, itemIndex: number, rules: RequestRules, currency: string): Prepared {
	const fromInput = parameterValue(ctx, itemIndex, 'fieldsFrom', FIELDS_FROM_PARAMETERS) === FIELDS_FROM_INPUT;
	const values = fromInput
		? inputValues(rules, ctx.getInputData()[itemIndex]?.json ?? {})
		: fieldValues(rules, (name, required) => {
				if (required) return parameterValue(ctx, itemIndex, name, '');
				const path = `additionalFields.${name}`;
				return hasCollectionEntry(ctx, 'additionalFields', name) ? parameterValue(ctx, itemIndex, path, undefined) : undefined;
			});
	const body = checkedBody(ctx, itemIndex, rules, values);
	return { path: rules.path, body, currency, orderId: String(body.orderId) };
}

/** The lookup keys of a query: orderId, orderNo, or both (orderNo is the faster one). */
export function lookupBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const text = (name: string) => {
		const value = parameterValue(ctx, itemIndex, name, '');
		return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	};
	const orderId = text('orderId');
	const orderNo = text('orderNo');
	if (orderId === '' && orderNo === '') {
		throw new ItemFailure('invalid', 'Give "orderId" (your order ID) or "orderNo" (HaiPay\'s order number), or both', {
			field: 'orderId',
			rule: 'required',
		});
	}
	if (orderId.length > ORDER_ID_MAX_LENGTH) {
		throw new ItemFailure('invalid', `"orderId" must be at most ${ORDER_ID_MAX_LENGTH} characters (got ${orderId.length})`, {
			field: 'orderId',
			rule: 'maxLength',
		});
	}
	if (orderNo.length > ORDER_NO_MAX_LENGTH) {
		throw new ItemFailure('invalid', `"orderNo" must be at most ${ORDER_NO_MAX_LENGTH} characters (got ${orderNo.length})`, {
			field: 'orderNo',
			rule: 'maxLength',
		});
	}
	return { ...(orderId ? { orderId } : {}), ...(orderNo ? { orderNo } : {}) };
}
