import type { IDataObject } from 'n8n-workflow';

import { PAYOUT_RULES } from '../../shared/contract/rules/payout';
import type { ItemFailure } from '../../shared/gateway/outcome';
import type { Prepared } from '../execute/types';
import { sheetSummary, type ColumnProblem, type SheetShape } from './columns';
import { DecimalTotal } from './decimalTotal';
import { listedRow, unprovableMeaning, type Standing } from './existing';
import { rowsFingerprint } from './fingerprint';
import { currencyDecimals } from './places';

/**
 * What an approver signs off, as one item: per currency the rows that pass every rule, counted, and their exact
 * total; every row that breaks a rule, with the field and the reason; with Look Up Existing Orders, the rows HaiPay
 * already has and those its query could not answer for; and the fingerprint of the rows that would be sent, for
 * Payout → Create to hold the payment to.
 */

/** A row that breaks a rule, where the approver can find it in the sheet. */
interface RefusedRow {
	/** n8n's item index (0 for the first row under a header). */
	itemIndex: number;
	orderId: string | null;
	currency: string | null;
	field: string | null;
	rule: string | null;
	error: string;
}

/** A count of rows and the exact total of their amounts. */
interface Tally {
	rows: number;
	total: DecimalTotal;
}

interface CurrencyLine extends Tally {
	currency: string;
	invalid: number;
	/** With Look Up Existing Orders: the rows HaiPay already has, and those its query could not answer for. */
	existing: Tally;
	unchecked: Tally;
}

function lineOf(lines: Map<string, CurrencyLine>, currency: string): CurrencyLine {
	let line = lines.get(currency);
	if (line === undefined) {
		const tally = (): Tally => ({ rows: 0, total: new DecimalTotal(currencyDecimals(currency)) });
		line = { currency, ...tally(), invalid: 0, existing: tally(), unchecked: tally() };
		lines.set(currency, line);
	}
	return line;
}

/** The rule of a row refused for the sheet's columns (execute/sheetColumns.ts). */
export const COLUMN_RULE = 'column';

/** The sheet's columns as Payout → Check found them, and its findings (approval/columns.ts). */
export interface SheetFindings {
	shape: SheetShape;
	problems: readonly ColumnProblem[];
}

/** Per currency whose query cannot prove an order absent: its rows to pay, their total, and what that means. */
function unprovableLines(lookups: Lookups): IDataObject[] {
	return [...lookups.unprovable].map(([currency, tally]) => ({
		currency,
		rows: tally.rows,
		total: tally.total.toString(),
		meaning: unprovableMeaning({ currency }),
	}));
}

/** One entry per input item: the request it would send, or why it may not be sent (with what it declared). */
export type Checked = { prepared: Prepared } | { failure: ItemFailure; orderId?: string; currency?: string };

function count(tally: Tally, amount: string): void {
	tally.rows++;
	tally.total.add(amount);
}

/**
 * The rows HaiPay already has and those not checked, listed; what each currency line counts of them; and, by
 * currency, the rows whose query cannot prove them absent (`unprovable`), stated once per currency.
 */
interface Lookups {
	standings: ReadonlyMap<number, Standing>;
	existing: IDataObject[];
	unchecked: IDataObject[];
	unprovable: Map<string, Tally>;
}

/** Counts a valid row: to pay, unless HaiPay has it; a row not checked is counted to pay and listed. */
function countValid(line: CurrencyLine, prepared: Prepared, itemIndex: number, lookups: Lookups | undefined): void {
	const amount = String(prepared.body.amount);
	const standing = lookups?.standings.get(itemIndex);
	if (standing?.atHaiPay === 'exists') {
		count(line.existing, amount);
		lookups?.existing.push(listedRow(itemIndex, prepared, standing));
		return;
	}
	count(line, amount);
	if (standing?.atHaiPay === 'unprovable' && lookups !== undefined) {
		const tally = lookups.unprovable.get(line.currency) ?? {
			rows: 0,
			total: new DecimalTotal(currencyDecimals(line.currency)),
		};
		count(tally, amount);
		lookups.unprovable.set(line.currency, tally);
	}
	if (standing?.atHaiPay === 'unchecked') {
		count(line.unchecked, amount);
		lookups?.unchecked.push(listedRow(itemIndex, prepared, standing));
	}
}

function currencyOf(line: CurrencyLine, lookups: Lookups | undefined): IDataObject {
	const own = {
		currency: line.currency,
		rows: line.rows,
		total: line.total.toString(),
		decimals: currencyDecimals(line.currency),
		invalidRows: line.invalid,
	};
	if (lookups === undefined) return own;
	const { existing, unchecked } = line;
	return {
		...own,
		existingRows: existing.rows,
		existingTotal: existing.total.toString(),
		uncheckedRows: unchecked.rows,
		uncheckedTotal: unchecked.total.toString(),
	};
}

/**
 * The summary; with `standings` (Look Up Existing Orders) each currency's `rows` and `total` are those to pay, the
 * rows HaiPay already has apart. The fingerprint stays that of every valid row, since Payout → Create sends them all
 * and HaiPay refuses those it has as duplicates.
 */
export function approvalSummary(
	checked: readonly Checked[],
	standings?: ReadonlyMap<number, Standing>,
	sheet?: SheetFindings,
): IDataObject {
	const lines = new Map<string, CurrencyLine>();
	const valid: Prepared[] = [];
	const invalidRows: RefusedRow[] = [];
	let forColumns = 0;
	const lookups: Lookups | undefined =
		standings === undefined ? undefined : { standings, existing: [], unchecked: [], unprovable: new Map() };
	checked.forEach((entry, itemIndex) => {
		if ('prepared' in entry) {
			countValid(lineOf(lines, entry.prepared.currency), entry.prepared, itemIndex, lookups);
			valid.push(entry.prepared);
			return;
		}
		const currency = entry.currency?.toUpperCase();
		if (currency !== undefined && currency in PAYOUT_RULES) lineOf(lines, currency).invalid++;
		const { field, rule } = entry.failure.details;
		// A row refused for the sheet's columns is counted there, once for the sheet, not listed row by row.
		if (rule === COLUMN_RULE && sheet !== undefined) {
			forColumns++;
			return;
		}
		invalidRows.push({
			itemIndex,
			orderId: entry.orderId ?? null,
			currency: entry.currency ?? null,
			field: field ?? null,
			rule: rule ?? null,
			error: entry.failure.message,
		});
	});
	return {
		outcome: 'summary',
		rows: checked.length,
		validRows: valid.length,
		invalidRows: invalidRows.length + forColumns,
		...(lookups === undefined
			? {}
			: {
					toPayRows: valid.length - lookups.existing.length,
					existingRows: lookups.existing.length,
					uncheckedRows: lookups.unchecked.length,
					unprovableRows: [...lookups.unprovable.values()].reduce((sum, tally) => sum + tally.rows, 0),
				}),
		currencies: [...lines.values()].map((line) => currencyOf(line, lookups)),
		invalid: invalidRows as unknown as IDataObject[],
		...(lookups === undefined
			? {}
			: { existing: lookups.existing, unchecked: lookups.unchecked, unprovable: unprovableLines(lookups) }),
		...(sheet === undefined ? {} : { sheet: sheetSummary(sheet.shape, sheet.problems, forColumns) }),
		fingerprint: rowsFingerprint(valid),
	};
}
