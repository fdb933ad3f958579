import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { CREATE_ADVICE, ItemFailure } from '../../shared/gateway/outcome';
import { approvalSummary, type Checked } from '../approval/summary';
import { declared } from './failures';
import { parameterValue } from './parameters';
import { checkAll, loadSettings } from './runner';
import type { Operation, Prepared } from './types';

/*
 * A check runs a sheet through everything a create would refuse it for, the contract's rules, the credential's App
 * IDs and orderIds repeated within the run, and stops there: nothing is signed and nothing is sent. Every item
 * comes out, valid or invalid, with the input row's own fields, so that a reviewer can count and total it and
 * the same items can go on to the create once approved. A valid item may carry warnings: what deserves a look but is
 * HaiPay's to refuse (a code outside the method catalogue). Or, as Output "Approval Summary", one item with the
 * exact totals, the refused rows and the fingerprint of what would be paid.
 */

/** The value of Options → Output that gives one summary item instead of one item per row. */
const SUMMARY_OUTPUT = 'summary';

function validItem(row: IDataObject, prepared: Prepared): IDataObject {
	const amount = prepared.body.amount;
	return {
		...row,
		outcome: 'valid',
		valid: true,
		orderId: prepared.orderId ?? null,
		currency: prepared.currency,
		amount: amount ?? null,
		// A number for n8n's Summarize node, which sums numbers only; `amount` is the exact text that would be sent.
		amountValue: amount === undefined ? null : Number(amount),
		appId: prepared.signer?.appId ?? null,
		warnings: prepared.warnings ?? [],
	};
}

function invalidItem(ctx: IExecuteFunctions, row: IDataObject, failure: ItemFailure, itemIndex: number): IDataObject {
	const { field, rule } = failure.details;
	return {
		...row,
		outcome: 'invalid',
		valid: false,
		error: failure.message,
		errorType: 'invalid',
		field: field ?? null,
		rule: rule ?? null,
		orderId: declared(ctx, itemIndex, 'orderId') ?? null,
		currency: declared(ctx, itemIndex, 'currency') ?? null,
		advice: CREATE_ADVICE.invalid,
	};
}

function summaryItem(ctx: IExecuteFunctions, checked: Array<Prepared | ItemFailure>): INodeExecutionData {
	const entries: Checked[] = checked.map((entry, itemIndex) =>
		entry instanceof ItemFailure
			? { failure: entry, orderId: declared(ctx, itemIndex, 'orderId'), currency: declared(ctx, itemIndex, 'currency') }
			: { prepared: entry },
	);
	return { json: approvalSummary(entries), pairedItem: checked.map((_, item) => ({ item })) };
}

/** One output item per input item, in input order, each valid or invalid; or one summary of them all. None is sent. */
export async function runCheck(ctx: IExecuteFunctions, operation: Operation): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const { settings } = await loadSettings(ctx);
	const checked = checkAll(ctx, operation, settings, items.length);
	if (parameterValue(ctx, 0, 'options.output', 'rows') === SUMMARY_OUTPUT) return [summaryItem(ctx, checked)];
	return checked.map((entry, itemIndex) => {
		const row = items[itemIndex]?.json ?? {};
		const json = entry instanceof ItemFailure ? invalidItem(ctx, row, entry, itemIndex) : validItem(row, entry);
		return { json, pairedItem: { item: itemIndex } };
	});
}
