import { FIXED_ADDRESS_CURRENCIES, FIXED_ADDRESS_PATH, FIXED_ADDRESS_RULES } from '../products/fixedAddress';
import { CURRENCIES, type Currency } from './currencies';
import {
	applyPath,
	balancePath,
	CASHIER_APPLY_PATH,
	CASHIER_QUERY_PATH,
	collectApplyPath,
	MIT_APPLY_PATH,
	queryPath,
	REFUND_APPLY_PATH,
	REFUND_QUERY_PATH,
	SUBSCRIPTION_CANCEL_PATH,
	SUBSCRIPTION_QUERY_PATH,
	VOUCHER_PATH,
} from './paths';
import {
	CASHIER_ANSWER,
	CASHIER_QUERY_ANSWER,
	CASHIER_QUERY_KEYS,
	CASHIER_RULES,
	TRANSACTION_CURRENCY,
} from './rules/cashierCollection';
import { MIT_RULES } from './rules/collection';
import { PAYOUT_CURRENCIES, PAYOUT_RULES } from './rules/payout';
import { COIN_COLLECTION_ANSWER, COIN_COLLECTION_CURRENCIES, COIN_COLLECTION_RULES } from './rules/coinCollection';
import { LOCAL_COLLECTION_ANSWER, LOCAL_COLLECTION_CURRENCIES, LOCAL_COLLECTION_RULES } from './rules/localCollection';
import { REFUND_ANSWER, REFUND_QUERY_KEYS, REFUND_RULES } from './rules/refund';
import { SUBSCRIPTION_ANSWER, SUBSCRIPTION_RULES } from './rules/subscription';
import type { RequestRules } from './rules/types';
import type { OrderKind } from './statuses';
import type { OperationKind } from '../gateway/kinds';

/**
 * Every endpoint of the gateway this package calls, as docs/contract.md states it: where it lives, which
 * currencies it serves, its kind (gateway/kinds.ts: a create, refund or change is sent once and never retried, a
 * read may be), what a request
 * carries beside `appId` and `sign`, and what an answer's `data` holds. The node's operations take their
 * currencies, paths and request rules from here; README.md's Operations table and the tables of docs/haipay-node.md
 * are checked against it (test/unit/contract.test.ts).
 */
interface EndpointFacts {
	/** The section of docs/contract.md that defines it. */
	section: string;
	/** The currencies whose path prefix it takes; none for a currency-neutral endpoint. */
	currencies: readonly Currency[];
	path(currency: string): string;
	/** Checked field by field before signing, per currency; reads check their few fields in their operation. */
	rules?: Partial<Record<Currency, RequestRules>>;
	request: readonly string[];
	response: readonly string[];
}

/** What a request sent once makes, by the name of its product (shared/products/index.ts `PRODUCTS`). */
export type ProductName =
	'payoutOrder' | 'collectionOrder' | 'refund' | 'subscription' | 'cancellation' | 'cashierOrder';

/**
 * A read, or a request sent once (a create, a refund, a change), which must declare the thing it makes (products/:
 * its judge reads the answer): such an endpoint cannot be listed without it.
 */
export type Endpoint =
	(EndpointFacts & { kind: 'read' }) | (EndpointFacts & { kind: Exclude<OperationKind, 'read'>; makes: ProductName });

const ALL = Object.keys(CURRENCIES) as Currency[];

/** An order query (§4.7): by orderId, orderNo or both; the answer's members as the BRL, MYR, SAR and IDR tables list them. */
function orderQuery(kind: OrderKind, currencies: readonly Currency[]): Endpoint {
	return {
		section: '4.7',
		kind: 'read',
		currencies,
		path: (currency: string) => queryPath(kind, currency),
		request: ['orderId', 'orderNo'],
		response: ['orderId', 'orderNo', 'amount', 'fee', 'actualAmount', 'status', 'payTime', 'errorMsg'],
	};
}

