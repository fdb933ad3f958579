import { email, notifyUrl, partnerUserId } from './common';
import { ORDER_ID_MAX_LENGTH } from './reads';
import type { RequestRules } from './types';

/*
 * A subscription (docs/haipay-facts.md, "Subscriptions"), as HaiPay's subscriptionApply page states it. Its Required
 * column was legible for appId, subscriptionOrderId, amount and name; the rest follow the card collection page (phone
 * and country optional there). Fields whose names no copy shows (the retry count, the discount amount, the back URL)
 * are left to Extra Fields. The page's `currency` (USD only) is the node's Currency: a field of that name here would
 * be a second parameter named `currency` on the panel, which n8n cannot tell from the Currency itself.
 */

const PAGE = 'https://doc.haipay.net/docs/en/api-reference/subscription/api/subscriptionApply';

/** The page's `recurringInterval`: D(day), W(week), M(month), Y(year). */
const RECURRING_INTERVALS = ['D', 'W', 'M', 'Y'] as const;

export const SUBSCRIPTION_RULES: RequestRules = {
	path: '/subscription/apply',
	additionalProperties: true,
	source: { page: PAGE, certainty: 'official' },
	// HaiPay publishes no query answer for a subscription it does not have.
	queryShowsAbsence: false,
	fields: [
		{
			name: 'subscriptionOrderId',
			displayName: 'Subscription Order ID',
			required: true,
			maxLength: ORDER_ID_MAX_LENGTH,
			identifier: true,
			description:
				'Your unique ID for this subscription (at most 48 characters). Take it from your data, never generate it here: it is what stops a subscription from being created twice.',
			placeholder: 'SUB-2026-000123',
		},
		{
			name: 'amount',
			displayName: 'Amount',
			required: true,
			description: 'What each period charges, in USD, with exactly two decimals (e.g. 9.99)',
			amount: { maxDecimals: 2, exactDecimals: 2, unit: 'USD' },
			placeholder: '9.99',
		},
		{
			name: 'recurringInterval',
			displayName: 'Recurring Interval',
			required: true,
			enum: [...RECURRING_INTERVALS],
			enumLabels: { D: 'Day (D)', W: 'Week (W)', M: 'Month (M)', Y: 'Year (Y)' },
			description: 'The unit of the billing cycle',
			decidesMoney: 'how often the subscriber is charged',
		},
		{
			name: 'recurringIntervalCount',
			displayName: 'Recurring Interval Count',
			required: true,
			integer: { min: 1 },
			description: 'How many intervals make one cycle (1 or more): 3 with Month charges every three months',
			placeholder: '1',
		},
		{
			name: 'name',
			displayName: 'Name',
			required: true,
			maxLength: 100,
			description: "The subscriber's real name: first and last name, separated by a space",
			placeholder: 'Donald John Trump',
		},
		{ ...email(true), description: "The subscriber's real email address" },
		{
			name: 'phone',
			displayName: 'Phone',
			required: false,
			maxLength: 30,
			description: "The subscriber's real phone number",
			placeholder: '0845632145871',
		},
		{
			name: 'subject',
			displayName: 'Subject',
			required: true,
			maxLength: 200,
			description: 'The subscription title the subscriber sees',
			placeholder: 'Monthly plan',
		},
		{
			name: 'inBankCode',
			displayName: 'Payment Method',
			required: true,
			enum: ['CREDIT_CARD', 'GOOGLE_PAY', 'APPLE_PAY'],
			enumLabels: { CREDIT_CARD: 'Credit Card', GOOGLE_PAY: 'Google Pay', APPLE_PAY: 'Apple Pay' },
			description: 'How the subscriber pays (inBankCode)',
		},
		{
			name: 'payType',
			displayName: 'Pay Type',
			required: true,
			enum: ['SUBSCRIPTION'],
			description: 'Always SUBSCRIPTION',
		},
		{
			name: 'callBackUrl',
			displayName: 'Callback URL',
			required: true,
			format: 'url',
			description: 'Where the subscriber is sent after a successful payment',
		},
		{
			name: 'country',
			displayName: 'Country',
			required: false,
			maxLength: 10,
			description: "The subscriber's country, as HaiPay's example writes it (USA)",
			placeholder: 'USA',
		},
		{ ...partnerUserId(true), description: "Your stable ID for the subscriber, used by HaiPay's risk control" },
		{
			name: 'referer',
			displayName: 'Referer',
			required: true,
			format: 'url',
			description: 'The website the subscription is sold on',
		},
		notifyUrl(),
		{
			name: 'recurringMaxNumber',
			displayName: 'Recurring Max Number',
			required: false,
			integer: { min: 1 },
			description:
				'The most cycles to charge; HaiPay cancels the subscription after it, and after 3 years whatever this says',
		},
		{ name: 'body', displayName: 'Body', required: false, maxLength: 500, description: 'Remarks' },
	],
};

/** What the apply's answer holds (the page's example); the query's is taken to be the same, and unknown members pass through. */
export const SUBSCRIPTION_ANSWER = [
	'subscriptionNo',
	'subscriptionOrderId',
	'appId',
	'subject',
	'payType',
	'inBankCode',
	'amount',
	'recurringInterval',
	'recurringIntervalCount',
	'status',
] as const;

/**
 * The status the cancel page's example answers with: the only value any page shows after a cancel, so the only one
 * read as "cancelled" (docs/haipay-facts.md). No page lists the subscription statuses.
 */
export const CANCELLED_STATUS = '4';
