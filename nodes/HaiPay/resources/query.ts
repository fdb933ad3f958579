import type { Endpoint } from '../../shared/contract/endpoints';
import type { OrderKind } from '../../shared/contract/statuses';
import { currencyParameter, lookupParameters } from '../descriptions/fields';
import { currencyOf, lookupBody } from '../execute/prepare';
import { dataItem } from '../execute/present';
import { distrustQuery } from '../execute/trust';
import type { Operation, Selector } from '../execute/types';

/** An order query, `/{ccy}/pay/query` or `/{ccy}/collect/query`: Payout → Get and Collection → Get are the same but for these. */
export function queryOperation(
	kind: OrderKind,
	endpoint: Endpoint,
	selector: Selector,
	currencyDescription: string,
): Operation {
	const scope = { resource: kind, operation: 'get' };
	return {
		...scope,
		selector,
		kind: 'read',
		properties: [
			currencyParameter(scope.resource, scope.operation, endpoint.currencies, currencyDescription),
			...lookupParameters(scope.resource, scope.operation),
		],
		prepare(ctx, itemIndex) {
			const currency = currencyOf(ctx, itemIndex, endpoint.currencies);
			const body = lookupBody(ctx, itemIndex);
			return { path: endpoint.path(currency), body, currency, orderId: body.orderId as string | undefined };
		},
		distrust: distrustQuery,
		async present(_ctx, _itemIndex, answer, prepared) {
			return { json: dataItem(answer, prepared, kind) };
		},
	};
}
