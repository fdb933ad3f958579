import type { INodeProperties } from 'n8n-workflow';

import { payoutCodeWarning } from '../../../shared/contract/catalogue';
import type { Operation, Prepared } from '../../execute/types';
import { createPayout } from './create';

const scope = { resource: 'payout', operation: 'check' };

const notice: INodeProperties = {
	displayName:
		'No payout is signed or sent (with Options → Look Up Existing Orders, only HaiPay\'s order query, about each valid row). Every item comes out with outcome "valid" or "invalid" (with the field and rule it breaks), its own fields, amountValue for totals, and warnings (a bankCode outside HaiPay\'s method catalogue): review them, then send the same items to Payout → Create.',
	name: 'checkNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: [scope.resource], operation: [scope.operation] } },
};

/** A bankCode outside HaiPay's method catalogue is the reviewer's to look at and HaiPay's to refuse, never the check's. */
function withCatalogueWarnings(prepared: Prepared): Prepared {
	const { bankCode, accountType } = prepared.body;
	const warning =
		typeof bankCode === 'string'
			? payoutCodeWarning(prepared.currency, bankCode, typeof accountType === 'string' ? accountType : undefined)
			: undefined;
	return warning === undefined ? prepared : { ...prepared, warnings: [...(prepared.warnings ?? []), warning] };
}

/**
 * Payout → Check: the sheet run through every rule of Payout → Create, with nothing signed and nothing sent. Its
 * fields are the create's, which create.ts shows for this operation too.
 */
export const checkPayout: Operation = {
	...createPayout,
	...scope,
	selector: {
		name: 'Check',
		description: 'Run payouts through every rule without sending them',
		action: 'Check payouts',
	},
	checkOnly: true,
	properties: [notice],
	prepare: (ctx, itemIndex) => withCatalogueWarnings(createPayout.prepare(ctx, itemIndex)),
};
