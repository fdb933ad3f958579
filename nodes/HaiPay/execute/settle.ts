import type { IDataObject } from 'n8n-workflow';

import { ItemFailure, gatewayText } from '../../shared/gateway/outcome';
import { PRODUCTS, type ProductName } from '../../shared/products';
import { judge } from '../../shared/products/judge';
import type { Product, QueryRef } from '../../shared/products/types';
import { exactText } from '../../shared/text';
import { askedOf } from './asked';
import { existingOrder } from './existingOrder';
import { dataItem, refundItem } from './present';
import type { Judged, Prepared, Settlement } from './types';

/**
 * How an open sent-once request is settled by HaiPay's proven answers (execute/resolve.ts): a dispatcher over the
 * products (shared/products/), each asked by its own query and read by the one judge (shared/products/judge.ts).
 * What each verdict is called is the kind's truth table (gateway/kinds.ts).
 */

/** The product judge's word on a query answer, as a settlement's verdict: `unknown` is asked again, never concluded. */
function judged(product: Product, data: IDataObject, prepared: Prepared): Judged {
	const judgement = judge(product, data, askedOf(prepared, product));
	if (judgement.verdict === 'other') return { verdict: 'other', why: judgement.why };
	if (judgement.verdict === 'unknown' || judgement.state === 'unlisted')
		return { verdict: 'pending', why: `HaiPay's answer settles nothing: ${judgement.why}` };
	if (product.shows !== undefined && !product.shows(data))
		return {
			verdict: 'pending',
			why: `HaiPay shows it in status ${gatewayText(exactText(data.status)) || '(none)'}, which does not show the ${product.makes}`,
		};
	return { verdict: 'done' };
}

/** HaiPay's number for the request, from its own signed answer when that answer named the request's ID. */
function signedNumber(prepared: Prepared, product: Product): string | undefined {
	const data = prepared.signedData;
	if (data === undefined || exactText(data[product.ownMember]) !== prepared.orderId) return undefined;
	const number = exactText(data[product.identifier]);
	return number === '' ? undefined : number;
}

/** What the product's query asks about an open request. */
function refOf(prepared: Prepared, product: Product): QueryRef {
	return {
		ownId: prepared.orderId,
		currency: prepared.currency,
		absence: prepared.absence,
		...(product.query?.needsNumber === true ? { number: signedNumber(prepared, product) } : {}),
	};
}

/** A product's settlement: its query, its judge, and its answer shown as an order or as HaiPay sent it. */
function settlementOf(product: Product): Settlement {
	const query = product.query;
	const { orderKind } = product;
	return {
		unaskable: (prepared) =>
			query === undefined
				? `HaiPay publishes no query of a ${product.makes}`
				: query.unaskable?.(refOf(prepared, product)),
		lookup: async (ctx, signer, prepared, call) => {
			if (query === undefined) throw new ItemFailure('unknown', `HaiPay publishes no query of a ${product.makes}`);
			return await query.ask(ctx, signer, refOf(prepared, product), call);
		},
		judge: (data, prepared) => judged(product, data, prepared),
		existing: orderKind === undefined ? undefined : (data) => existingOrder(data, orderKind),
		item: (data, prepared, outcome): IDataObject => {
			const answer = { type: 'data' as const, data, verification: 'verified' as const };
			const extra = { outcome, resolvedBy: 'query' };
			if (orderKind !== undefined) return dataItem(answer, prepared, orderKind, extra);
			const item = refundItem(answer, prepared, extra);
			return { ...item, ...product.words?.(item) };
		},
	};
}

/** Every product's settlement, by the name its endpoint declares. */
export const SETTLEMENTS = Object.fromEntries(
	Object.entries(PRODUCTS).map(([name, product]) => [name, settlementOf(product)]),
) as Record<ProductName, Settlement>;
