import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import type { OrderKind } from '../../shared/contract/statuses';
import { CREATE_ADVICE, ItemFailure } from '../../shared/gateway/outcome';
import { readBalances, withBalances } from '../approval/balance';
import { standingFields, standingOf, type Standing } from '../approval/existing';
import { policyOfRun, withPolicy } from '../approval/policySummary';
import { approvalSummary, type Checked, type SheetFindings } from '../approval/summary';
import { declared } from './failures';
import { queryOrders } from './orderQueries';
import { hasCollectionEntry, parameterValue } from './parameters';
import { runOptionsOf } from './runOptions';
import { checkAll, loadSettings } from './runner';
import { columnProblems, refusedForColumns, sheetShape } from './sheetColumns';
import type { Operation, Prepared } from './types';

type Loaded = Awaited<ReturnType<typeof loadSettings>>;

/*
 * A check runs a sheet through everything a create would refuse it for, the contract's rules, the credential's App
 * IDs and orderIds repeated within the run, and stops there: no payout is signed or sent (with Look Up Existing
 * Orders, only HaiPay's order query is asked, whether it already has each valid row's order). Every item
 * comes out, valid or invalid, with the input row's own fields, so that a reviewer can count and total it and
 * the same items can go on to the create once approved. A valid item may carry warnings: what deserves a look but is
 * HaiPay's to refuse (a code outside the method catalogue). Or, as Output "Approval Summary", one item with the
 * exact totals, the refused rows, what the sheet's columns lack or hold beside what is read (once for the sheet,
 * sheetColumns.ts), and the fingerprint of what would be paid.
 */

/** The value of Options → Output that gives one summary item instead of one item per row. */
const SUMMARY_OUTPUT = 'summary';

