import type { IDataObject } from 'n8n-workflow';

import type { Endpoint } from '../contract/endpoint';
import { CANCELLED_STATUS, SUBSCRIPTION_ANSWER, SUBSCRIPTION_RULES } from '../contract/rules/subscription';
import { provenData } from '../gateway/lookup';
import { gatewayText } from '../gateway/outcome';
import type { CallOptions, GatewayContext } from '../gateway/request';
import type { HaiPaySettings } from '../signing/credential';
import { exactText } from '../text';
import type { NamedProduct, Product } from './types';

/**
 * Subscriptions (docs/haipay-facts.md, "Subscriptions"): apply and cancel are HaiPay's published paths; the query's
 * path is not in any public copy and follows theirs.
 */
const CANCEL_PATH = '/subscription/cancel';
const QUERY_PATH = '/subscription/query';

/** USD card subscriptions, their query and cancel (contract/endpoints.ts lists them with every other endpoint). */
export const SUBSCRIPTION_ENDPOINTS = {
	subscriptionApply: {
		section: 'haipay-facts',
		kind: 'create',
		makes: 'subscription',
		currencies: ['USD'],
		path: () => SUBSCRIPTION_RULES.path,
		rules: { USD: SUBSCRIPTION_RULES },
		request: [...SUBSCRIPTION_RULES.fields.map((field) => field.name), 'currency'],
		response: [...SUBSCRIPTION_ANSWER],
	},
	subscriptionQuery: {
		section: 'haipay-facts',
		kind: 'read',
		currencies: ['USD'],
		path: () => QUERY_PATH,
		request: ['subscriptionOrderId', 'subscriptionNo'],
		response: [...SUBSCRIPTION_ANSWER],
	},
	subscriptionCancel: {
		section: 'haipay-facts',
		kind: 'change',
		makes: 'cancellation',
		currencies: ['USD'],
		path: () => CANCEL_PATH,
		request: ['subscriptionNo'],
		response: ['appId', 'subscriptionNo', 'status', 'payType', 'inBankCode'],
	},
} satisfies Record<string, Endpoint<'subscription' | 'cancellation'>>;

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
	takenOnce: { subscriptionOrderId: 'HaiPay takes a subscriptionOrderId once' },
	// Its paths name no currency: the credential's USD App ID signs them as any other would.
	pathPrefix: 'subscription',
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
 * query HaiPay publishes shows a charge, so none can confirm one (the trigger runs it `confirmed: false`). HaiPay
 * publishes no such callback (docs/haipay-facts.md, "Subscriptions"); every charge is tied to its subscriptionNo.
 */
export const SUBSCRIPTION_CHARGE = {
	makes: 'subscription charge',
	ownMember: 'subscriptionNo',
	ownIdName: 'subscriptionNo',
	identifier: 'orderNo',
	acceptable: [],
	// A charge is a card collection HaiPay numbers by its orderNo: its status reads as a collection order's.
	orderKind: 'collection',
	callback: {
		kind: 'subscription',
		member: 'subscriptionNo',
		// No page lists a charge's callback fields (docs/haipay-facts.md, "Subscriptions").
		members: ['subscriptionNo', 'subscriptionOrderId'],
		noun: 'subscription',
		what: 'a recurring charge',
		option: {
			name: 'Subscriptions',
			description:
				'Recurring charges of subscriptions (they name a subscriptionNo); any other callback is acknowledged and not emitted',
		},
		keyPrefix: 'sub',
	},
} as const satisfies NamedProduct;

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
	pathPrefix: 'subscription',
	takenOnce: {
		// A second cancel's answer could not be told from the first's, and HaiPay refuses it unsigned anyway.
		subscriptionNo:
			'a subscription is cancelled once, and a second cancel in the run could only be refused or mistaken for the first',
	},
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
	return await provenData(ctx, { path: QUERY_PATH, body, what: 'subscription' }, settings, options, (data) =>
		subscriptionMismatchOf(ref, data),
	);
}

/**
 * The words an item gives a subscription's state and next step. HaiPay publishes no list of subscription statuses
 * (docs/haipay-facts.md, "Subscriptions"): its pages show two values, each in one answer, and only those are named,
 * by that answer: "2" in the apply page's example, "4" in the cancel page's. Any other value is shown as sent, with
 * no label, never a guessed one.
 */
const SHOWN_IN: Record<string, string> = { '2': 'created', [CANCELLED_STATUS]: 'cancelled' };

export function subscriptionStatusLabel(status: unknown): string | null {
	return SHOWN_IN[exactText(status)] ?? null;
}

/**
 * What the subscriber does next after a create HaiPay took. HaiPay's subscription page names two ways: a PayUrl
 * redirect to its hosted page, and a JS embed of its component with a client token; its apply example answers
 * neither, so an answer without either says so instead of inventing a link.
 */
export function subscriberNextStep(data: IDataObject): string {
	if (exactText(data.payUrl) !== '')
		return 'Send the subscriber to payUrl, HaiPay’s page, to authorize the subscription and pay its first period; each later charge reaches the HaiPay Trigger as kind "subscription".';
	if (exactText(data.clientToken) !== '')
		return 'Show HaiPay’s payment component to the subscriber with clientToken (HaiPay’s JS embed), to authorize the subscription and pay its first period; each later charge reaches the HaiPay Trigger as kind "subscription".';
	return 'HaiPay’s answer gives no payUrl or clientToken: the subscriber authorizes the subscription the way HaiPay set up for your account (its hosted page or its JS component), and each later charge reaches the HaiPay Trigger as kind "subscription".';
}
