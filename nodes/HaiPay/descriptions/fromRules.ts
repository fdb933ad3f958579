import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { hasCatalogue, type CatalogueField } from '../../shared/contract/catalogue';
import type { FieldRule, RequestRules } from '../../shared/contract/rules/types';
import type { OrderKind } from '../../shared/contract/statuses';
import { catalogueParameter } from './catalogue';
import { fieldShape, parameterName } from './fieldNames';
import {
	LATEST_VERSION,
	NO_MONEY_DEFAULTS_FROM,
	NO_PAYEE_DEFAULTS_FROM,
	NODE_VERSIONS,
	type NodeVersion,
} from './versions';

/**
 * Turns the contract's field rules into node parameters, so what the panel shows and what is checked before
 * signing can never drift apart. Required fields are top-level; optional ones go into "Additional Fields".
 */

interface Scope {
	resource: string;
	operation: string;
	/** Currencies these rules apply to, or none for a single-currency operation. */
	currency?: string[];
	/** Whose codes the method catalogue lists for this operation's code fields (node version 3 on). */
	catalogue?: OrderKind;
}

/**
 * Field parameters show only while fields are mapped one by one (see `fieldsFromParameter`), for the currencies and
 * node versions given (all versions when none are).
 */
function show(scope: Scope, versions: readonly NodeVersion[] = NODE_VERSIONS): INodeProperties['displayOptions'] {
	const conditions: Record<string, Array<string | number>> = {
		resource: [scope.resource],
		operation: [scope.operation],
		fieldsFrom: [FIELDS_FROM_PARAMETERS],
	};
	// n8n reads the conditions in order and shows the parameter at the first one whose value is an expression, so the
	// version goes before the currency: a currency mapped from the sheet must not show another version's field.
	if (versions.length < NODE_VERSIONS.length) conditions['@version'] = [...versions];
	if (scope.currency) conditions.currency = scope.currency;
	return { show: conditions };
}

export const FIELDS_FROM_PARAMETERS = 'parameters';
export const FIELDS_FROM_INPUT = 'input';

/**
 * Where a create takes its fields: one parameter per field (expressions, the n8n way), or straight from the
 * input item's fields of the same names, which suits a spreadsheet whose columns are named after the gateway's
 * fields and costs no expression per field and row.
 */
export function fieldsFromParameter(resource: string, operation: string): INodeProperties {
	return {
		displayName: 'Fields From',
		name: 'fieldsFrom',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Parameters Below',
				value: FIELDS_FROM_PARAMETERS,
				description:
					'Set each field below, with a fixed value or an expression. The fields are those of the Currency chosen above: with the currency as an expression, use Input Item Fields instead.',
			},
			{
				name: 'Input Item Fields of the Same Names',
				value: FIELDS_FROM_INPUT,
				description:
					'Read orderId, amount, accountNo, name and every other field from the input item, by their gateway names. Other fields of the item are ignored.',
			},
		],
		default: FIELDS_FROM_PARAMETERS,
		displayOptions: { show: { resource: [resource], operation: [operation] } },
	};
}

/** Whether a node version has a field: every version has it, unless the rule names the first one (`since`). */
export function hasField(rule: FieldRule, version: number): boolean {
	return rule.since === undefined || version >= rule.since;
}

/** A request's rules as a node version reads them: without the fields a later version introduced. */
export function rulesAt(rules: RequestRules, version: number): RequestRules {
	return rules.fields.every((rule) => hasField(rule, version))
		? rules
		: { ...rules, fields: rules.fields.filter((rule) => hasField(rule, version)) };
}

/** Whether a drop-down starts on nothing in a node version: one deciding who is paid from 2, how much or how often from 4. */
function startsEmpty(rule: FieldRule, version: NodeVersion): boolean {
	if (rule.decidesPayee !== undefined && version >= NO_PAYEE_DEFAULTS_FROM) return true;
	return rule.decidesMoney !== undefined && version >= NO_MONEY_DEFAULTS_FROM;
}

/** The values of a request's fields for one item, from the item itself by their gateway names. */
export function inputValues(rules: RequestRules, json: Record<string, unknown>): Record<string, unknown> {
	const values: Record<string, unknown> = {};
	for (const rule of rules.fields) values[rule.name] = json[rule.name];
	return values;
}

