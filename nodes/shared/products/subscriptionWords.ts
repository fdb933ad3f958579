import type { IDataObject } from 'n8n-workflow';

import { CANCELLED_STATUS } from '../contract/rules/subscription';
import { exactText } from '../text';

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
