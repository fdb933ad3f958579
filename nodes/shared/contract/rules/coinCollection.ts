import { collectApplyPath } from '../paths';
import { body, email, firstLastName, notifyUrl, orderId, partnerUserId, phone, subject } from './common';
import type { FieldRule, RequestRules } from './types';

/*
 * Stablecoin collections, `POST /usdt/collect/apply` and `/usdc/collect/apply`, as HaiPay's usdtc API reference
 * (usdcCollectApply) and its version2 "Stablecoin Payment" page (coinpay) state them (docs/haipay-facts.md,
 * "USDT and USDC collections"). The payer transfers to a single-use deposit address that HaiPay makes for the order
 * and that is valid for 60 minutes; the answer carries HaiPay's page (payUrl) and, as the fixed-address page names
 * it, the address (bankNo).
 *
 * Where the pages disagree only what all of them refuse is refused: partnerUserId is "numeric" on the version2 and
 * Chinese pages and letters, digits and symbols on the English reference, so the wider rule is checked; the amount's
 * "Range reference: 0.01-5000000" is a reference, and is left to HaiPay (a refusal creates nothing).
 *
 * No page publishes what the collection query answers for an order HaiPay does not have: no answer of it proves a
 * collection absent, and one whose outcome is open stays unknown until HaiPay shows it.
 */

export const COIN_COLLECTION_CURRENCIES = ['USDT', 'USDC'] as const;
type CoinCollectionCurrency = (typeof COIN_COLLECTION_CURRENCIES)[number];

/** How long HaiPay keeps a deposit address open after making it (version2 coinpay: "valid for 60 minutes"). */
export const COIN_ADDRESS_VALID_MS = 60 * 60 * 1000;

/**
 * The request's `currency`: the fiat the amount is priced in, or the coin itself for no conversion. The node's own
 * Currency parameter already names the path's coin, so this one has a name of its own and is sent as `currency`.
 */
export const PRICED_IN = 'pricedIn';

const CLIENT_TYPES = ['APP', 'WEB', 'WAP', 'MINIAPP', 'OTHERS'];

function coin(currency: CoinCollectionCurrency): RequestRules {
	const fields: FieldRule[] = [
		orderId(),
		firstLastName('Maria Santos'),
		phone(true, "Payer's real phone number"),
		email(true),
		{
			name: 'amount',
			displayName: 'Amount',
			required: true,
			// 0.01 is the least amount two decimals can write: only a zero is refused here.
			amount: { maxDecimals: 2, min: '0.01', unit: currency },
			description: `Amount in ${currency}, or in the Priced In currency when one is given: up to two decimals, no commas`,
			placeholder: '100.00',
		},
		{
			name: 'payType',
			displayName: 'Pay Type',
			required: true,
			description: "Transaction type; HaiPay's version2 page names EWALLET",
			placeholder: 'EWALLET',
		},
		{
			name: 'inBankCode',
			displayName: 'Payment Method Code',
			required: true,
			description: 'The network (chain) code HaiPay set up for your account',
			placeholder: 'Network code',
		},
		{
			name: 'callBackUrl',
			displayName: 'Success Redirect URL',
			required: true,
			format: 'url',
			maxLength: 1024,
			description: 'Page the payer returns to after a successful payment',
		},
		{
			name: 'callBackFailUrl',
			displayName: 'Failure Redirect URL',
			required: true,
			format: 'url',
			maxLength: 1024,
			description: 'Page the payer returns to after a failed payment',
		},
		{
			name: 'clientType',
			displayName: 'Client Type',
			required: true,
			enum: CLIENT_TYPES,
			description: 'Where the payer pays from',
			placeholder: 'WEB',
		},
		partnerUserId(true),
		{
			name: PRICED_IN,
			displayName: 'Priced In',
			required: false,
			pattern: /^[A-Z]{3,4}$/,
			patternText: 'an upper-case currency code such as USD, or USDT/USDC',
			description: `The fiat currency the amount is in, converted by HaiPay; leave empty for ${currency} itself (no conversion). Sent as the request's currency.`,
			placeholder: 'USD',
		},
		notifyUrl(),
		subject(),
		body(),
	];
	return {
		path: collectApplyPath(currency),
		additionalProperties: true,
		fields,
		source: {
			certainty: 'partial',
			page: `https://doc.haipay.net/docs/en/api-reference/usdtc/api/${currency.toLowerCase()}CollectApply`,
		},
		queryShowsAbsence: false,
	};
}

export const COIN_COLLECTION_RULES: Record<CoinCollectionCurrency, RequestRules> = {
	USDT: coin('USDT'),
	USDC: coin('USDC'),
};

/** What a stablecoin collection's answer may carry beside orderId and orderNo: HaiPay's page and the deposit address. */
export const COIN_COLLECTION_ANSWER = ['payUrl', 'bankNo'] as const;
