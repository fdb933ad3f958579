import type { IDataObject } from 'n8n-workflow';

import type { Endpoint } from '../contract/endpoint';
import {
	CASHIER_ANSWER,
	CASHIER_QUERY_ANSWER,
	CASHIER_QUERY_KEYS,
	CASHIER_RULES,
	TRANSACTION_CURRENCY,
} from '../contract/rules/cashierCollection';
import { isNotFound, provenData, unproven } from '../gateway/lookup';
import { gatewayText } from '../gateway/outcome';
import type { CallOptions, GatewayContext } from '../gateway/request';
import type { HaiPaySettings } from '../signing/credential';
import { COLLECTION_ORDER } from './order';
import type { Product } from './types';

/**
 * The global cashier (docs/haipay-facts.md, "Global cashier collections") has no currency in its path: its prefix is
 * `global`, and the App ID that signs it is the merchant's Cashier-specific one.
 */
const QUERY_PATH = '/global/cashier/collect/query';

/**
 * HaiPay's global cashier: no currency in its path, signed with the Cashier-specific App ID; its rules are checked by
 * its operation (they are keyed by no currency). contract/endpoints.ts lists them with every other endpoint.
 */
export const CASHIER_ENDPOINTS = {
	cashierApply: {
		section: 'haipay-facts',
		kind: 'create',
		makes: 'cashierOrder',
		currencies: [],
		path: () => CASHIER_RULES.path,
		request: CASHIER_RULES.fields.map((field) => (field.name === TRANSACTION_CURRENCY ? 'currency' : field.name)),
		response: ['orderId', 'orderNo', ...CASHIER_ANSWER],
	},
	cashierQuery: {
		section: 'haipay-facts',
		kind: 'read',
		currencies: [],
		path: () => QUERY_PATH,
		request: [...CASHIER_QUERY_KEYS],
		response: [...CASHIER_QUERY_ANSWER],
	},
} satisfies Record<string, Endpoint<'cashierOrder'>>;

/**
 * A global cashier order (docs/haipay-facts.md, "Global cashier collections"): an order like a collection's, with
 * its statuses, signed with the Cashier-specific App ID, whose query needs HaiPay's orderNo beside the orderId.
 */
export const CASHIER_ORDER: Product = {
	...COLLECTION_ORDER,
	makes: 'cashier order',
	// HaiPay: "must use the Cashier-specific APPID, currency is CASHIER" (api-reference cashier: collectApply).
	app: 'CASHIER',
	appName: 'Global Cashier',
	pathPrefix: 'global',
	query: {
		needsNumber: true,
		unaskable: (ref) =>
			ref.ownId !== undefined && ref.number !== undefined
				? undefined
				: "HaiPay's cashier query needs the order's orderNo as well as its orderId, and no signed answer of HaiPay's gave this order's orderNo",
		ask: async (ctx, settings, ref, options) => ({
			found: true,
			data: await lookupCashierOrder(ctx, settings, { orderId: ref.ownId, orderNo: ref.number ?? '' }, options),
		}),
	},
};

/** A global cashier order asked about: its query takes both numbers (docs/haipay-facts.md, "Global cashier collections"). */
export interface CashierRef {
	/** Optional only as a prepared request types it (execute/types.ts): every caller has one. */
	orderId?: string;
	orderNo: string;
}

/**
 * A query asked by orderNo may echo it: a status 3 with no amount names no order HaiPay has, and, as HaiPay publishes
 * no "no such order" answer for the cashier's query, not its absence either.
 */
function echoOnly(data: IDataObject): string | undefined {
	if (!isNotFound(data)) return undefined;
	const said = gatewayText(data.errorMsg);
	return `the answer has status 3 and no order behind it${said === '' ? '' : ` ("${said}")`}, and HaiPay publishes no "no such order" answer for the cashier query, so it proves nothing`;
}

/**
 * Queries one cashier order (`/global/cashier/collect/query`, signed with the Cashier App ID by its `/global/` prefix)
 * and proves the answer shows it: signed by HaiPay, naming both numbers, with an order behind it. Never concludes
 * "no such order". Throws an ItemFailure otherwise, as every proven lookup does (gateway/lookup.ts `provenData`).
 */
export async function lookupCashierOrder(
	ctx: GatewayContext,
	settings: HaiPaySettings,
	ref: CashierRef,
	options: Omit<CallOptions, 'kind' | 'acceptFile'>,
): Promise<IDataObject> {
	const asked = { ...ref, absence: false };
	const query = {
		path: QUERY_PATH,
		body: { orderId: ref.orderId, orderNo: ref.orderNo },
		what: 'cashier order',
	};
	return await provenData(ctx, query, settings, options, (data) => unproven(asked, data) ?? echoOnly(data));
}