function validItem(row: IDataObject, prepared: Prepared, standing: Standing | undefined): IDataObject {
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
		...standingFields(standing, prepared),
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

async function summaryItem(
	ctx: IExecuteFunctions,
	checked: Array<Prepared | ItemFailure>,
	standings: Map<number, Standing> | undefined,
	sheet: SheetFindings,
	loaded: Loaded,
): Promise<INodeExecutionData> {
	const entries: Checked[] = checked.map((entry, itemIndex) =>
		entry instanceof ItemFailure
			? { failure: entry, orderId: declared(ctx, itemIndex, 'orderId'), currency: declared(ctx, itemIndex, 'currency') }
			: { prepared: entry },
	);
	const summary = await withControls(ctx, approvalSummary(entries, standings, sheet), checked, loaded);
	return { json: summary, pairedItem: checked.map((_, item) => ({ item })) };
}

/**
 * What Options → Approval Policy adds (`apply` to its value), or undefined without it. A policy that cannot be read
 * stops the check, naming it, whichever the Output: a check without it would look like one that asks one approver.
 */
function withApprovalPolicy(
	ctx: IExecuteFunctions,
	apply: (policyValue: unknown) => IDataObject,
): IDataObject | undefined {
	if (!hasCollectionEntry(ctx, 'options', 'approvalPolicy')) return undefined;
	try {
		return apply(parameterValue(ctx, 0, 'options.approvalPolicy', ''));
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		throw new NodeOperationError(ctx.getNode(), `"Approval Policy" (approvalPolicy) ${why}: nothing was checked`, {
			itemIndex: 0,
		});
	}
}

/**
 * The finance controls a summary may carry: what the approval policy asks of the sheet, and each currency's balance
 * beside its total to pay (approval/policySummary.ts, approval/balance.ts).
 */
async function withControls(
	ctx: IExecuteFunctions,
	summary: IDataObject,
	checked: Array<Prepared | ItemFailure>,
	loaded: Loaded,
): Promise<IDataObject> {
	const valid = checked.filter((entry): entry is Prepared => !(entry instanceof ItemFailure));
	const result = withApprovalPolicy(ctx, (value) => withPolicy(summary, value, valid)) ?? summary;
	if (parameterValue(ctx, 0, 'options.checkBalance', false) !== true) return result;
	const toPay = new Set(
		(result.currencies as IDataObject[]).filter((line) => Number(line.rows) > 0).map((line) => line.currency),
	);
	const signers = new Map(
		valid
			.filter((entry) => toPay.has(entry.currency))
			.map((entry) => [entry.currency, entry.signer ?? loaded.settings]),
	);
	const options = runOptionsOf(ctx);
	const queries = { ctx, credential: loaded.credential, timeoutMs: options.timeoutMs, retries: options.retries };
	return withBalances(result, await readBalances(queries, signers));
}

/**
 * Look Up Existing Orders: HaiPay's signed order query asked about every valid row, as reads, by the pool and within
 * the time of the check's options; the rows it answered for judged by the truth table of approval/existing.ts.
 * Without HaiPay's public key no answer could be proven, so nothing is asked and every row is unchecked.
 */
async function standingsOf(
	ctx: IExecuteFunctions,
	operation: Operation,
	checked: Array<Prepared | ItemFailure>,
	loaded: Loaded,
): Promise<Map<number, Standing>> {
	const { settings, credential } = loaded;
	const options = runOptionsOf(ctx);
	const valid = checked.flatMap((entry, itemIndex): Array<[number, Prepared]> =>
		entry instanceof ItemFailure ? [] : [[itemIndex, entry]],
	);
	if (settings.haipayPublicKey === '') {
		const reason =
			"HaiPay was not asked: the credential has no HaiPay public key, so no answer of HaiPay's could be proven";
		return new Map(valid.map(([itemIndex]) => [itemIndex, { atHaiPay: 'unchecked', reason }]));
	}
	const queries = {
		ctx,
		kind: operation.resource as OrderKind,
		settings,
		credential,
		concurrency: options.concurrency,
		withinMs: options.lookUpWithinMs,
		timeoutMs: options.timeoutMs,
		retries: options.retries,
	};
	const answers = await queryOrders(queries, valid);
	const notAsked = `HaiPay was not asked: Look Up Within (${options.lookUpWithinMs / 1000} s) ran out before this row's turn`;
	return new Map(
		valid.map(([itemIndex, prepared]) => [itemIndex, standingOf(answers.get(itemIndex), notAsked, prepared)]),
	);
}

/** One output item per input item, in input order, each valid or invalid; or one summary of them all. None is sent. */
export async function runCheck(ctx: IExecuteFunctions, operation: Operation): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const loaded = await loadSettings(ctx);
	const summary = parameterValue(ctx, 0, 'options.output', 'rows') === SUMMARY_OUTPUT;
	// Balances are per currency and go on the summary: asked for beside row items, they would be silently dropped.
	if (!summary && parameterValue(ctx, 0, 'options.checkBalance', false) === true)
		throw new NodeOperationError(
			ctx.getNode(),
			'"Check Balance" (checkBalance) puts each currency\'s balance on the Approval Summary: set Output to Approval Summary, or turn Check Balance off; nothing was checked',
			{ itemIndex: 0 },
		);
	// The sheet's columns first: a row refused for them is never asked about at HaiPay.
	const shape = sheetShape(ctx);
	const problems = columnProblems(shape);
	const checked = refusedForColumns(checkAll(ctx, operation, loaded.settings, items.length), problems);
	const standings = runOptionsOf(ctx).lookUpExisting ? await standingsOf(ctx, operation, checked, loaded) : undefined;
	if (summary) return [await summaryItem(ctx, checked, standings, { shape, problems }, loaded)];
	const valid = checked.filter((entry): entry is Prepared => !(entry instanceof ItemFailure));
	const policy = withApprovalPolicy(ctx, (value) => policyOfRun(value, valid)) ?? {};
	return checked.map((entry, itemIndex) => {
		const row = items[itemIndex]?.json ?? {};
		const json =
			entry instanceof ItemFailure
				? invalidItem(ctx, row, entry, itemIndex)
				: validItem(row, entry, standings?.get(itemIndex));
		return { json: { ...json, ...policy }, pairedItem: { item: itemIndex } };
	});
}
