import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { ORDER_ID_MAX_LENGTH, ORDER_NO_MAX_LENGTH } from '../../../shared/contract/rules/reads';
import { subscriptionMismatchOf } from '../../../shared/products/subscription';
import { currencyParameter } from '../../descriptions/fields';
import { currencyOf, lookupBody, type LookupKey } from '../../execute/prepare';
import { subscriptionStatusLabel } from '../../../shared/products/subscription';
import { refundItem } from '../../execute/present';
import type { Operation } from '../../execute/types';

const scope = { resource: 'subscription', operation: 'get' };
const endpoint = ENDPOINTS.subscriptionQuery;
const displayOptions = { show: { resource: [scope.resource], operation: [scope.operation] } };

const KEYS: readonly [LookupKey, LookupKey] = [
	{ name: 'subscriptionOrderId', maxLength: ORDER_ID_MAX_LENGTH, what: 'your Subscription Order ID' },
	{ name: 'subscriptionNo', maxLength: ORDER_NO_MAX_LENGTH, what: "HaiPay's subscription number" },
];

const parameters: INodeProperties[] = [
	{
		displayName: 'Subscription Order ID',
		name: 'subscriptionOrderId',
		type: 'string',
		default: '',
		placeholder: 'SUB-2026-000123',
		description:
			'Your Subscription Order ID, as sent with Subscription → Create. Give this, the subscription number, or both.',
		displayOptions,
	},
	{
		displayName: 'Subscription Number',
		name: 'subscriptionNo',
		type: 'string',
		default: '',
		description: "HaiPay's subscription number (subscriptionNo) from the create's answer",
		displayOptions,
	},
];

/** Subscription → Get: the subscription query, `status` as HaiPay sends it (its values are not published). */
export const getSubscription: Operation = {
	...scope,
	selector: { name: 'Get', description: 'Get the state of a subscription', action: 'Get a subscription' },
	kind: 'read',
	properties: [
		currencyParameter(scope.resource, scope.operation, endpoint.currencies, 'Subscriptions are in USD.'),
		...parameters,
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, endpoint.currencies);
		const body = lookupBody(ctx, itemIndex, KEYS);
		return {
			path: endpoint.path(),
			body,
			currency,
			orderId: body.subscriptionOrderId as string | undefined,
			signWithCurrency: currency,
		};
	},
	distrust(answer, prepared) {
		if (answer.type !== 'data') return 'HaiPay answered without a data object';
		const ref = {
			subscriptionOrderId: prepared.body.subscriptionOrderId as string | undefined,
			subscriptionNo: prepared.body.subscriptionNo as string | undefined,
		};
		return subscriptionMismatchOf(ref, answer.data);
	},
	async present(_ctx, _itemIndex, answer, prepared) {
		const json = refundItem(answer, prepared);
		return { json: { ...json, statusLabel: subscriptionStatusLabel(json.status) } };
	},
};
