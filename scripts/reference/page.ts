/**
 * docs/field-reference.md, as the node's description (HaiPay.node.ts, its newest version) and the contract's rules
 * (nodes/shared/contract/rules/) give it; scripts/field-reference.ts writes or checks the page.
 */ import { join } from 'path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { LATEST_VERSION } from '../../nodes/HaiPay/descriptions/versions';
import { OPERATIONS, optionsSelectors } from '../../nodes/HaiPay/resources';
import type { Operation } from '../../nodes/HaiPay/execute/types';
import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';
import { CASHIER_RULES } from '../../nodes/shared/contract/rules/cashierCollection';
import type { FieldRule, RequestRules } from '../../nodes/shared/contract/rules/types';
import { cell, ruleText } from './rules';

export const PAGE = join(__dirname, '..', '..', 'docs', 'field-reference.md');

type RuleSets = Partial<Record<string, RequestRules>>;

/** The contract's request rules behind each operation that sends fields of its own (a read's are its selectors). */
export const RULES_OF: Record<string, RuleSets> = {
	'payout.create': ENDPOINTS.payoutApply.rules,
	'payout.check': ENDPOINTS.payoutApply.rules,
	'collection.create': {
		...ENDPOINTS.mitApply.rules,
		...ENDPOINTS.localCollectionApply.rules,
		...ENDPOINTS.coinCollectionApply.rules,
	},
	'collection.refund': ENDPOINTS.refundApply.rules,
	'subscription.create': ENDPOINTS.subscriptionApply.rules,
	'collection.createCashier': { CASHIER: CASHIER_RULES },
	'collection.getFixedAddress': ENDPOINTS.fixedAddressApply.rules,
};

const titled = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const code = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/** Whether a display condition (show or hide) holds a value, as n8n reads a list of allowed values. */
function lists(condition: unknown, value: unknown): boolean {
	return Array.isArray(condition) && condition.includes(value);
}

/** Whether the newest node shows `property` for an operation, whatever the other parameters hold. */
function shownFor(property: INodeProperties, operation: Operation): boolean {
	const show = property.displayOptions?.show ?? {};
	if (show.resource !== undefined && !lists(show.resource, operation.resource)) return false;
	if (show.operation !== undefined && !lists(show.operation, operation.operation)) return false;
	if (lists(property.displayOptions?.hide?.operation, operation.operation)) return false;
	return show['@version'] === undefined || lists(show['@version'], LATEST_VERSION);
}

/** The conditions beyond resource, operation, version and currency, in words ("when Output is summary"). */
function conditions(property: INodeProperties): string {
	const words: string[] = [];
	for (const [kind, verb] of [
		['show', 'is'],
		['hide', 'is not'],
	] as const) {
		for (const [name, values] of Object.entries(property.displayOptions?.[kind] ?? {})) {
			if (['resource', 'operation', '@version', 'currency', 'fieldsFrom'].includes(name)) continue;
			words.push(`${name} ${verb} ${(values as unknown[]).map(code).join(' or ')}`);
		}
	}
	return words.length === 0 ? '' : `when ${words.join(', ')}`;
}

function typeText(property: INodeProperties): string {
	if (property.type === 'options' || property.type === 'multiOptions') {
		const choices = (property.options as INodePropertyOptions[]).filter((option) => option.value !== '');
		const names = choices.map((option) =>
			option.name.startsWith(String(option.value)) ? code(option.value) : `${code(option.value)} ${option.name}`,
		);
		return `${property.type === 'options' ? 'one of' : 'any of'}: ${names.join(', ')}`;
	}
	if (property.type === 'resourceLocator') return 'From List or By Code';
	const bounds = property.typeOptions ?? {};
	const range = [
		bounds.minValue !== undefined ? `≥ ${bounds.minValue}` : '',
		bounds.maxValue !== undefined ? `≤ ${bounds.maxValue}` : '',
	].filter(Boolean);
	return `${property.type}${range.length > 0 ? ` (${range.join(', ')})` : ''}`;
}

