import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../execute/types';
import { createPayout } from './create';

const scope = { resource: 'payout', operation: 'check' };

const notice: INodeProperties = {
	displayName:
		'Nothing is signed or sent. Every item comes out with outcome "valid" or "invalid" (with the field and rule it breaks), its own fields, and amountValue for totals: review them, then send the same items to Payout → Create.',
	name: 'checkNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: [scope.resource], operation: [scope.operation] } },
};

/** The create's fields, shown for the check as well: a check reads an item exactly as the create would. */
function sharedWithCheck(property: INodeProperties): INodeProperties {
	const operations = property.displayOptions?.show?.operation;
	if (property.type === 'notice' || !Array.isArray(operations)) return property;
	return { ...property, displayOptions: { ...property.displayOptions, show: { ...property.displayOptions?.show, operation: [...operations, scope.operation] } } };
}

/** Payout → Check: the sheet run through every rule of Payout → Create, with nothing signed and nothing sent. */
export const checkPayout: Operation = {
	...createPayout,
	...scope,
	selector: { name: 'Check', description: 'Run payouts through every rule without sending them', action: 'Check payouts' },
	checkOnly: true,
	properties: [notice],
};

/** Payout → Create's properties, also shown for Payout → Check. */
export const createPayoutShared: Operation = { ...createPayout, properties: createPayout.properties.map(sharedWithCheck) };
