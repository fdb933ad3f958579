import type { IExecuteFunctions } from 'n8n-workflow';

import { PAYOUT_RULES } from '../../shared/contract/rules/payout';
import type { RequestRules } from '../../shared/contract/rules/types';
import { ItemFailure } from '../../shared/gateway/outcome';
import { columnProblems, type ColumnProblem, type ColumnRead, type SheetShape } from '../approval/columns';
import { COLUMN_RULE } from '../approval/summary';
import { parameterNames } from '../descriptions/fieldNames';
import { FIELDS_FROM_INPUT, FIELDS_FROM_PARAMETERS } from '../descriptions/fromRules';
import { parameterValue, referencedField } from './parameters';
import type { Prepared } from './types';

/*
 * The columns of the sheet Payout → Check runs over, and what the node reads from them: with Fields From "Input
 * Item Fields", every payout field from the column of its gateway name; with parameters, the column each `{{
 * $json.x }}` names; the currency from the column its expression names, or, fixed, from `currency` to refuse a row
 * of another (rowCurrency.ts). approval/columns.ts makes the findings; this file applies them to the rows.
 */

const RULES = PAYOUT_RULES as Record<string, RequestRules>;
const FIELDS = [...new Set(['currency', ...Object.values(RULES).flatMap((rules) => rules.fields.map((f) => f.name))])];
const INPUT_FIELDS = 'Fields From: Input Item Fields reads it by that name';
/** `$json.name` or `$json["name"]` anywhere in an expression, and every `$json` at all. */
const JSON_READ = /\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(["'])([^"'\\]+)\2\s*\])/g;

function expressions(value: unknown): string[] {
	if (typeof value === 'string') return value.startsWith('=') ? [value] : [];
	if (value === null || typeof value !== 'object') return [];
	return Object.values(value).flatMap(expressions);
}

/** The columns expressions read by name, or undefined when one reads the row some other way (`$json[key]`). */
function expressionReads(parameters: object): Set<string> | undefined {
	const columns = new Set<string>();
	for (const text of expressions(parameters)) {
		const matches = [...text.matchAll(JSON_READ)];
		if (matches.length !== text.split('$json').length - 1) return undefined;
		for (const match of matches) columns.add(match[1] ?? match[3]);
	}
	return columns;
}

/** A list field's value (a resource locator, `{ __rl, value }`) as the text it holds; any other value as it is. */
function locatorValue(value: unknown): unknown {
	return value !== null && typeof value === 'object' && '__rl' in value ? (value as { value?: unknown }).value : value;
}

function readsOf(parameters: Record<string, unknown>, fromInput: boolean): Map<string, ColumnRead> {
	const reads = new Map<string, ColumnRead>();
	const currency = parameters.currency;
	const currencyColumn = referencedField(currency);
	if (currencyColumn !== undefined)
		reads.set('currency', { column: currencyColumn, by: `Currency reads ${String(currency).slice(1)}` });
	else if (typeof currency === 'string' && !currency.startsWith('='))
		reads.set('currency', { column: 'currency', by: `the row's own currency, held to the fixed Currency ${currency}` });
	const mapped = { ...(parameters.additionalFields as object | undefined), ...parameters };
	for (const field of FIELDS.filter((name) => name !== 'currency')) {
		if (fromInput) reads.set(field, { column: field, by: INPUT_FIELDS });
		else {
			const under = parameterNames(field).map((name) => (mapped as Record<string, unknown>)[name]);
			const column = under.map((value) => referencedField(locatorValue(value))).find((found) => found !== undefined);
			if (column !== undefined) reads.set(field, { column, by: `${field} reads {{ $json["${column}"] }}` });
		}
	}
	return reads;
}

/**
 * The fields the rows' currencies require (`needed`). With no row's currency known (its column missing), those every
 * payout currency requires are needed, and a column spelled as one any currency requires is still named (`wanted`).
 */
function neededFields(ctx: IExecuteFunctions, count: number): { needed: Set<string>; wanted: Set<string> } {
	const currencies = new Set<string>();
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		let value: unknown;
		try {
			value = parameterValue(ctx, itemIndex, 'currency', '');
		} catch {
			value = undefined;
		}
		const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
		if (code in RULES) currencies.add(code);
	}
	const required = (code: string) => RULES[code].fields.filter((f) => f.required).map((f) => f.name);
	const lists = (currencies.size > 0 ? [...currencies] : Object.keys(RULES)).map(required);
	const wanted = new Set(lists.flat());
	const needed = currencies.size > 0 ? wanted : new Set(lists[0].filter((f) => lists.every((l) => l.includes(f))));
	// A currency mapped from a column is needed; a fixed one is the node's, and a row may leave its own out.
	if (referencedField(ctx.getNode().parameters.currency) !== undefined) {
		needed.add('currency');
		wanted.add('currency');
	}
	return { needed, wanted };
}

/** The sheet as Payout → Check sees it: its columns and what the node reads from which. */
export function sheetShape(ctx: IExecuteFunctions): SheetShape {
	const items = ctx.getInputData();
	const columns = new Set<string>();
	for (const item of items) for (const key of Object.keys(item.json ?? {})) columns.add(key);
	const parameters = ctx.getNode().parameters as Record<string, unknown>;
	const fromInput = parameterValue(ctx, 0, 'fieldsFrom', FIELDS_FROM_PARAMETERS) === FIELDS_FROM_INPUT;
	const reads = readsOf(parameters, fromInput);
	const { needed, wanted } = neededFields(ctx, items.length);
	const isFixed = reads.get('currency')?.by.startsWith('the row') === true;
	return {
		columns: [...columns],
		reads,
		needed,
		wanted,
		guarded: new Set(isFixed ? ['currency'] : []),
		fields: FIELDS,
		alsoRead: expressionReads(parameters),
	};
}

/**
 * The rows as the sheet's columns leave them: with a finding that refuses the sheet, every row is refused for it;
 * a row refused for a field whose column is missing says so, naming the column, instead of its value's rule.
 */
export function refusedForColumns(
	checked: Array<Prepared | ItemFailure>,
	problems: readonly ColumnProblem[],
): Array<Prepared | ItemFailure> {
	const sheet = problems.find((problem) => problem.refuses === 'sheet');
	const byField = new Map(problems.filter((p) => p.refuses === 'rows').map((p) => [p.field, p]));
	const failure = (problem: ColumnProblem) =>
		new ItemFailure('invalid', problem.text, { field: problem.field ?? undefined, rule: COLUMN_RULE });
	return checked.map((entry) => {
		if (sheet !== undefined) return failure(sheet);
		if (!(entry instanceof ItemFailure)) return entry;
		const problem = byField.get(entry.details.field ?? '');
		return problem === undefined ? entry : failure(problem);
	});
}

export { columnProblems };
