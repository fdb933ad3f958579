import { body, email, firstLastName, notifyUrl, orderId, partnerUserId, subject } from './common';
import type { FieldRule, RequestRules } from './types';

/*
 * HaiPay's global cashier, `POST /global/cashier/collect/apply`, as its API reference (cashier: collectApply) and the
 * version2 GlobalCashier page state it (docs/haipay-facts.md, "Global cashier collections"). The payer picks how to
 * pay on HaiPay's page (payUrl); the request names no method, no phone and no country but a two-letter region.
 *
 * What the pages leave open is HaiPay's to refuse: the Region Codes table they point to for the currencies beyond
 * USD is in no public copy, so any three upper-case letters are sent, and any two letters as the region.
 *
 * Its query (`/global/cashier/collect/query`) needs the orderNo as well as the orderId, and no page publishes its
 * answer for an order HaiPay does not have: a create whose answer was lost can never be settled by the node.
 */

/**
 * The request's `currency` is the transaction's. The node's Currency parameter picks a path elsewhere, so this one
 * has a name of its own and is sent as `currency` (as a stablecoin collection's Priced In is).
 */
export const TRANSACTION_CURRENCY = 'transactionCurrency';

/** "Supported: USD (minimum 0.99 USD)": the one currency whose least amount a page states, in cents. */
const USD_MINIMUM_CENTS = 99n;

function belowUsdMinimum(value: string, fields: Record<string, unknown>): string | undefined {
	const currency = typeof fields[TRANSACTION_CURRENCY] === 'string' ? fields[TRANSACTION_CURRENCY].trim() : '';
	if (currency !== 'USD' || !/^\d+\.\d{2}$/.test(value)) return undefined;
	return BigInt(value.replace('.', '')) < USD_MINIMUM_CENTS
		? 'must be at least 0.99 when the currency is USD'
		: undefined;
}

const fields: FieldRule[] = [
	orderId(),
	// The page sets no length on the name: HaiPay's to refuse.
	{ ...firstLastName('Maria Santos'), maxLength: undefined },
	email(true),
	{
		name: 'amount',
		displayName: 'Amount',
		required: true,
		amount: { maxDecimals: 2, exactDecimals: 2, unit: 'the transaction currency' },
		check: belowUsdMinimum,
		description: 'Amount in the Transaction Currency with exactly two decimals and no commas; at least 0.99 in USD',
		placeholder: '19.99',
	},
	{
		name: TRANSACTION_CURRENCY,
		displayName: 'Transaction Currency',
		required: true,
		pattern: /^[A-Z]{3}$/,
		patternText: 'a three-letter upper-case currency code such as USD',
		description:
			"The currency the payer is charged in: USD, or another that HaiPay's Region Codes allow. Sent as the request's currency.",
		placeholder: 'USD',
	},
	{
		name: 'callBackUrl',
		displayName: 'Success Redirect URL',
		required: true,
		format: 'url',
		description: 'Page the payer returns to after a successful payment',
	},
	{
		name: 'callBackFailUrl',
		displayName: 'Failure Redirect URL',
		required: true,
		format: 'url',
		description: 'Page the payer returns to after a failed payment',
	},
	{
		...subject(),
		required: true,
		maxLength: undefined,
		description: 'Payment note: title, product name or reason for the payment',
	},
	{
		name: 'region',
		displayName: 'Region',
		required: true,
		pattern: /^[A-Za-z]{2}$/,
		patternText: 'a two-letter region code such as US',
		description: "The payer's region, as a two-letter code (HaiPay's Region Codes)",
		placeholder: 'US',
	},
	partnerUserId(true),
	notifyUrl(),
	body(),
];

export const CASHIER_RULES: RequestRules = {
	path: '/global/cashier/collect/apply',
	additionalProperties: true,
	fields,
	source: { certainty: 'official', page: 'https://doc.haipay.net/docs/en/api-reference/cashier/api/collectApply' },
	queryShowsAbsence: false,
};

/** What a cashier order's answer carries beside orderId and orderNo: HaiPay's payment page. */
export const CASHIER_ANSWER = ['payUrl'] as const;

/** The cashier query's keys: both required (cashier: collectQuery, version2 GlobalCashier). */
export const CASHIER_QUERY_KEYS = ['orderId', 'orderNo'] as const;

/** What the cashier query answers (cashier: collectQuery). */
export const CASHIER_QUERY_ANSWER = [
	'orderId',
	'orderNo',
	'amount',
	'actualAmount',
	'fee',
	'status',
	'payTime',
	'errorMsg',
] as const;
