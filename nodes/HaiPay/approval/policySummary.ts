import type { IDataObject } from 'n8n-workflow';

import type { Prepared } from '../execute/types';
import { approvalNeed, readPolicy } from './policy';

/**
 * What the approval policy asks of a checked sheet, on Payout → Check's summary: at its top `approvalsRequired` and
 * why, and on each currency line what that currency asks. Computed over every valid row, as Payout → Create computes
 * it over the rows it sends (those HaiPay already has included: the create sends them and HaiPay refuses them).
 */
export function withPolicy(summary: IDataObject, policyValue: unknown, valid: readonly Prepared[]): IDataObject {
	const need = approvalNeed(valid, readPolicy(policyValue));
	const currencies = (summary.currencies as IDataObject[]).map((line) => {
		const own = need.currencies.find((entry) => entry.currency === line.currency);
		if (own === undefined) return line;
		return {
			...line,
			approvalsRequired: own.approvalsRequired,
			largestRow: own.largestRow,
			oneApproverUpToTotal: own.limit?.oneApproverUpToTotal ?? null,
			oneApproverUpToRow: own.limit?.oneApproverUpToRow ?? null,
			approvalWhy: own.why,
		};
	});
	return { ...summary, approvalsRequired: need.approvalsRequired, approvalWhy: need.why, currencies };
}

/**
 * With Output "One Item per Row", what the policy asks of the run on every row item: approvals are given for the run
 * as a whole (Payout → Create counts them over every row it sends), so each row carries the run's figure and why,
 * the same as the summary's, never a figure of its own row.
 */
export function policyOfRun(policyValue: unknown, valid: readonly Prepared[]): IDataObject {
	const need = approvalNeed(valid, readPolicy(policyValue));
	return { approvalsRequired: need.approvalsRequired, approvalWhy: need.why };
}
