import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { provenOutcome } from '../../../shared/gateway/kinds';
import type { PayoutCurrency } from '../../../shared/contract/rules/payout';
import { createSafetyNotice, currencyParameter } from '../../descriptions/fields';
import { additionalFields, fieldsFromParameter, requiredParameters } from '../../descriptions/fromRules';
import { currencyOf, prepareCreate } from '../../execute/prepare';
import { dataItem } from '../../execute/present';
import type { Operation } from '../../execute/types';

const scope = { resource: 'payout', operation: 'create' };
const { currencies, rules, makes } = ENDPOINTS.payoutApply;
/** Payout → Check (check.ts) reads an item exactly as the create does, so the create's fields show for it too. */
const CHECK_OPERATION = 'check';

/** A field of the create, shown for Payout → Check as well; a notice (the create's safety notice) stays the create's. */
function shownForCheck(property: INodeProperties): INodeProperties {
	const operations = property.displayOptions?.show?.operation;
	if (property.type === 'notice' || !Array.isArray(operations)) return property;
	return {
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, operation: [...operations, CHECK_OPERATION] },
		},
	};
}

/** Payout → Create, whose fields Payout → Check shows too. */
export const createPayout: Operation = {
	...scope,
	selector: { name: 'Create', description: 'Send money to a bank account or mobile wallet', action: 'Create a payout' },
	kind: 'create',
	makes,
	properties: [
		createSafetyNotice(scope.resource),
		currencyParameter(
			scope.resource,
			scope.operation,
			currencies,
			'The payout currency. Each one has its own fields and rules, and needs a credential whose App ID belongs to it.',
		),
		fieldsFromParameter(scope.resource, scope.operation),
		...requiredParameters(rules, { ...scope, currency: [...currencies], catalogue: 'payout' }),
		...additionalFields(rules, { ...scope, currency: [...currencies] }),
	].map(shownForCheck),
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, currencies, true) as PayoutCurrency;
		return prepareCreate(ctx, itemIndex, rules[currency], currency);
	},
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared, 'payout', { outcome: provenOutcome('create') }) };
	},
};
