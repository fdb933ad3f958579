import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { ORDER_ID_MAX_LENGTH, ORDER_NO_MAX_LENGTH } from '../../../shared/contract/rules/reads';
import { refundMismatchOf } from '../../../shared/products/refund';
import { currencyParameter } from '../../descriptions/fields';
import { currencyOf, lookupBody, type LookupKey } from '../../execute/prepare';
import { refundItem } from '../../execute/present';
import type { Operation } from '../../execute/types';

const scope = { resource: 'collection', operation: 'getRefund' };
const endpoint = ENDPOINTS.refundQuery;
const displayOptions = { show: { resource: [scope.resource], operation: [scope.operation] } };

const KEYS: readonly [LookupKey, LookupKey] = [
	{ name: 'orderId', maxLength: ORDER_ID_MAX_LENGTH, what: 'your Refund ID' },
	{ name: 'refundNo', maxLength: ORDER_NO_MAX_LENGTH, what: "HaiPay's refund number" },
];

const parameters: INodeProperties[] = [
	{
		displayName: 'Refund ID',
		name: 'orderId',
		type: 'string',
		default: '',
		placeholder: 'REFUND-2026-000123',
		description:
			'Your Refund ID, as sent with Collection → Refund (its orderId). Give this, the refund number, or both.',
		displayOptions,
	},
	{
		displayName: 'Refund Number',
		name: 'refundNo',
		type: 'string',
		default: '',
		description: "HaiPay's refund number (refundNo) from the refund's answer. HaiPay looks it up first.",
		displayOptions,
	},
];

/** Collection → Get Refund: the refund query, `status` as HaiPay sends it (its values are not published). */
export const getRefund: Operation = {
	...scope,
	selector: { name: 'Get Refund', description: 'Get the state of a card refund', action: 'Get a refund' },
	kind: 'read',
	properties: [
		currencyParameter(scope.resource, scope.operation, endpoint.currencies, 'Card refunds are in USD.'),
		...parameters,
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, endpoint.currencies);
		const body = lookupBody(ctx, itemIndex, KEYS);
		return { path: endpoint.path(), body, currency, orderId: body.orderId as string | undefined };
	},
	distrust(answer, prepared) {
		if (answer.type !== 'data') return 'HaiPay answered without a data object';
		return refundMismatchOf(
			{ orderId: prepared.body.orderId as string | undefined, refundNo: prepared.body.refundNo as string | undefined },
			answer.data,
		);
	},
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: refundItem(answer, prepared) };
	},
};