export const ENDPOINTS = {
	payoutApply: {
		section: '4.1, 4.2, 4.4, 4.5, 4.6; haipay-facts (payout rails)',
		kind: 'create',
		makes: 'payoutOrder',
		currencies: PAYOUT_CURRENCIES,
		path: applyPath,
		rules: PAYOUT_RULES,
		request: [...new Set(Object.values(PAYOUT_RULES).flatMap((rules) => rules.fields.map((field) => field.name)))],
		response: ['orderId', 'orderNo', 'payUrl'],
	},
	mitApply: {
		section: '4.3',
		kind: 'create',
		makes: 'collectionOrder',
		currencies: ['USD'],
		path: () => MIT_APPLY_PATH,
		rules: { USD: MIT_RULES },
		request: MIT_RULES.fields.map((field) => field.name),
		response: ['orderId', 'orderNo', 'payUrl', 'clientToken'],
	},
	/** BRL and MYR are the contract's own payout queries; every other currency uses the same path (USDC has none). */
	payoutQuery: orderQuery(
		'payout',
		ALL.filter((code) => code !== 'USDC'),
	),
	/** SAR, IDR and USDC are the contract's own collection queries; the others use the same path. */
	collectionQuery: orderQuery('collection', ALL),
	voucher: {
		section: '4.8',
		kind: 'read',
		currencies: [],
		path: () => VOUCHER_PATH,
		request: ['orderNos', 'getFee', 'isAmount', 'getSubject', 'lang'],
		response: ['application/pdf', 'application/zip', 'data (a string)'],
	},
	/** Beyond the contract, same rules (docs/haipay-facts.md, "Other endpoints"). */
	balance: {
		section: 'haipay-facts',
		kind: 'read',
		currencies: ALL,
		path: balancePath,
		request: [],
		response: ['bal', 'availableBal', 'frzBal', 'unSettleBal'],
	},
	/** Collections in local currencies (docs/haipay-facts.md, "Local-currency collections"). */
	localCollectionApply: {
		section: 'haipay-facts',
		kind: 'create',
		makes: 'collectionOrder',
		currencies: LOCAL_COLLECTION_CURRENCIES,
		path: collectApplyPath,
		rules: LOCAL_COLLECTION_RULES,
		request: [
			...new Set(Object.values(LOCAL_COLLECTION_RULES).flatMap((rules) => rules.fields.map((field) => field.name))),
		],
		response: ['orderId', 'orderNo', ...LOCAL_COLLECTION_ANSWER],
	},
	/** Stablecoin collections to a single-use address (docs/haipay-facts.md, "USDT and USDC collections"). */
	coinCollectionApply: {
		section: 'haipay-facts',
		kind: 'create',
		makes: 'collectionOrder',
		currencies: COIN_COLLECTION_CURRENCIES,
		path: collectApplyPath,
		rules: COIN_COLLECTION_RULES,
		request: [
			...new Set(Object.values(COIN_COLLECTION_RULES).flatMap((rules) => rules.fields.map((field) => field.name))),
		],
		response: ['orderId', 'orderNo', ...COIN_COLLECTION_ANSWER],
	},
	/** A card refund: a create, of the whole payment (docs/haipay-facts.md, "Card refunds"). */
	refundApply: {
		section: 'haipay-facts',
		kind: 'refund',
		makes: 'refund',
		currencies: ['USD'],
		path: () => REFUND_APPLY_PATH,
		rules: { USD: REFUND_RULES },
		request: REFUND_RULES.fields.map((field) => field.name),
		response: [...REFUND_ANSWER],
	},
	refundQuery: {
		section: 'haipay-facts',
		kind: 'read',
		currencies: ['USD'],
		path: () => REFUND_QUERY_PATH,
		request: [...REFUND_QUERY_KEYS],
		response: [...REFUND_ANSWER],
	},
	/** Subscriptions (docs/haipay-facts.md, "Subscriptions"): USD card subscriptions, their query and cancel. */
	subscriptionApply: {
		section: 'haipay-facts',
		kind: 'create',
		makes: 'subscription',
		currencies: ['USD'],
		path: () => SUBSCRIPTION_RULES.path,
		rules: { USD: SUBSCRIPTION_RULES },
		request: [...SUBSCRIPTION_RULES.fields.map((field) => field.name), 'currency'],
		response: [...SUBSCRIPTION_ANSWER],
	},
	subscriptionQuery: {
		section: 'haipay-facts',
		kind: 'read',
		currencies: ['USD'],
		path: () => SUBSCRIPTION_QUERY_PATH,
		request: ['subscriptionOrderId', 'subscriptionNo'],
		response: [...SUBSCRIPTION_ANSWER],
	},
	subscriptionCancel: {
		section: 'haipay-facts',
		kind: 'change',
		makes: 'cancellation',
		currencies: ['USD'],
		path: () => SUBSCRIPTION_CANCEL_PATH,
		request: ['subscriptionNo'],
		response: ['appId', 'subscriptionNo', 'status', 'payType', 'inBankCode'],
	},
	/**
	 * HaiPay's global cashier (docs/haipay-facts.md, "Global cashier collections"): no currency in its path, signed
	 * with the Cashier-specific App ID; its rules are checked by its operation (they are keyed by no currency).
	 */
	cashierApply: {
		section: 'haipay-facts',
		kind: 'create',
		makes: 'cashierOrder',
		currencies: [],
		path: () => CASHIER_APPLY_PATH,
		request: CASHIER_RULES.fields.map((field) => (field.name === TRANSACTION_CURRENCY ? 'currency' : field.name)),
		response: ['orderId', 'orderNo', ...CASHIER_ANSWER],
	},
	cashierQuery: {
		section: 'haipay-facts',
		kind: 'read',
		currencies: [],
		path: () => CASHIER_QUERY_PATH,
		request: [...CASHIER_QUERY_KEYS],
		response: [...CASHIER_QUERY_ANSWER],
	},
	/**
	 * A permanent USDT deposit address (docs/haipay-facts.md, "Crypto collection to a fixed address"): asking again
	 * answers the address already bound, so it is sent as a read; each deposit to it is a collection order of HaiPay's.
	 */
	fixedAddressApply: {
		section: 'haipay-facts',
		kind: 'read',
		currencies: FIXED_ADDRESS_CURRENCIES,
		path: () => FIXED_ADDRESS_PATH,
		rules: { USDT: FIXED_ADDRESS_RULES },
		request: ['payType', 'inBankCode'],
		response: ['payUrl', 'bankNo'],
	},
} satisfies Record<string, Endpoint>;
