import { ERROR_CODES } from '../constants';
import { fail, type Endpoint, type Handler } from './shared';

/**
 * Subscriptions (docs/haipay-facts.md, "Subscriptions"): create, cancel by subscriptionNo, and the query by either
 * number. A repeated subscriptionOrderId is refused as a repeated orderId is; a second cancel is refused.
 */
const apply: Handler = (gateway, merchant, request) => {
	const sub = gateway.subscriptions.create(merchant, request);
	return { type: 'ok', merchant, data: gateway.subscriptions.answer(sub) };
};

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const query: Handler = (gateway, merchant, request) => {
	const sub = gateway.subscriptions.find(
		merchant.appId,
		text(request.subscriptionOrderId),
		text(request.subscriptionNo),
	);
	if (!sub) return fail(ERROR_CODES.unknownSubscription, 'subscription does not exist');
	return { type: 'ok', merchant, data: gateway.subscriptions.answer(sub) };
};

const cancel: Handler = (gateway, merchant, request) => {
	const sub = gateway.subscriptions.find(merchant.appId, undefined, text(request.subscriptionNo));
	if (!sub) return fail(ERROR_CODES.unknownSubscription, 'subscription does not exist');
	const done = gateway.subscriptions.cancel(sub);
	const { subscriptionNo, status, appId } = done;
	return {
		type: 'ok',
		merchant,
		data: { appId, subscriptionNo, status, payType: done.request.payType, inBankCode: done.request.inBankCode },
	};
};

export const SUBSCRIPTION_ENDPOINTS: Endpoint[] = [
	{ path: '/subscription/apply', currency: 'USD', schema: 'subscriptionApply', handle: apply },
	{ path: '/subscription/query', currency: 'USD', schema: 'subscriptionQuery', handle: query },
	{ path: '/subscription/cancel', currency: 'USD', schema: 'subscriptionCancel', handle: cancel },
];
