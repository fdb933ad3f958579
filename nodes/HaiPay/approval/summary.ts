import type { IDataObject } from 'n8n-workflow';

import { PAYOUT_RULES } from '../../shared/contract/rules/payout';
import type { ItemFailure } from '../../shared/gateway/outcome';
import type { Prepared } from '../execute/types';
import { DecimalTotal } from './decimalTotal';
import { rowsFingerprint } from './fingerprint';

/**
 * What an approver signs off, as one item: per currency the rows that pass every rule, counted, and their exact
 * total; every row that breaks a rule, with the field and the reason; and the fingerprint of the rows that would
 * be paid, for Payout → Create to hold the payment to.
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

interface CurrencyLine {
	currency: string;
	rows: number;
	total: DecimalTotal;
	invalid: number;
}

/** The places a currency's amounts are written with: as many as HaiPay accepts for it (BDT none, ZAR two). */
function currencyDecimals(currency: string): number {
	const rules = (PAYOUT_RULES as Record<string, { fields: Array<{ amount?: { maxDecimals: number } }> } | undefined>)[currency];
	return rules?.fields.find((field) => field.amount !== undefined)?.amount?.maxDecimals ?? 0;
}

function lineOf(lines: Map<string, CurrencyLine>, currency: string): CurrencyLine {
	let line = lines.get(currency);
	if (line === undefined) {
		line = { currency, rows: 0, total: new DecimalTotal(currencyDecimals(currency)), invalid: 0 };
		lines.set(currency, line);
	}
	return line;
}

/** One entry per input item: the request it would send, or why it may not be sent (with what it declared). */
export type Checked = { prepared: Prepared } | { failure: ItemFailure; orderId?: string; currency?: string };

export function approvalSummary(checked: readonly Checked[]): IDataObject {
	const lines = new Map<string, CurrencyLine>();
	const valid: Prepared[] = [];
	const invalidRows: RefusedRow[] = [];
	checked.forEach((entry, itemIndex) => {
		if ('prepared' in entry) {
			const line = lineOf(lines, entry.prepared.currency);
			line.rows++;
			line.total.add(String(entry.prepared.body.amount));
			valid.push(entry.prepared);
			return;
		}
		const currency = entry.currency?.toUpperCase();
		if (currency !== undefined && currency in PAYOUT_RULES) lineOf(lines, currency).invalid++;
		const { field, rule } = entry.failure.details;
		invalidRows.push({ itemIndex, orderId: entry.orderId ?? null, currency: entry.currency ?? null, field: field ?? null, rule: rule ?? null, error: entry.failure.message });
	});
	return {
		outcome: 'summary',
		rows: checked.length,
		validRows: valid.length,
		invalidRows: invalidRows.length,
		currencies: [...lines.values()].map((line) => ({
			currency: line.currency,
			rows: line.rows,
			total: line.total.toString(),
			decimals: currencyDecimals(line.currency),
			invalidRows: line.invalid,
		})),
		invalid: invalidRows as unknown as IDataObject[],
		fingerprint: rowsFingerprint(valid),
	};
}
