import { dataItem } from '../../execute/present';
import type { Operation } from '../../execute/types';
import { CURRENCIES, type Currency } from '../../transport/currencies';
import { currencyOf, currencyParameter, lookupBody, lookupParameters } from '../shared';

const scope = { resource: 'collection', operation: 'get' };

/** SAR, IDR and USDC are the contract's own collection queries; the others use the same generic path. */
const QUERY_CURRENCIES = Object.keys(CURRENCIES) as Currency[];

export const getCollection: Operation = {
	...scope,
	kind: 'read',
	properties: [
		currencyParameter(
			scope.resource,
			scope.operation,
			QUERY_CURRENCIES,
			"The currency of the collection order. USDC answers are passed through whole, as the gateway's contract does not list their fields.",
		),
		...lookupParameters(scope.resource, scope.operation),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, QUERY_CURRENCIES);
		const body = lookupBody(ctx, itemIndex);
		return { path: `/${currency.toLowerCase()}/collect/query`, body, currency, orderId: body.orderId as string | undefined };
	},
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared, 'collection') };
	},
};
