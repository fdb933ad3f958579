import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { ItemFailure } from '../../../shared/gateway/outcome';
import { lookupBody } from '../../execute/prepare';
import { dataItem } from '../../execute/present';
import { distrustQuery } from '../../execute/trust';
import type { Operation } from '../../execute/types';

const scope = { resource: 'collection', operation: 'getCashier' };
const endpoint = ENDPOINTS.cashierQuery;
const displayOptions = { show: { resource: [scope.resource], operation: [scope.operation] } };

const parameters: INodeProperties[] = [
	{
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'SHOP-2026-000123',
		description: 'Your order ID, as sent with Create Cashier Payment',
		displayOptions,
	},
	{
		displayName: 'Order Number',
		name: 'orderNo',
		type: 'string',
		required: true,
		default: '',
		description:
			"HaiPay's order number (orderNo) from the create's answer or its callback: the cashier's query requires it",
		displayOptions,
	},
];

/** Collection → Get Cashier Payment: `/global/cashier/collect/query`, which requires the orderId and the orderNo. */
export const getCashierCollection: Operation = {
	...scope,
	selector: {
		name: 'Get Cashier Payment',
		description: 'Get the state of a global cashier order',
		action: 'Get a cashier payment',
	},
	kind: 'read',
	properties: parameters,
	prepare(ctx, itemIndex) {
		const body = lookupBody(ctx, itemIndex);
		const missing = endpoint.request.find((key) => body[key] === undefined);
		if (missing !== undefined) {
			throw new ItemFailure(
				'invalid',
				`"${missing}" is required: HaiPay's cashier query takes the orderId and the orderNo together`,
				{ field: missing, rule: 'required' },
			);
		}
		return { path: endpoint.path(), body, currency: '', orderId: body.orderId as string };
	},
	distrust: distrustQuery,
	async present(_ctx, _itemIndex, answer, prepared) {
		// The query names no path currency; a `currency` HaiPay's answer carries (query v2) stays as it came.
		const json = dataItem(answer, prepared, 'collection');
		const theirs = answer.type === 'data' ? answer.data.currency : undefined;
		if (theirs === undefined) delete json.currency;
		else json.currency = theirs;
		return { json };
	},
};
