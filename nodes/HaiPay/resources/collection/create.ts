import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { createSafetyNotice, currencyParameter } from '../../descriptions/fields';
import { additionalFields, fieldsFromParameter, requiredParameters } from '../../descriptions/fromRules';
import { currencyOf, prepareCreate } from '../../execute/prepare';
import { dataItem } from '../../execute/present';
import { distrustCreate } from '../../execute/trust';
import type { Operation } from '../../execute/types';

const scope = { resource: 'collection', operation: 'create' };
const { currencies, rules } = ENDPOINTS.mitApply;

export const createCollection: Operation = {
	...scope,
	selector: {
		name: 'Create',
		description: 'Collect a USD card payment (MIT), first or with a saved card token',
		action: 'Create a collection',
	},
	kind: 'create',
	properties: [
		createSafetyNotice(scope.resource),
		currencyParameter(
			scope.resource,
			scope.operation,
			currencies,
			'Card collections (MIT mode) are in USD. Use a credential whose App ID belongs to USD.',
		),
		{
			displayName:
				'The first payment returns a payment page (payUrl) for the payer. Its callback carries a tokenID: pass it as Token ID to charge the same card later without a page.',
			name: 'mitNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { resource: [scope.resource], operation: [scope.operation] } },
		},
		fieldsFromParameter(scope.resource, scope.operation),
		...requiredParameters(rules, scope),
		...additionalFields(rules, scope),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, currencies);
		return prepareCreate(ctx, itemIndex, rules.USD, currency);
	},
	distrust: distrustCreate,
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared, 'collection', { outcome: 'accepted' }) };
	},
};
