import { additionalFields, fieldsFromParameter, requiredParameters } from '../../descriptions/fromRules';
import { dataItem } from '../../execute/present';
import { distrustCreate } from '../../execute/trust';
import type { Operation } from '../../execute/types';
import { PAYOUT_CURRENCIES, PAYOUT_RULES, type PayoutCurrency } from '../../../shared/contract/rules/payout';
import { createSafetyNotice, currencyOf, currencyParameter, prepareCreate } from '../shared';

const scope = { resource: 'payout', operation: 'create' };

export const createPayout: Operation = {
	...scope,
	kind: 'create',
	properties: [
		createSafetyNotice(scope.resource),
		currencyParameter(
			scope.resource,
			scope.operation,
			PAYOUT_CURRENCIES,
			'The payout currency. Each one has its own fields and rules, and needs a credential whose App ID belongs to it.',
		),
		fieldsFromParameter(scope.resource, scope.operation),
		...requiredParameters(PAYOUT_RULES, { ...scope, currency: [...PAYOUT_CURRENCIES] }),
		...additionalFields(PAYOUT_RULES, { ...scope, currency: [...PAYOUT_CURRENCIES] }),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, PAYOUT_CURRENCIES) as PayoutCurrency;
		return prepareCreate(ctx, itemIndex, PAYOUT_RULES[currency], currency);
	},
	distrust: distrustCreate,
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared, 'payout', { outcome: 'accepted' }) };
	},
};
