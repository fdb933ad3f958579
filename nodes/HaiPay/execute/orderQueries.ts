import type { ICredentialsDecrypted } from 'n8n-workflow';

import type { OrderKind } from '../../shared/contract/statuses';
import type { LookupResult } from '../../shared/gateway/lookup';
import type { GatewayContext } from '../../shared/gateway/request';
import type { HaiPaySettings } from '../../shared/signing/credential';
import { pool } from './pool';
import { SETTLEMENTS } from './settle';
import type { Prepared } from './types';

/** The least time worth a query before the queries' end. */
const LEAST_QUERY_MS = 20;

/**
 * One signed order query per order, by its orderId, as reads: Payout → Check asks it whether HaiPay already has each
 * row's order (check.ts). At most `concurrency` queries are in flight, and none starts once `withinMs` has passed (on
 * the monotonic clock: a step of the wall clock neither ends nor extends it).
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

/**
 * Asks about each order (item index and what it would send), and gives what came back by item index. An order the
 * time ran out for before its query started has no entry.
 */
export async function queryOrders(
	queries: OrderQueries,
	orders: ReadonlyArray<[number, Prepared]>,
): Promise<Map<number, QueryAnswer>> {
	const { ctx, settings, credential, timeoutMs, retries } = queries;
	const settlement = SETTLEMENTS[queries.kind === 'payout' ? 'payoutOrder' : 'collectionOrder'];
	const answers = new Map<number, QueryAnswer>();
	const ends = performance.now() + queries.withinMs;
	await pool(
		[...orders],
		queries.concurrency,
		// A query left a few milliseconds (the clock counts fractions, timers fire a little late) could not be answered.
		() => ends - performance.now() < LEAST_QUERY_MS,
		async ([itemIndex, prepared]) => {
			// A deadline bounds retries and their waits; a single attempt is bounded by its clipped timeout alone, so that
			// it is still sent when less than the request's least attempt time remains.
			const call = {
				timeoutMs: Math.max(1, Math.min(timeoutMs, ends - performance.now())),
				retries,
				credential,
				...(retries > 0 ? { deadlineAt: ends } : {}),
			};
			try {
				// Asked as if every currency's query published "no such order", so that an answer showing none comes back
				// `found: false`; approval/existing.ts then takes it for absent only where the rules publish one.
				const asked = { ...prepared, absence: true };
				answers.set(itemIndex, await settlement.lookup(ctx, prepared.signer ?? settings, asked, call));
			} catch (error) {
				answers.set(itemIndex, error instanceof Error ? error : new Error(String(error)));
			}
		},
	);
	return answers;
}