function defaultText(property: INodeProperties): string {
	const value = property.default;
	if (value === '' || value === undefined || (typeof value === 'object' && value !== null)) return '';
	return code(value);
}

interface Row {
	field: string;
	cells: string;
}

type RuleOf = (name: string) => FieldRule | undefined;

/**
 * One row per parameter (a collection's entries each their own), with the rule a currency checks it against. An
 * entry is named within its collection, unless `bare` (the Options section, whose every row is an option).
 */
function rowsOf(property: INodeProperties, ruleOf: RuleOf, within?: string, bare = false): Row[] {
	if (property.type === 'notice') return [];
	if (property.type === 'collection' || property.type === 'fixedCollection') {
		const name = bare ? undefined : property.displayName;
		return (property.options as INodeProperties[]).flatMap((entry) => rowsOf(entry, ruleOf, name));
	}
	const rule = ruleOf(property.name);
	const field = `${within === undefined ? '' : `${within} › `}${property.displayName} ${code(property.name)}`;
	const required = property.required === true || rule?.required === true ? 'yes' : '';
	const limits = [rule === undefined ? '' : ruleText(rule), conditions(property)].filter(Boolean).join('; ');
	const cells = [typeText(property), defaultText(property), required, limits, firstSentence(property.description)];
	return [{ field, cells: cells.map(cell).join(' | ') }];
}

/** What a field is, in its description's first sentence: the panel shows the rest beside the field. */
function firstSentence(description = ''): string {
	// A sentence ends at a full stop and a space, not at the one of an abbreviation (e.g. 500.00, i.e. …).
	const end = /(?<!\be\.g|\bi\.e)\.\s/.exec(description);
	return end === null ? description : description.slice(0, end.index + 1);
}

/** The currencies an operation offers, as its Currency drop-down lists them; none for one without. */
function currenciesOf(operation: Operation): string[] {
	const parameter = operation.properties.find(
		(property) => property.name === 'currency' && property.type === 'options',
	);
	return ((parameter?.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value));
}

/** Operations whose fields are another's, shown once there: Payout → Check reads an item as Payout → Create does. */
const SAME_FIELDS_AS: Record<string, string> = { 'payout.check': 'payout.create' };

const keyOf = (operation: Operation) => `${operation.resource}.${operation.operation}`;
const titleOf = (operation: Operation) => `${titled(operation.resource)} → ${operation.selector.name}`;
const anchorOf = (title: string) =>
	title
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');

interface Merged {
	row: Row;
	currencies: string[];
}

/** The operation's rows, a row's currencies merged where every currency shows the same field under the same rule. */
function operationRows(operation: Operation, properties: INodeProperties[]): Map<string, Merged> {
	const all = currenciesOf(operation);
	const ruleSets = RULES_OF[keyOf(operation)] ?? {};
	const onlySet = Object.keys(ruleSets).length === 1 ? Object.values(ruleSets)[0] : undefined;
	const rows = new Map<string, Merged>();
	for (const property of properties.filter((candidate) => shownFor(candidate, operation))) {
		if (['resource', 'operation'].includes(property.name) || optionsSelectors.includes(property)) continue;
		const shown = property.displayOptions?.show?.currency as string[] | undefined;
		for (const currency of shown ?? (all.length > 0 ? all : [''])) {
			const rules = ruleSets[currency] ?? onlySet;
			const ruleOf: RuleOf = (name) => rules?.fields.find((rule) => rule.name === name);
			for (const row of rowsOf(property, ruleOf)) {
				const key = `${row.field} | ${row.cells}`;
				const entry = rows.get(key) ?? { row, currencies: [] };
				if (currency !== '' && !entry.currencies.includes(currency)) entry.currencies.push(currency);
				rows.set(key, entry);
			}
		}
	}
	return rows;
}

