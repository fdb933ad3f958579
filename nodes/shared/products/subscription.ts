import type { IDataObject } from 'n8n-workflow';

import { SUBSCRIPTION_QUERY_PATH } from '../contract/paths';
import { CANCELLED_STATUS } from '../contract/rules/subscription';
import { provenData } from '../gateway/lookup';
import { gatewayText } from '../gateway/outcome';
import type { CallOptions, GatewayContext } from '../gateway/request';
import type { HaiPaySettings } from '../signing/credential';
import { exactText } from '../text';
import { subscriberNextStep, subscriptionStatusLabel } from './subscriptionWords';
import type { Product } from './types';

/**
 * A subscription (docs/haipay-facts.md, "Subscriptions"): the merchant's subscriptionOrderId, HaiPay's
 * subscriptionNo. HaiPay publishes no subscription status values; its apply page's example answers status "2",
 * the one status an acceptance may carry. A query's status is shown as sent, never judged.
 */
export const SUBSCRIPTION: Product = {
	makes: 'subscription',
	ownMember: 'subscriptionOrderId',
	ownIdName: 'subscriptionOrderId',
	identifier: 'subscriptionNo',
	acceptable: ['2'],
	words: (data) => ({ statusLabel: subscriptionStatusLabel(data.status), nextStep: subscriberNextStep(data) }),
	query: {
		ask: async (ctx, settings, ref, options) => ({
			found: true,
			data: await lookupSubscription(ctx, settings, { subscriptionOrderId: ref.ownId }, options),
		}),
	},
};

/**
 * A recurring charge of a subscription, as its callback reports it: its own orderNo under the subscriptionNo. No
 * query HaiPay publishes shows a charge, so none can confirm one (the trigger runs it `confirmed: false`).
 */
export const SUBSCRIPTION_CHARGE: Product = {
	makes: 'subscription charge',
	ownMember: 'subscriptionNo',
	ownIdName: 'subscriptionNo',
	identifier: 'orderNo',
	acceptable: [],
};

/**
 * A cancel names no ID of the merchant's: its answer names the subscriptionNo asked about, and shows the cancel only
 * in the status the cancel page answers with (CANCELLED_STATUS); finding the subscription proves nothing else.
 */
export const CANCELLATION: Product = {
	makes: 'cancellation',
	ownMember: 'subscriptionNo',
	ownIdName: 'subscriptionNo',
	identifier: 'subscriptionNo',
	acceptable: [CANCELLED_STATUS],
	shows: (data) => exactText(data.status) === CANCELLED_STATUS,
	words: (data) => ({ statusLabel: subscriptionStatusLabel(data.status) }),
	query: {
		ask: async (ctx, settings, ref, options) => ({
			found: true,
			data: await lookupSubscription(ctx, settings, { subscriptionNo: ref.ownId }, options),
		}),
	},
};

/** A subscription asked about: by the merchant's subscriptionOrderId, HaiPay's subscriptionNo, or both. */
interface SubscriptionRef {
	subscriptionOrderId?: string;
	subscriptionNo?: string;
}

/**
 * Why an answer is not about the subscription asked for, or undefined when it is: every key asked must be named
 * back, as asked. An answer that names a key it was not asked for must not contradict one it was asked for.
 */
export function subscriptionMismatchOf(ref: SubscriptionRef, data: IDataObject): string | undefined {
	for (const name of ['subscriptionOrderId', 'subscriptionNo'] as const) {
		const asked = ref[name];
		if (asked === undefined) continue;
		const named = exactText(data[name]);
		if (named === '') return `the answer does not name the ${name} "${asked}"`;
		if (named !== asked) return `the answer is about the ${name} "${gatewayText(named)}", not "${asked}"`;
	}
	if (exactText(data.subscriptionNo) === '') return 'the answer names no subscriptionNo, so it shows no subscription';
	return undefined;
}

/**
 * Queries one subscription and proves the answer shows it. HaiPay publishes no "no such subscription" answer, so this
 * never concludes that a subscription is absent: an answer that shows none proves nothing (`untrusted`).
 */
export async function lookupSubscription(
	ctx: GatewayContext,
	settings: HaiPaySettings,
	ref: SubscriptionRef,
	options: Omit<CallOptions, 'kind' | 'acceptFile'>,
): Promise<IDataObject> {
	const body: IDataObject = { ...ref };
	for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
	return await provenData(
		ctx,
		{ path: SUBSCRIPTION_QUERY_PATH, body, what: 'subscription' },
		settings,
		options,
		(data) => subscriptionMismatchOf(ref, data),
	);
}
