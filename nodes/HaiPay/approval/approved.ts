import type { IExecuteFunctions } from 'n8n-workflow';

import { nodeError, type Advised } from '../execute/failures';
import { ItemFailure } from '../../shared/gateway/outcome';
import { hasCollectionEntry, parameterValue } from '../execute/parameters';
import type { Prepared } from '../execute/types';
import { policyRefusal } from './approvals';
import { isFingerprint, rowsFingerprint } from './fingerprint';
import { trimmedText } from '../../shared/text';

/**
 * "Approved is what is paid": with Options → Approved Fingerprint, a create sends nothing unless the rows it would
 * send are exactly the rows that were approved. Read once per run, from the first item, since an approval covers
 * the run as a whole. An empty value refuses too: an expression that lost its approval must not pay unapproved.
 */

const FIELD = { field: 'approvedFingerprint', rule: 'approval' };

/** Why this run may not send anything, or undefined when it may (no approval asked for, or the rows match it). */
function approvalRefusal(
	ctx: IExecuteFunctions,
	prepared: ReadonlyArray<Prepared | undefined>,
): ItemFailure | undefined {
	if (!hasCollectionEntry(ctx, 'options', 'approvedFingerprint') || prepared.length === 0) return undefined;
	let value: unknown;
	try {
		value = parameterValue(ctx, 0, 'options.approvedFingerprint', '');
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return new ItemFailure('invalid', `"Approved Fingerprint" could not be read (${why}): nothing was sent`, FIELD);
	}
	const approved = trimmedText(value);
	if (!isFingerprint(approved)) {
		const why =
			approved === '' ? 'is empty' : `is not a fingerprint Payout → Check gives (got "${approved.slice(0, 80)}")`;
		return new ItemFailure('invalid', `"Approved Fingerprint" ${why}: nothing was sent`, FIELD);
	}
	const rows = prepared.filter((entry): entry is Prepared => entry !== undefined);
	const actual = rowsFingerprint(rows);
	if (actual === approved) return undefined;
	return new ItemFailure(
		'invalid',
		`The ${rows.length} row(s) to pay are not the rows that were approved (a row was added, removed or changed since the check: fingerprint ${actual.slice(0, 15)}…, approved ${approved.slice(0, 15)}…): nothing was sent. Check the sheet again and have it approved again`,
		FIELD,
	);
}

/** What of a create's run the refusal needs: its items as prepared, and where their results go. */
interface RunParts {
	ctx: IExecuteFunctions;
	operation: Advised & { resource: string };
	continueOnFail: boolean;
	prepared: Array<Prepared | undefined>;
	results: Array<{ failure: ItemFailure } | object | undefined>;
}

/**
 * Sends nothing when the rows are not the approved ones, or their approvals fall short of the approval policy: without "Continue On Fail" the node stops; with it every
 * valid item fails with the refusal (the invalid ones keep their own reason) and none is left to send.
 */
export function refuseUnapproved(run: RunParts): void {
	// The approved fingerprint first: rows other than those approved are refused as such, whatever the policy. The
	// policy holds payouts only, where its options show (descriptions/options.ts): no other create is read for it.
	const payouts = run.operation.resource === 'payout';
	const refusal =
		approvalRefusal(run.ctx, run.prepared) ?? (payouts ? policyRefusal(run.ctx, run.prepared) : undefined);
	if (refusal === undefined) return;
	const first = run.prepared.find((entry) => entry !== undefined);
	if (!run.continueOnFail)
		throw nodeError(run.ctx, refusal, run.operation, 0, { orderId: first?.orderId, currency: first?.currency });
	run.prepared.forEach((entry, itemIndex) => {
		if (entry !== undefined) run.results[itemIndex] = { failure: refusal };
		run.prepared[itemIndex] = undefined;
	});
}