function table(rows: Merged[], all: string[]): string[] {
	const where = (currencies: string[]) =>
		currencies.length === 0 || currencies.length === all.length ? 'all' : currencies.join(', ');
	const columns = ['field', ...(all.length > 0 ? ['currencies'] : []), 'type', 'default', 'required'];
	return [
		`| ${[...columns, 'rules and limits', 'description'].join(' | ')} |`,
		`|${'---|'.repeat(columns.length + 2)}`,
		...rows.map(({ row, currencies }) =>
			all.length > 0 ? `| ${row.field} | ${where(currencies)} | ${row.cells} |` : `| ${row.field} | ${row.cells} |`,
		),
	];
}

function section(operation: Operation, properties: INodeProperties[]): string[] {
	const currencies = currenciesOf(operation);
	const rows = operationRows(operation, properties);
	const same = OPERATIONS.find((candidate) => keyOf(candidate) === SAME_FIELDS_AS[keyOf(operation)]);
	let intro = '';
	if (same !== undefined) {
		for (const key of operationRows(same, properties).keys()) rows.delete(key);
		intro = ` It shows every field of [${titleOf(same)}](#${anchorOf(titleOf(same))}) and checks them alike; only its own are below.`;
	}
	const offered = currencies.length > 0 ? `; currencies ${currencies.join(', ')}` : '';
	return [
		`## ${titleOf(operation)}`,
		'',
		`${operation.selector.description}. Resource ${code(operation.resource)}, operation ${code(operation.operation)}${offered}.${intro}`,
		'',
		...table([...rows.values()], currencies),
		'',
	];
}

/** The Options collections, each once, with the operations that show it. */
function optionsSection(): string[] {
	return [
		'## Options',
		'',
		'Run-wide settings, in the Options collection of the operations named above each table.',
		'',
		...optionsSelectors.flatMap((selector) => {
			const users = OPERATIONS.filter((operation) => shownFor(selector, operation));
			const rows = rowsOf(selector, () => undefined, undefined, true).map((row) => ({ row, currencies: [] }));
			return [`Shown by ${users.map(titleOf).join(', ')}:`, '', ...table(rows, []), ''];
		}),
	];
}

/** The HaiPay Trigger's parameters, as its description gives them. */
function triggerSection(properties: INodeProperties[]): string[] {
	const rows = properties
		.flatMap((property) => rowsOf(property, () => undefined))
		.map((row) => ({ row, currencies: [] }));
	return [
		'## HaiPay Trigger',
		'',
		"Starts a workflow from HaiPay's signed callbacks; what it answers, checks and emits: [haipay-trigger.md](haipay-trigger.md).",
		'',
		...table(rows, []),
		'',
	];
}

/** The page, as the node's newest version and the contract's rules give it. */
export function fieldReference(properties: INodeProperties[], trigger: INodeProperties[]): string {
	const contents = [...OPERATIONS.map(titleOf), 'Options', 'HaiPay Trigger'].map(
		(title) => `[${title}](#${anchorOf(title)})`,
	);

	return [
		'# HaiPay node: field reference',
		'',
		`<!-- Written by scripts/field-reference.ts from the node's description (version ${LATEST_VERSION}) and the contract's rules; do not edit. -->`,
		'',
		`Every field of every operation of the HaiPay node (node version ${LATEST_VERSION}) and the rule each value is checked against before anything is signed: a value that breaks one refuses the item, naming the field, the rule and the item, and nothing is sent. Fields From: Input Item Fields of the Same Names applies the same names and rules to the item's fields. A description is its first sentence (the panel shows it whole); an empty default is none. What each operation is for, and why: [haipay-node.md](haipay-node.md).`,
		'',
		contents.join(' · '),
		'',
		...OPERATIONS.flatMap((operation) => section(operation, properties)),
		...optionsSection(),
		...triggerSection(trigger),
	].join('\n');
}
