import { dataItem } from '../execute/present';
import { distrustQuery } from '../execute/trust';
import type { Operation } from '../execute/types';
import type { Currency } from '../../shared/contract/currencies';
import type { OrderKind } from '../../shared/contract/statuses';
import { currencyOf, currencyParameter, lookupBody, lookupParameters } from './shared';

/** An order query: `/{ccy}/pay/query` for payouts, `/{ccy}/collect/query` for collections. */
export function queryOperation(kind: OrderKind, currencies: Currency[], currencyDescription: string): Operation {
	const scope = { resource: kind, operation: 'get' };
	const segment = kind === 'payout' ? 'pay' : 'collect';
	return {
		...scope,
		kind: 'read',
		properties: [
			currencyParameter(scope.resource, scope.operation, currencies, currencyDescription),
			...lookupParameters(scope.resource, scope.operation),
		],
		prepare(ctx, itemIndex) {
			const currency = currencyOf(ctx, itemIndex, currencies);
			const body = lookupBody(ctx, itemIndex);
			return { path: `/${currency.toLowerCase()}/${segment}/query`, body, currency, orderId: body.orderId as string | undefined };
		},
		distrust: distrustQuery,
		async present(_ctx, _itemIndex, answer, prepared) {
			return { json: dataItem(answer, prepared, kind) };
		},
	};
}
