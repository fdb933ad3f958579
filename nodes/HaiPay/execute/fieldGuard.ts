import type { IExecuteFunctions } from 'n8n-workflow';

import { hasCatalogue, searchCatalogue, type CatalogueField } from '../../shared/contract/catalogue';
import type { FieldRule, RequestRules } from '../../shared/contract/rules/types';
import type { OrderKind } from '../../shared/contract/statuses';
import { ItemFailure } from '../../shared/gateway/outcome';
import { fieldShape, parameterName, type FieldShape } from '../descriptions/fieldNames';
import { ONE_TYPE_PER_NAME_FROM } from '../descriptions/versions';
import { hasCollectionEntry, parameterValue, rawParameter } from './parameters';

/*
 * n8n keeps a parameter's value when the currency, resource or operation changes and another parameter of the same
 * name shows instead. Node versions 1 to 3 give some names more than one kind (a ZAR list, an NGN text field, a TZS
 * drop-down: all "bankCode"), so a value chosen under one currency may sit under another's field, where it shows as
 * "[object Object]" or as a code of another list. Whatever the version, a value is sent only as the current field
 * offers it: of that field's kind, and, picked from a list, in that currency's list. Anything else refuses the item,
 * naming the field; it is never sent.
 */

/** Whose codes the lists hold: a collection's payType and inBankCode, a payout's bankCode. */
export function catalogueKind(ctx: IExecuteFunctions): OrderKind {
	return ctx.getNodeParameter('resource', 0) === 'collection' ? 'collection' : 'payout';
}

interface Locator {
	__rl: true;
	mode?: unknown;
	value?: unknown;
}

function isLocator(value: unknown): value is Locator {
	return value !== null && typeof value === 'object' && (value as { __rl?: unknown }).__rl === true;
}

const KIND_WORDS: Record<FieldShape, string> = { text: 'a text field', options: 'a drop-down', list: 'a list' };

function refuse(rule: FieldRule, rulesName: string, message: string): never {
	throw new ItemFailure('invalid', `"${rule.name}" ${message}`, { field: rule.name, rule: rulesName });
}

interface Place {
	version: number;
	shape: FieldShape;
	path: string;
	currency: string;
	kind: OrderKind;
}

/** A list's pick is one of the currency's codes, unless it is an expression (a sheet's column, checked as a code). */
function listCode(ctx: IExecuteFunctions, rule: FieldRule, value: Locator, place: Place): unknown {
	const raw = rawParameter(ctx, place.path);
	const mapped = isLocator(raw) && typeof raw.value === 'string' && raw.value.startsWith('=');
	const code = value.value;
	if (value.mode !== 'list' || mapped || typeof code !== 'string' || code === '') return code;
	const codes = searchCatalogue(place.kind, rule.name as CatalogueField, place.currency).map((choice) => choice.value);
	if (codes.includes(code)) return code;
	return refuse(
		rule,
		'list',
		`"${code}" is not in HaiPay's list for ${place.currency} (${codes.join(', ')}): it was picked under another currency, resource or operation; pick it again from the list, or give it By Code`,
	);
}

/** The value as the request sends it, or a refusal naming the field when the current field does not offer it. */
function offered(ctx: IExecuteFunctions, rule: FieldRule, value: unknown, place: Place): unknown {
	if (value === undefined || value === null || value === '') return value;
	const here = `this field is ${KIND_WORDS[place.shape]} for ${place.currency || 'this operation'}`;
	if (isLocator(value)) {
		if (place.shape === 'list') return listCode(ctx, rule, value, place);
		return refuse(
			rule,
			'type',
			`holds a code picked from a list under another currency, resource or operation, which is never sent: ${here}; set it again`,
		);
	}
	if (typeof value === 'object') return refuse(rule, 'type', `holds an object, not a value: ${here}; set it again`);
	// Plain text in a list is a code By Code where no text field shares the list's name (version 4: a workflow written
	// by hand), and a mapping always; in version 3 it may be a code typed under another currency's text field.
	const raw = rawParameter(ctx, place.path);
	const mapping = typeof raw === 'string' && raw.startsWith('=');
	if (place.shape === 'list' && !mapping && place.version < ONE_TYPE_PER_NAME_FROM) {
		return refuse(
			rule,
			'type',
			`holds "${String(value)}", set in a field of another currency, resource or operation: ${here}; pick it from the list or give it By Code`,
		);
	}
	return value;
}

/**
 * The values of a request's fields for one item, from the parameters: each field read under its name for the node's
 * version and the item's currency, and sent only as that field offers it.
 */
export function readFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rules: RequestRules,
	currency: string,
): Record<string, unknown> {
	const version = ctx.getNode().typeVersion;
	const kind = catalogueKind(ctx);
	const values: Record<string, unknown> = {};
	for (const rule of rules.fields) {
		const shape = fieldShape(rule, version, hasCatalogue(kind, rule.name, currency));
		const name = parameterName(rule.name, shape, version);
		const path = rule.required ? name : `additionalFields.${name}`;
		if (!rule.required && !hasCollectionEntry(ctx, 'additionalFields', name)) {
			values[rule.name] = undefined;
			continue;
		}
		const value = parameterValue(ctx, itemIndex, path, rule.required ? '' : undefined);
		values[rule.name] = offered(ctx, rule, value, { version, shape, path, currency, kind });
	}
	return values;
}
