import { additionalFields, fieldsFromParameter, requiredParameters } from '../../descriptions/fromRules';
import { dataItem } from '../../execute/present';
import { distrustCreate } from '../../execute/trust';
import type { Operation } from '../../execute/types';
import { MIT_RULES } from '../../../shared/contract/rules/collection';
import { createSafetyNotice, currencyOf, currencyParameter, prepareCreate } from '../shared';

const scope = { resource: 'collection', operation: 'create' };

export const createCollection: Operation = {
	...scope,
	kind: 'create',
	properties: [
		createSafetyNotice(scope.resource),
		currencyParameter(
			scope.resource,
			scope.operation,
			['USD'],
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
		...requiredParameters({ USD: MIT_RULES }, scope),
		...additionalFields({ USD: MIT_RULES }, scope),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, ['USD']);
		return prepareCreate(ctx, itemIndex, MIT_RULES, currency);
	},
	distrust: distrustCreate,
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared, 'collection', { outcome: 'accepted' }) };
	},
};