function options(rule: FieldRule): INodePropertyOptions[] {
	return (rule.enum ?? [])
		.map((value) => ({ name: rule.enumLabels?.[value] ?? value, value }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** The drop-down entry of a field that decides who is paid (node version 2 on), or how much or how often (4 on), before anything is chosen. */
export const NOT_CHOSEN = { name: 'Choose…', value: '' };

/**
 * The parameter for one field in one node version, without display conditions. A code field the method catalogue
 * lists codes for (`catalogued`, for the currency at hand) is a list to pick from, from version 3. A drop-down starts on its first
 * value, except, from version 2, one that decides who is paid: n8n would send that first value for every item the
 * user never looked at (and, with the currency an expression, for every currency's field of that name), so it starts
 * on nothing, and an item without a choice is refused.
 */
export function parameterFor(
	rule: FieldRule,
	version: NodeVersion = LATEST_VERSION,
	catalogued = false,
): INodeProperties {
	const shape = fieldShape(rule, version, catalogued);
	const name = parameterName(rule.name, shape, version);
	if (shape === 'list') return { ...catalogueParameter({ ...rule, name: rule.name as CatalogueField }), name };
	const base = {
		displayName: rule.displayName,
		name,
		description: rule.description,
	};
	if (rule.enum) {
		const choices = options(rule);
		if (startsEmpty(rule, version)) {
			const description = `${rule.description}. Nothing is chosen at first: choose one, or map it from the item; an item without one is refused, never paid on a guess.`;
			return { ...base, description, type: 'options', options: [NOT_CHOSEN, ...choices], default: NOT_CHOSEN.value };
		}
		const first = rule.integerEnum ? String(rule.integerEnum[0]) : rule.enum[0];
		return { ...base, type: 'options', options: choices, default: first };
	}
	return { ...base, type: 'string', default: '', placeholder: rule.placeholder };
}

interface Entry {
	currency: string;
	version: NodeVersion;
	property: INodeProperties;
}

interface Group {
	currencies: string[];
	versions: NodeVersion[];
	property: INodeProperties;
}

/**
 * Groups identical parameters across currencies and node versions, so a field shared by all shows once; one that
 * differs between versions shows, per version, for the currencies that have it so.
 */
function merged(entries: Entry[]): Group[] {
	const byProperty = new Map<string, { property: INodeProperties; versionsOf: Map<string, NodeVersion[]> }>();
	for (const { currency, version, property } of entries) {
		const key = JSON.stringify(property);
		const group = byProperty.get(key) ?? { property, versionsOf: new Map<string, NodeVersion[]>() };
		group.versionsOf.set(currency, [...(group.versionsOf.get(currency) ?? []), version]);
		byProperty.set(key, group);
	}
	const groups: Group[] = [];
	for (const { property, versionsOf } of byProperty.values()) {
		const byVersions = new Map<string, Group>();
		for (const [currency, versions] of versionsOf) {
			const same = byVersions.get(versions.join());
			if (same) same.currencies.push(currency);
			else byVersions.set(versions.join(), { currencies: [currency], versions, property });
		}
		groups.push(...byVersions.values());
	}
	return groups;
}

/**
 * Required fields, top-level. n8n marks a parameter required (and refuses to run while it is empty) only for the
 * fields the default (first) currency requires too, which every payout has. When the currency is an expression, n8n
 * shows every currency's parameters; a field only some currencies need (EUR's swiftCode, PKR's birth, the subject
 * USD and PKR require) would then stop every run, whatever its rows' currencies. Those are checked before signing,
 * for the rows whose currency needs them, like every other rule. For the same reason a field renamed by its kind
 * (version 4: bankCodeText, bankCodeList) is never marked: with the currency an expression, each kind shows.
 */
export function requiredParameters(rulesByCurrency: Record<string, RequestRules>, scope: Scope): INodeProperties[] {
	const [defaultRules] = Object.values(rulesByCurrency);
	const everywhere = new Set(defaultRules.fields.filter((field) => field.required).map((field) => field.name));
	const byField = new Map<string, Entry[]>();
	for (const version of NODE_VERSIONS) {
		for (const [currency, rules] of Object.entries(rulesByCurrency)) {
			for (const rule of rules.fields.filter((field) => field.required && hasField(field, version))) {
				const list = byField.get(rule.name) ?? [];
				const catalogued = scope.catalogue !== undefined && hasCatalogue(scope.catalogue, rule.name, currency);
				const property = parameterFor(rule, version, catalogued);
				list.push({
					currency,
					version,
					property:
						everywhere.has(rule.name) && property.name === rule.name ? { ...property, required: true } : property,
				});
				byField.set(rule.name, list);
			}
		}
	}
	const properties: INodeProperties[] = [];
	for (const entries of byField.values()) {
		for (const group of merged(entries)) {
			const currency = scope.currency ? group.currencies : undefined;
			properties.push({ ...group.property, displayOptions: show({ ...scope, currency }, group.versions) });
		}
	}
	return properties;
}

export function additionalFields(rulesByCurrency: Record<string, RequestRules>, scope: Scope): INodeProperties[] {
	const entries = NODE_VERSIONS.flatMap((version) =>
		Object.entries(rulesByCurrency).map(([currency, rules]) => ({
			currency,
			version,
			property: {
				displayName: 'Additional Fields',
				name: 'additionalFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: rules.fields
					.filter((field) => !field.required && hasField(field, version))
					.map((field) => parameterFor(field, version))
					.sort((a, b) => a.displayName.localeCompare(b.displayName)),
			} as INodeProperties,
		})),
	);
	return merged(entries).map((group) => ({
		...group.property,
		displayOptions: show({ ...scope, currency: scope.currency ? group.currencies : undefined }, group.versions),
	}));
}
