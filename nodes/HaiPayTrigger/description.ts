import type { INodeProperties, IWebhookDescription } from 'n8n-workflow';

import { ACKNOWLEDGEMENT } from '../shared/contract/callback';

import { APP_OPTIONS, NAMED_BY_CALLBACK } from '../shared/products';
import { MEMORY_CAPACITY } from './memory';
import { DEFAULT_WINDOW_MINUTES } from './triggerOptions';

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			"HaiPay has no API to register a callback URL. Copy the Production URL above into the Notify URL (notifyUrl) of each HaiPay request, or into HaiPay's merchant portal, and activate the workflow. The Test URL answers only while this node listens for a test event.",
		name: 'notifyUrlNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Callbacks For',
		name: 'kind',
		type: 'options',
		options: [
			{
				name: 'Collections',
				value: 'collection',
				description:
					'Card (USD MIT), local-currency, USDT/USDC and global cashier collections: statuses include partially and over-collected',
			},
			...NAMED_BY_CALLBACK.map(({ callback: { kind, option } }) => ({
				name: option.name,
				value: kind,
				description: option.description,
			})),
			{
				name: 'Payouts or Collections',
				value: 'either',
				description: 'One URL for both; items say "collection" when the body proves it, otherwise "unknown"',
			},
			{
				name: 'Payouts',
				value: 'payout',
				description: 'Payout results; a callback that is evidently a collection is acknowledged and not emitted',
			},
		],
		default: 'either',
		description:
			'What the callbacks sent to this URL are. HaiPay\'s callback does not say, so this sets the status names and the kind on each item; one whose appId is the credential\'s CASHIER App ID is a collection. A callback that names a refund (refundNo) is kind "refund", and one that names a subscription (subscriptionNo) kind "subscription", whatever this says: never a payout or a one-off collection.',
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: [
			{ name: 'Any Status', value: 'any' },
			{ name: 'Failed (3)', value: 'failed', description: 'Final: the money did not move' },
			{
				name: 'Other (Not Started, Processing, Abnormal)',
				value: 'other',
				description:
					'Statuses 0, 1, -1, any value HaiPay adds later, and a status that states no integer (" 2 ", "2.0", 2.5)',
			},
			{
				name: 'Partially or Over-Collected (4, 5)',
				value: 'partial',
				description: 'Final collection states where the amount paid differs from the order',
			},
			{ name: 'Success (2)', value: 'success', description: 'Final: the money moved' },
		],
		default: ['any'],
		description:
			'Which order statuses start the workflow. Other callbacks are still answered SUCCESS, so HaiPay does not resend them.',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'options',
		options: [{ name: 'Any', value: '' }, ...APP_OPTIONS],
		default: '',
		description:
			"Start the workflow only for this currency. Read from the callback's currency field, or from the credential's currency when the callback has none. CASHIER (Global Cashier) takes the callbacks whose appId is the credential's CASHIER App ID, whatever their currency field says, and only those.",
	},
	{
		displayName: 'Verify Signature',
		name: 'verifySignature',
		type: 'boolean',
		default: true,
		description:
			"Whether to accept only callbacks signed by HaiPay, checked over every field received with the credential's HaiPay public key and secret key. Anything else is answered 401 and starts nothing.",
	},
	{
		displayName:
			'Signature verification is off: anyone who knows this URL can start the workflow with a made-up payment result. Use this only to debug, never with real money. Items carry "verified": false.',
		name: 'verificationOffNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { verifySignature: [false] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Confirm With HaiPay',
				name: 'confirmWithHaiPay',
				type: 'boolean',
				default: false,
				description:
					"Whether to ask HaiPay for the order (its pay or collect query, signed with the credential) before starting the workflow, and start it only when HaiPay's signed answer has the callback's status. A replayed old callback then starts nothing. A callback HaiPay cannot confirm within 10 seconds is answered 503, so HaiPay sends it again. A callback with a field in ambiguousText or unknownFields then carries the fields of HaiPay's answer; a refund-shaped one (refundNo) runs once its refund query shows that refund with the same status. A global cashier collection (CASHIER App ID) is asked through the cashier query; one that lacks the orderNo or orderId that query needs, like a subscription charge (no query shows one), runs flagged confirmed: false.",
			},
			{
				displayName: 'Ignore Repeated Callbacks',
				name: 'deduplicate',
				type: 'boolean',
				default: true,
				description: `Whether a callback with the same orderNo and status (for partially or over-collected results, also amount and payTime) as one already emitted within the window is answered SUCCESS without starting the workflow again. On unless turned off here. Remembers up to ${MEMORY_CAPACITY.toLocaleString('en-US')} results (HaiPay's whole 25-minute retry series and a 5-minute margin at 1,440 results a minute); an earlier status after a final one is never emitted either way. A copy that arrives while n8n is still storing the first one's execution waits for it.`,
			},
			{
				displayName: 'Repeat Window (Minutes)',
				name: 'deduplicationWindow',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_WINDOW_MINUTES,
				description:
					'How long an emitted callback is remembered. HaiPay resends every 5 minutes, 5 times, so anything above 30 covers its retries.',
			},
			{
				displayName: 'Include Raw Body',
				name: 'includeRawBody',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the body text as received, in rawBody, with the signature value replaced by [redacted]',
			},
		],
	},
];

/** The header of every answer n8n writes for the trigger: HaiPay reads plain text. */
const PLAIN_TEXT = { entries: [{ name: 'Content-Type', value: 'text/plain; charset=utf-8' }] };
const PLAIN_TEXT_TEMPLATE = `={{ ${JSON.stringify(PLAIN_TEXT)} }}`;

/*
 * n8n 2.x evaluates a webhook description's expressions in an isolate on every request, unless the description
 * names a native resolver for the field (under this registered symbol; n8n 1.x ignores it and evaluates the
 * expression as before). The header is a constant, so its resolver returns it at no cost.
 */
const NATIVE_RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

/** The one webhook: POST, answered `SUCCESS` as plain text by n8n once an accepted callback's execution is stored. */
export const CALLBACK_WEBHOOK = {
	name: 'default',
	httpMethod: 'POST',
	path: 'webhook',
	// If n8n cannot store the execution, HaiPay hears an error and sends the callback again, instead of reading
	// SUCCESS for a result that is lost.
	responseMode: 'onReceived',
	responseData: ACKNOWLEDGEMENT,
	responseHeaders: PLAIN_TEXT_TEMPLATE,
	[NATIVE_RESOLVERS]: {
		responseHeaders: { template: PLAIN_TEXT_TEMPLATE, resolve: () => structuredClone(PLAIN_TEXT) },
	},
} as IWebhookDescription;
