import { NAMED_BY_CALLBACK } from '../products';

/**
 * The notify callback (docs/haipay-facts.md, "Callbacks"): a flat JSON POST signed like an answer's `data`, over
 * every member but `sign`. HaiPay resends it every 5 minutes, up to 5 times, until it reads this text back.
 */
export const ACKNOWLEDGEMENT = 'SUCCESS';

/** The members that say which order a callback is about, what state it reached and for what amount. */
export const IDENTIFYING_FIELDS = ['appId', 'orderId', 'orderNo', 'status', 'currency', 'amount'] as const;

/** How the card token of a USD MIT collection (docs/contract.md §2.3) has been spelled by HaiPay's callbacks. */
export const TOKEN_FIELDS = ['tokenID', 'tokenId', 'tokenid', 'token_id'] as const;

/** The products a callback names by a member of their own (a subscription's charge), as their modules declare them. */
const NAMING = NAMED_BY_CALLBACK.map(({ callback }) => callback);

/** Members that decide what kind of result a callback is: a refund's number, a product's own member, a card token. */
const KIND_FIELDS: readonly string[] = ['refundNo', ...NAMING.map((named) => named.member), ...TOKEN_FIELDS];

/**
 * The deciding members that say which product a callback reports (a refund's number, a product's own member): a
 * reading that adds or takes one away reports another product, so no run may start with one of them unproven.
 */
export const PRODUCT_FIELDS: ReadonlySet<string> = new Set(['refundNo', ...NAMING.map((named) => named.member)]);

/** What a run acts on: a callback whose other reading could change one of these is never taken on its signature alone. */
export const DECIDING_FIELDS: readonly string[] = [...IDENTIFYING_FIELDS, ...KIND_FIELDS];

/**
 * Every member a callback is known to carry (docs/haipay-facts.md, "Callbacks"), with `actualAmount` as the
 * collection query answers it. The signed string escapes nothing, so a member outside this list may be text of
 * another member split off (`"errorMsg": "x&note=y"` signs exactly like `"errorMsg": "x", "note": "y"`), or a
 * field HaiPay added (its callback page says it will add some): such a field is passed on and named, never refused.
 */
export const CALLBACK_FIELDS: readonly string[] = [
	'appId',
	'currency',
	'orderId',
	'orderNo',
	'amount',
	'actualAmount',
	'fee',
	'status',
	'payTime',
	'errorMsg',
	'sign',
	...NAMING.flatMap((named) => named.members),
	// A deposit to a fixed crypto address (docs/haipay-facts.md): the transaction's hash on its chain.
	'hash',
	...TOKEN_FIELDS,
];

/** The published member whose value is text (a bank's or HaiPay's words): the only one that can hold `&`. */
const TEXT_FIELDS: readonly string[] = ['errorMsg'];

/**
 * What bounds the readings of a callback's signed string (shared/signing/readings.ts, decidingDoubt): the fields a
 * run acts on; those HaiPay writes as a number, code or time, which never hold `&` (a field outside both, errorMsg
 * or a field HaiPay added, may be any text); and the only fields every callback is taken to carry: the merchant's
 * orderId and the status, without which a callback reports no result (every callback HaiPay publishes, and every
 * integration's payout callback, has both). Nothing else is assumed present: HaiPay publishes no payout callback, so
 * a reading that adds or takes away a currency, an amount, an orderNo, an App ID, a refund number or a card token is
 * in doubt.
 */
export const CALLBACK_READINGS = {
	deciding: new Set<string>(DECIDING_FIELDS),
	plain: new Set<string>(CALLBACK_FIELDS.filter((name) => !TEXT_FIELDS.includes(name))),
	carried: new Set<string>(['orderId', 'status']),
};

/**
 * The earlier bound, which the library's verifyCallback keeps: every callback was taken to carry all its official
 * identifying members (IDENTIFYING_FIELDS), so that a reading losing one was not counted.
 */
export const CALLBACK_SHAPE = { ...CALLBACK_READINGS, carried: new Set<string>(IDENTIFYING_FIELDS) };
