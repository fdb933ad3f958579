import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationKind, Verdict } from '../../shared/gateway/kinds';
import type { LookupResult } from '../../shared/gateway/lookup';
import type { ExistingOrder, FailureKind } from '../../shared/gateway/outcome';
import type { Answer, CallOptions, GatewayContext } from '../../shared/gateway/request';
import type { HaiPaySettings } from '../../shared/signing/credential';
import type { ProductName } from '../../shared/products';

/** What one item will send: built and checked before anything is signed. */
export interface Prepared {
	path: string;
	body: IDataObject;
	currency: string;
	/** The merchant's order ID, written on every result and failure so a workflow can reconcile. */
	orderId?: string;
	acceptFile?: boolean;
	/**
	 * The credential seen through the App ID that signs this item (its currency's), set once the item is checked
	 * against the credential. Answers to the item are verified with that App ID's secret.
	 */
	signer?: HaiPaySettings;
	/** On the voucher's path, which serves every currency: the currency whose App ID signs, when the item names one. */
	signWithCurrency?: string;
	/** What a check asks a reviewer to look at without refusing the item (a code outside HaiPay's method catalogue). */
	warnings?: string[];
	/** The create takes a notifyUrl, so the credential's Default Notify URL fills one the item leaves empty. */
	takesNotifyUrl?: boolean;
	/**
	 * Whether the query that settles this create publishes a "no such order" answer (rules `queryShowsAbsence`):
	 * without one, no answer proves the order absent, and an open create stays unknown.
	 */
	absence?: boolean;
	/** When the request left (ms since the epoch): nothing HaiPay made for it is older, as a deposit address's life. */
	sentAt?: number;
	/** A sent-once request's answer data when HaiPay's signature on it verified, acceptance or not (the orderNo it names). */
	signedData?: IDataObject;
}

/** A settlement's judgement of what a proven query answer shows (kinds.ts `Verdict`), with why when it is not `done`. */
export type Judged = { verdict: 'done' } | { verdict: Exclude<Verdict, 'done'>; why: string };

/**
 * How a sent-once request whose outcome is open is settled by asking HaiPay (execute/resolve.ts): orders by their
 * order query, refunds by the refund query. Never by sending the request again. What each verdict is called on the
 * item is the kind's truth table (gateway/kinds.ts), not the settlement's.
 */
export interface Settlement {
	/** What HaiPay's proven answer says; throws an ItemFailure when no proven answer came. */
	lookup(
		ctx: GatewayContext,
		signer: HaiPaySettings,
		prepared: Prepared,
		call: Omit<CallOptions, 'kind' | 'acceptFile'>,
	): Promise<LookupResult>;
	/** What HaiPay shows under the request's ID, judged: this request's effect, another's, not yet, or beyond reach. */
	judge(data: IDataObject, prepared: Prepared): Judged;
	/**
	 * Why the query cannot be asked about this request at all, or undefined when it can: the cashier's query needs
	 * HaiPay's orderNo, which only a signed answer carries. Such a request's outcome stays unknown at once.
	 */
	unaskable?(prepared: Prepared): string | undefined;
	/** The order a query answer shows, as a `duplicate` item names the order that stands in its place (orders only). */
	existing?(data: IDataObject): ExistingOrder | undefined;
	/** The output item of a request HaiPay's query showed, with the outcome its table gives. */
	item(data: IDataObject, prepared: Prepared, outcome: string): IDataObject;
}

/** How an operation appears in the node's Operation list. */
export interface Selector {
	name: string;
	description: string;
	/** What n8n shows as the node's title when it runs this operation, and an AI agent reads as the tool's name. */
	action: string;
}

/** What every operation has: how it is listed, its parameters, how an item becomes a request, an answer output. */
interface OperationParts {
	resource: string;
	operation: string;
	selector: Selector;
	/** A check of a create: every item runs through the create's rules and comes out valid or invalid, none sent. */
	checkOnly?: boolean;
	properties: INodeProperties[];
	/** Fields no two items of one run may share, beside the orderId (a refund's orderNo: a payment is refunded once). */
	uniqueFields?: readonly string[];
	/** Advice on a failed item where it differs from a create's or a read's (a refund's speaks of its Refund ID). */
	advice?: Partial<Record<FailureKind, string>>;
	/** Throws an ItemFailure of kind `invalid` when the item breaks a rule. */
	prepare(ctx: IExecuteFunctions, itemIndex: number): Prepared;
	present(ctx: IExecuteFunctions, itemIndex: number, answer: Answer, prepared: Prepared): Promise<INodeExecutionData>;
}

/** A read: sent, retried when it may be, and its answer shown once it is about what was asked. */
interface ReadOperation extends OperationParts {
	kind: Extract<OperationKind, 'read'>;
	/**
	 * Why an answer that HaiPay signed as a success is still not proof for this request (it names another order,
	 * or has the wrong shape), or undefined when it is.
	 */
	distrust(answer: Answer, prepared: Prepared): string | undefined;
}

/**
 * A create, a refund or a change: sent once. What it makes (its endpoint's `makes`) names the product whose one
 * judge (shared/products/judge.ts) decides whether its answer is HaiPay's acceptance, and whose settlement
 * (execute/settle.ts) asks HaiPay when it is not; what each ending is called is its kind's truth table
 * (gateway/kinds.ts).
 */
interface CreateOperation extends OperationParts {
	kind: Exclude<OperationKind, 'read'>;
	makes: ProductName;
}

/** One operation of the node, whole. */
export type Operation = ReadOperation | CreateOperation;
