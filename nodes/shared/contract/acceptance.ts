/**
 * What a create's answer must hold to show that HaiPay took the request. Every create endpoint declares it
 * (endpoints.ts); one rule reads it (gateway/acceptance.ts), so a new create (USDT, a subscription, the cashier)
 * takes the rule by declaring the member that carries HaiPay's own identifier for what it makes.
 */
export interface Acceptance {
	/** The answer member holding HaiPay's identifier for what the create made: `orderNo` (§2.1), `refundNo`. */
	identifier: string;
	/** The merchant's own ID for it, sent as `orderId`, as the node's fields and messages name it. */
	ownId: string;
	/** What the create makes, as messages name it: an order, a refund. */
	makes: string;
	/** The answer member that must name the request's own ID, when it is not `orderId` (a subscription's). */
	ownMember?: string;
}

/** Payouts and collections: the merchant sends `orderId`, the platform returns `orderNo` (docs/contract.md §2.1). */
export const ORDER_ACCEPTANCE: Acceptance = { identifier: 'orderNo', ownId: 'orderId', makes: 'order' };

/** Card refunds: the merchant's refund ID as `orderId`, HaiPay's refund number `refundNo` (docs/haipay-facts.md). */
export const REFUND_ACCEPTANCE: Acceptance = { identifier: 'refundNo', ownId: 'Refund ID', makes: 'refund' };

/** A subscription: the merchant's `subscriptionOrderId`, HaiPay's `subscriptionNo` (docs/haipay-facts.md, "Subscriptions"). */
export const SUBSCRIPTION_ACCEPTANCE: Acceptance = {
	identifier: 'subscriptionNo',
	ownId: 'subscriptionOrderId',
	makes: 'subscription',
	ownMember: 'subscriptionOrderId',
};

/** A cancel names no ID of the merchant's: its answer must name the subscriptionNo asked about. */
export const CANCEL_ACCEPTANCE: Acceptance = {
	identifier: 'subscriptionNo',
	ownId: 'subscriptionNo',
	makes: 'cancellation',
	ownMember: 'subscriptionNo',
};

/*
 * HaiPay publishes its order status numbers (3 is failed, and a missing order answers 3: §4.7) but not its refund
 * status words, and its texts come in English or Chinese. A status or message holding one of these words says the
 * request failed or named nothing HaiPay has; read whole words, in any case, so that "FAILED", "refund_fail" and
 * "refundFailed" count and "PROCESSING" never does.
 */

/** Words that say a request failed, was refused or ended without effect. */
export const FAILURE_WORDS: readonly string[] = [
	'FAIL',
	'FAILED',
	'FAILURE',
	'FAILS',
	'ERROR',
	'REJECT',
	'REJECTED',
	'REFUSE',
	'REFUSED',
	'DECLINE',
	'DECLINED',
	'CANCEL',
	'CANCELED',
	'CANCELLED',
	'CLOSED',
	'INVALID',
	'EXPIRED',
	'NOTFOUND',
	'NONEXISTENT',
];

/** Word pairs that say what was named does not exist: "not found", "not exist", "no such", "not_exists". */
export const NOT_FOUND_PAIRS: readonly (readonly [string, string])[] = [
	['NOT', 'FOUND'],
	['NOT', 'EXIST'],
	['NOT', 'EXISTS'],
	['NO', 'SUCH'],
];

/** The same in Chinese, where words are not separated: failed, does not exist, refused, closed, cancelled. */
export const FAILURE_TEXTS: readonly string[] = ['失败', '不存在', '拒绝', '关闭', '取消'];
