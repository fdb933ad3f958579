import type { IExecuteFunctions } from 'n8n-workflow';

import { ItemFailure } from '../../shared/gateway/outcome';

/*
 * What a row says of its own currency wins or stops the row: an amount means nothing without the currency it is
 * in, so a row of 50,000.00 KRW is never sent as 50,000.00 of a currency fixed on the node (Currency, Priced In,
 * Transaction Currency). The rule the node already applies to a payee drop-down the row contradicts (payee.ts).
 */

/** The item's own `currency`, trimmed and upper-cased, or '' when it states none. */
export function rowCurrency(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getInputData()[itemIndex]?.json.currency;
	return typeof value === 'string' ? value.trim().toUpperCase() : '';
}

/** Refuses an item whose own `currency` is not the one the node's `parameter` gives it. */
export function refuseOtherCurrency(
	ctx: IExecuteFunctions,
	itemIndex: number,
	chosen: string,
	parameter: string,
): void {
	const own = rowCurrency(ctx, itemIndex);
	if (own === '' || own === chosen.trim().toUpperCase()) return;
	throw new ItemFailure(
		'invalid',
		`"currency" is ${chosen} on the node (${parameter}) but ${own} in the item: its amount is in ${own}, so the item is not sent either way; map ${parameter} from the item ({{ $json.currency }}) or correct the row`,
		{ field: 'currency', rule: 'conflict' },
	);
}
