import type { IDataObject } from 'n8n-workflow';

import type { OrderKind } from '../contract/statuses';
import type { LookupResult } from '../gateway/lookup';
import type { CallOptions, GatewayContext } from '../gateway/request';
import type { HaiPaySettings } from '../signing/credential';

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
	/** An order's kind, for its status labels where it is shown; undefined for a thing that is no order. */
	orderKind?: OrderKind;
	/** Its published query; undefined where HaiPay publishes none. */
	query?: ProductQuery;
	/** What an item about it adds in words (a subscription's statusLabel, what the subscriber does next). */
	words?(data: IDataObject): IDataObject;
	/**
	 * The App ID of its own that signs it, where it has one, as a credential names it in place of a currency: every
	 * callback signed with that App ID reports this product. `appName` is the product as the credential shows it.
	 */
	app?: string;
	appName?: string;
	/** The first segment of its paths where it names no currency; they are signed with `app`, or any App ID without one. */
	pathPrefix?: string;
	/**
	 * Why each ID its request carries is sent once, by the field holding it: a second item of one run with it is
	 * refused unsent (HaiPay/execute/repeats.ts), beside the orderId every order has.
	 */
	takenOnce?: Readonly<Record<string, string>>;
}

/**
 * How a callback of its own names a product that is neither a payout nor a one-off collection (a subscription's
 * recurring charge): by a member no other result carries. The trigger gives such a callback this kind whatever it
 * was told, offers the kind under Callbacks For, and keys each report on its own (HaiPayTrigger/keys.ts).
 */
export interface CallbackNaming {
	/** The trigger's kind for such a callback, and the Callbacks For value that takes only them. */
	kind: string;
	/** The member whose presence names the product, and every member a callback of it is known to carry beside an order's. */
	member: string;
	members: readonly string[];
	/** The product as the trigger's messages name it, and what one of its callbacks is. */
	noun: string;
	what: string;
	/** Its Callbacks For option. */
	option: { name: string; description: string };
	/** Its repeat-key form: `<prefix>:<member>|<orderNo>|<status>|["<amount>","<payTime>"]`, each report its own result. */
	keyPrefix: string;
}

/** A product a callback names by a member of its own; its query, if any, is what Confirm With HaiPay asks. */
export type NamedProduct = Product & { callback: CallbackNaming };

/** What one query of a product asks about: the merchant's ID, HaiPay's number when known, the currency's path. */
export interface QueryRef {
	ownId?: string;
	number?: string;
	currency: string;
	/** Whether the currency's query publishes "no such order" (rules `queryShowsAbsence`); unset, its rules say. */
	absence?: boolean;
}

/** How a product is asked about: the node's settlement, Payout → Check and the trigger's Confirm all ask it so. */
export interface ProductQuery {
	/** HaiPay's number is asked with the merchant's ID (the cashier's query needs both); others ask by the ID alone. */
	needsNumber?: boolean;
	/** Why this query cannot be asked about `ref` at all (the cashier's needs HaiPay's orderNo), or undefined. */
	unaskable?(ref: QueryRef): string | undefined;
	/** HaiPay's proven answer; throws an ItemFailure when none came (gateway/lookup.ts `provenData`). */
	ask(
		ctx: GatewayContext,
		settings: HaiPaySettings,
		ref: QueryRef,
		options: Omit<CallOptions, 'kind' | 'acceptFile'>,
	): Promise<LookupResult>;
}
