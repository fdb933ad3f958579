import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { ORDER_NO_MAX_LENGTH } from '../../../shared/contract/rules/reads';
import { provenOutcome } from '../../../shared/gateway/kinds';
import { ItemFailure } from '../../../shared/gateway/outcome';
import { currencyParameter } from '../../descriptions/fields';
import { currencyOf } from '../../execute/prepare';
import { parameterValue } from '../../execute/parameters';
import { subscriptionStatusLabel } from '../../../shared/products/subscription';
import { refundItem } from '../../execute/present';
import type { Operation } from '../../execute/types';
import { trimmedText } from '../../../shared/text';

const scope = { resource: 'subscription', operation: 'cancel' };
const endpoint = ENDPOINTS.subscriptionCancel;
const displayOptions = { show: { resource: [scope.resource], operation: [scope.operation] } };

const ADVICE = {
	not_sent: 'Nothing reached HaiPay: it is safe to send this cancel again once the gateway is reachable.',
	rejected:
		'HaiPay refused this cancel: the subscription is unchanged. Query it (Subscription > Get) to learn its state.',
	unknown:
		'The outcome is unknown: HaiPay may have cancelled this subscription, or not. Query it (Subscription > Get) before telling the subscriber either.',
};

const parameters: INodeProperties[] = [
	{
		displayName: 'Subscription Number',
		name: 'subscriptionNo',
		type: 'string',
		required: true,
		default: '',
		description: "HaiPay's subscription number (subscriptionNo) of the subscription to cancel",
		displayOptions,
	},
];

/**
 * Subscription → Cancel: a change, sent once. Only a signed answer in the cancelled state proves it; anything else
 * is settled by the subscription query, where a subscription found unchanged is never called cancelled.
 */
export const cancelSubscription: Operation = {
	...scope,
	selector: { name: 'Cancel', description: 'Stop a subscription’s future charges', action: 'Cancel a subscription' },
	kind: 'change',
	makes: endpoint.makes,
	properties: [
		currencyParameter(scope.resource, scope.operation, endpoint.currencies, 'Subscriptions are in USD.'),
		...parameters,
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, endpoint.currencies);
		const subscriptionNo = trimmedText(parameterValue(ctx, itemIndex, 'subscriptionNo', ''));
		if (subscriptionNo === '')
			throw new ItemFailure('invalid', '"subscriptionNo" is required', { field: 'subscriptionNo', rule: 'required' });
		if (subscriptionNo.length > ORDER_NO_MAX_LENGTH) {
			throw new ItemFailure(
				'invalid',
				`"subscriptionNo" must be at most ${ORDER_NO_MAX_LENGTH} characters (got ${subscriptionNo.length})`,
				{ field: 'subscriptionNo', rule: 'maxLength' },
			);
		}
		return {
			path: endpoint.path(),
			body: { subscriptionNo },
			currency,
			orderId: subscriptionNo,
			signWithCurrency: currency,
		};
	},
	uniqueFields: ['subscriptionNo'],
	advice: ADVICE,
	async present(_ctx, _itemIndex, answer, prepared) {
		const json = refundItem(answer, prepared, { outcome: provenOutcome('change') });
		return { json: { ...json, statusLabel: subscriptionStatusLabel(json.status) } };
	},
};
