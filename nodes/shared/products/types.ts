import type { IDataObject } from 'n8n-workflow';

/** What a request asked for, as the judge holds HaiPay's signed answers against it. */
export interface Asked {
	/** The merchant's own ID of the request: an orderId, a refund ID, a subscriptionOrderId, a cancel's subscriptionNo. */
	ownId: string;
	/** HaiPay's number for it when it is already known (a cashier order's orderNo from its signed answer). */
	number?: string;
	/** The amount sent, as written; compared by decimal value. */
	amount?: string;
	/** The currencies an answer may name: the path's and, for a priced collection, the pricing currency. */
	currencies?: readonly string[];
	/** A refund's payment: the collection's orderNo it asked to refund. */
	payment?: string;
}

/** Where a thing HaiPay numbers stands, by a status HaiPay publishes for it. */
export type State = 'done' | 'pending' | 'failed';

/**
 * What one signed answer about a product says of a request:
 * - `this`: the request's own thing (its ID, HaiPay's number for it, its amount, currency and payment), in a state
 *   HaiPay publishes (`unpublished` where it publishes none for the product, `none` when the answer states none), or
 *   `unlisted` with why: a status HaiPay publishes for nothing of the kind, or a second status beside it. The thing
 *   is at HaiPay, but where it stands is not known;
 * - `other`: a thing under the same ID made by another request (another amount, currency or payment);
 * - `unknown`: it proves neither (no HaiPay number, not this request's ID, an amount that is no decimal).
 */
export type Judgement =
	| { verdict: 'this'; state: State | 'unpublished' | 'none' }
	| { verdict: 'this'; state: 'unlisted'; why: string }
	| { verdict: 'other'; why: string }
	| { verdict: 'unknown'; why: string };

/**
 * One thing HaiPay numbers, whole: how its answers name it, the statuses HaiPay publishes for it, and which of them
 * an acceptance may carry. The judge (judge.ts) reads every signed answer about it through this, for the node's
 * acceptance and settlement, Payout → Check's look-up and the trigger's Confirm With HaiPay alike.
 */
export interface Product {
	/** What it is, as messages name it: an order, a refund, a subscription, a cancellation. */
	makes: string;
	/** The answer member that names the merchant's own ID, and that ID as messages name it. */
	ownMember: string;
	ownIdName: string;
	/** The member with HaiPay's number for what it made: orderNo, refundNo, subscriptionNo. */
	identifier: string;
	/** The member naming the payment a refund is of (the collection's orderNo), and what messages call it. */
	paymentMember?: string;
	paymentName?: string;
	/** The state each status HaiPay publishes means, by the status as written; undefined where none is published. */
	statuses?: Readonly<Record<string, State>>;
	/** The statuses (as written) a create's answer may carry and still be an acceptance; none at all always may. */
	acceptable: readonly string[];
	/** For a change, whether HaiPay's answer shows it made (a cancelled status); a found thing proves nothing else. */
	shows?(data: IDataObject): boolean;
}

/** The products by name, as an endpoint of the contract declares what it makes (contract/endpoints.ts). */
export type ProductName =
	'payoutOrder' | 'collectionOrder' | 'refund' | 'subscription' | 'cancellation' | 'cashierOrder';
