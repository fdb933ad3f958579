import { PRODUCT_ENDPOINTS, type ProductName } from '../products';
import { FIXED_ADDRESS_CURRENCIES, FIXED_ADDRESS_PATH, FIXED_ADDRESS_RULES } from '../products/fixedAddress';
import { CURRENCIES, type Currency } from './currencies';
import type { Endpoint } from './endpoint';
import {
	applyPath,
	balancePath,
	collectApplyPath,
	MIT_APPLY_PATH,
	queryPath,
	REFUND_APPLY_PATH,
	REFUND_QUERY_PATH,
	VOUCHER_PATH,
} from './paths';
import { MIT_RULES } from './rules/collection';
import { PAYOUT_CURRENCIES, PAYOUT_RULES } from './rules/payout';
import { COIN_COLLECTION_ANSWER, COIN_COLLECTION_CURRENCIES, COIN_COLLECTION_RULES } from './rules/coinCollection';
import { LOCAL_COLLECTION_ANSWER, LOCAL_COLLECTION_CURRENCIES, LOCAL_COLLECTION_RULES } from './rules/localCollection';
import { REFUND_ANSWER, REFUND_QUERY_KEYS, REFUND_RULES } from './rules/refund';
import type { OrderKind } from './statuses';

export type { Endpoint } from './endpoint';
export type { ProductName } from '../products';

const ALL = Object.keys(CURRENCIES) as Currency[];

/** An order query (§4.7): by orderId, orderNo or both; the answer's members as the BRL, MYR, SAR and IDR tables list them. */
function orderQuery(kind: OrderKind, currencies: readonly Currency[]): Endpoint<ProductName> {
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
	/** The endpoints a product module declares (products/: subscriptions, the global cashier). */
	...PRODUCT_ENDPOINTS,
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
} satisfies Record<string, Endpoint<ProductName>>;
