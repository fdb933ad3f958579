import { dataItem } from '../../execute/present';
import type { Operation } from '../../execute/types';
import { CURRENCIES, type Currency } from '../../transport/currencies';
import { currencyOf, currencyParameter, lookupBody, lookupParameters } from '../shared';

const scope = { resource: 'payout', operation: 'get' };

/** BRL and MYR are the contract's own payout queries; every other currency uses the same generic path. */
const QUERY_CURRENCIES = (Object.keys(CURRENCIES) as Currency[]).filter((code) => code !== 'USDC');

export const getPayout: Operation = {
	...scope,
	kind: 'read',
	properties: [
		currencyParameter(scope.resource, scope.operation, QUERY_CURRENCIES, 'The currency of the payout order'),
		...lookupParameters(scope.resource, scope.operation),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, QUERY_CURRENCIES);
		const body = lookupBody(ctx, itemIndex);
		return { path: `/${currency.toLowerCase()}/pay/query`, body, currency, orderId: body.orderId as string | undefined };
	},
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared, 'payout') };
	},
};
