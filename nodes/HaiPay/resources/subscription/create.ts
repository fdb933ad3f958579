import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { provenOutcome } from '../../../shared/gateway/kinds';
import { createSafetyNotice, currencyParameter } from '../../descriptions/fields';
import { additionalFields, fieldsFromParameter, requiredParameters } from '../../descriptions/fromRules';
import { currencyOf, prepareCreate } from '../../execute/prepare';
import { SUBSCRIPTION } from '../../../shared/products/subscription';
import { refundItem } from '../../execute/present';
import type { Operation } from '../../execute/types';

const scope = { resource: 'subscription', operation: 'create' };
const { currencies, rules, makes } = ENDPOINTS.subscriptionApply;

/** A failed create's advice speaks of the Subscription Order ID and of Subscription → Get. */
const ADVICE = {
	not_sent:
		'Nothing reached HaiPay: it is safe to send this subscription again, with the same Subscription Order ID, once the gateway is reachable.',
	rejected:
		'HaiPay refused this subscription: nothing was created. Fix the cause before sending it again with the same Subscription Order ID.',
	duplicate:
		'HaiPay already has a subscription with this Subscription Order ID: nothing new was created. Query it (Subscription > Get) to learn its state.',
	unknown:
		'The outcome is unknown: HaiPay may have created this subscription. Query it by its Subscription Order ID (Subscription > Get) before anything else; never send it again blindly.',
};

const notice: INodeProperties = {
	displayName:
		'HaiPay\'s answer carries its subscriptionNo; the subscriber then authorizes it and pays the first period. Each later charge arrives as a callback, which the HaiPay Trigger labels kind "subscription". HaiPay publishes no list of subscription statuses: statusLabel names only the two its pages show (2 created, 4 cancelled).',
	name: 'subscriptionNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: [scope.resource], operation: [scope.operation] } },
};

/** Subscription → Create: a create, sent once, its open outcome settled by the subscription query, never sent twice. */
export const createSubscription: Operation = {
	...scope,
	selector: { name: 'Create', description: 'Start a recurring USD card subscription', action: 'Create a subscription' },
	kind: 'create',
	makes,
	properties: [
		createSafetyNotice(scope.resource, scope.operation, 'Subscription Order ID'),
		currencyParameter(
			scope.resource,
			scope.operation,
			currencies,
			'Subscriptions are in USD. Use a credential whose App ID belongs to USD.',
		),
		notice,
		fieldsFromParameter(scope.resource, scope.operation),
		...requiredParameters(rules, { ...scope, currency: currencies }),
		...additionalFields(rules, { ...scope, currency: currencies }),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, currencies, true);
		const prepared = prepareCreate(ctx, itemIndex, rules.USD, currency);
		const body = { ...prepared.body, currency };
		return { ...prepared, body, orderId: String(prepared.body.subscriptionOrderId), signWithCurrency: currency };
	},
	// The merchant knows this ID as subscriptionOrderId: a repeat in the run is refused in those words.
	uniqueFields: ['subscriptionOrderId'],
	advice: ADVICE,
	async present(_ctx, _itemIndex, answer, prepared) {
		const json = refundItem(answer, prepared, { outcome: provenOutcome('create') });
		return { json: { ...json, ...SUBSCRIPTION.words?.(json) } };
	},
};
