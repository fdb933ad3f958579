import type { ICredentialsDecrypted } from 'n8n-workflow';

import { exactStatus, statusLabel, type OrderKind } from '../../shared/contract/statuses';
import type { LookupResult } from '../../shared/gateway/lookup';
import { gatewayText, type ExistingOrder } from '../../shared/gateway/outcome';
import type { GatewayContext } from '../../shared/gateway/request';
import type { HaiPaySettings } from '../../shared/signing/credential';
import { pool } from './pool';
import { orderSettlement } from './settle';
import type { Prepared } from './types';

/**
 * One signed order query per order, by its orderId, as reads: the duplicates of a create ask it for the order that
 * stands in their place (duplicates.ts), and Payout → Check asks it whether HaiPay already has each row's order
 * (check.ts). At most `concurrency` queries are in flight, and none starts once `withinMs` has passed.
 */

export interface OrderQueries {
	ctx: GatewayContext;
	kind: OrderKind;
	settings: HaiPaySettings;
	credential: ICredentialsDecrypted;
	concurrency: number;
	/** How long all the queries together may take, from the first. */
	withinMs: number;
	/** Each attempt's deadline, clipped to what remains of `withinMs`. */
	timeoutMs: number;
	/** Extra attempts for each query; their backoffs end by `withinMs` too. */
	retries: number;
}

/** HaiPay's proven answer about one order, or why none came. */
export type QueryAnswer = LookupResult | Error;

/** The order a signed answer shows, as a duplicate item and the check carry it. */
export function existingOrder(data: Record<string, unknown>, kind: OrderKind): ExistingOrder | undefined {
	const orderNo = typeof data.orderNo === 'string' ? gatewayText(data.orderNo) : '';
	if (orderNo === '') return undefined;
	const status = exactStatus(data.status);
	const label = statusLabel(status, kind);
	const amount =
		typeof data.amount === 'string' || typeof data.amount === 'number' ? gatewayText(String(data.amount)) : '';
	return {
		orderNo,
		...(status !== undefined ? { status } : {}),
		...(label !== undefined ? { statusLabel: label } : {}),
		...(amount !== '' ? { amount } : {}),
	};
}

/**
 * Asks about each order (item index and what it would send), and gives what came back by item index. An order the
 * time ran out for before its query started has no entry.
 */
export async function queryOrders(
	queries: OrderQueries,
	orders: ReadonlyArray<[number, Prepared]>,
): Promise<Map<number, QueryAnswer>> {
	const { ctx, settings, credential, timeoutMs, retries } = queries;
	const settlement = orderSettlement(queries.kind);
	const answers = new Map<number, QueryAnswer>();
	const ends = Date.now() + queries.withinMs;
	await pool(
		[...orders],
		queries.concurrency,
		() => Date.now() >= ends,
		async ([itemIndex, prepared]) => {
			// A deadline bounds retries and their waits; a single attempt is bounded by its clipped timeout alone, so that
			// it is still sent when less than the request's least attempt time remains.
			const call = {
				timeoutMs: Math.max(1, Math.min(timeoutMs, ends - Date.now())),
				retries,
				credential,
				...(retries > 0 ? { deadline: ends } : {}),
			};
			try {
				answers.set(itemIndex, await settlement.lookup(ctx, prepared.signer ?? settings, prepared, call));
			} catch (error) {
				answers.set(itemIndex, error instanceof Error ? error : new Error(String(error)));
			}
		},
	);
	return answers;
}
