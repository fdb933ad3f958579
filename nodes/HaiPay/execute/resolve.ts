import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { OUTCOME_TABLES, verdictOutcome, type OperationKind, type Outcome } from '../../shared/gateway/kinds';
import type { LookupResult } from '../../shared/gateway/lookup';
import { ItemFailure, gatewayText, type FailureKind } from '../../shared/gateway/outcome';
import type { CallOptions, GatewayContext } from '../../shared/gateway/request';
import type { HaiPaySettings } from '../../shared/signing/credential';
import { pool } from './pool';
import type { Prepared, Settlement } from './types';

/** What HaiPay's proven answers say of a sent-once request whose outcome was not proven, named by its kind's table. */
export type Resolution =
	{ type: 'shown'; data: IDataObject; outcome: Outcome } | { type: 'failed'; failure: ItemFailure };

/** One create to settle: what it sent, why its outcome is open, and when its request ended. */
export interface Unsettled {
	itemIndex: number;
	prepared: Prepared;
	failure: ItemFailure;
	/**
	 * When the create's request ended (answered, failed or timed out), on the monotonic clock (`performance.now()`), as
	 * every time here: a create in flight lands after this.
	 */
	endedAt: number;
}

export interface ResolveSettings {
	/** The requests' kind: its truth table (gateway/kinds.ts) names what each answer of the query settles. */
	kind: OperationKind;
	/** How the requests are asked about: their order query, or the refund query (execute/settle.ts). */
	settlement: Settlement;
	settings: HaiPaySettings;
	call: Omit<CallOptions, 'kind' | 'acceptFile' | 'retries'>;
	concurrency: number;
	/** How long to keep asking, from the moment resolution starts. */
	withinMs: number;
	/** "No such order" counts only from a query sent at least this long after the create's request ended. */
	notFoundAfterMs: number;
}

/** Waits between queries of one order: soon after the send, then less often. */
const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];

interface Open extends Unsettled {
	attempts: number;
	nextAt: number;
	why: string;
	resolution?: Resolution;
}

/**
 * A refusal that says the ID is already used, once HaiPay's signed query shows what stands under it: `duplicate`,
 * naming the order (its orderNo, status and amount) where the product is an order.
 */
function shownDuplicate(failure: ItemFailure, data: IDataObject, settlement: Settlement): ItemFailure {
	const existing = settlement.existing?.(data);
	if (existing === undefined)
		return new ItemFailure('duplicate', `${failure.message}; HaiPay's signed query shows it`, failure.details);
	const state = existing.statusLabel ?? (existing.status === undefined ? 'no status' : `status ${existing.status}`);
	const message = `${failure.message}; HaiPay's signed query shows its order ${existing.orderNo} (${state})`;
	return new ItemFailure('duplicate', message, { ...failure.details, existing });
}

/**
 * What HaiPay shows under the request's ID, as the product's judge reads it and the kind's table names it. A
 * `pending` verdict settles nothing (an answer the judge cannot read, a cancel whose subscription still shows its
 * old state): the request is asked about again. After an "already exists" refusal, whatever HaiPay shows under the
 * ID is the duplicate; after a change's "already so" (a subscription already cancelled), only the state it asks for
 * is, and this request changed nothing.
 */
function found(open: Open, data: IDataObject, how: ResolveSettings): Resolution | undefined {
	const judged = how.settlement.judge(data, open.prepared);
	if (judged.verdict === 'pending') {
		open.why = judged.why;
		return undefined;
	}
	if (open.failure.kind === 'duplicate' && (how.kind !== 'change' || judged.verdict === 'done'))
		return { type: 'failed', failure: shownDuplicate(open.failure, data, how.settlement) };
	const outcome = verdictOutcome(how.kind, judged.verdict);
	if (judged.verdict === 'done' && (outcome === 'accepted' || outcome === 'changed'))
		return { type: 'shown', data, outcome };
	const why = judged.verdict === 'done' ? 'HaiPay shows it' : judged.why;
	const failure = new ItemFailure(outcome as FailureKind, why, {
		...open.failure.details,
		gatewayMessage: gatewayText(data.errorMsg),
	});
	return { type: 'failed', failure };
}

/**
 * "No such order", proven by a query that publishes that answer: after an unknown outcome the request can be sent
 * again (the kind's `absent`); after a refusal, the refusal stands.
 */
function notFound(open: Open, errorMsg: string, kind: OperationKind): Resolution {
	if (open.failure.kind === 'rejected') {
		const message = `${open.failure.message}; HaiPay's signed order query confirms it has no order with this orderId`;
		return { type: 'failed', failure: new ItemFailure('rejected', message, open.failure.details) };
	}
	const said = errorMsg === '' ? '' : ` ("${gatewayText(errorMsg)}")`;
	if (open.failure.kind === 'duplicate') {
		const message = `${open.failure.message}; but HaiPay's signed order query shows no order with this orderId${said}: that refusal is not signed, and nothing stands under this orderId`;
		return {
			type: 'failed',
			failure: new ItemFailure('not_found', message, { ...open.failure.details, gatewayMessage: errorMsg }),
		};
	}
	const what = kind === 'change' ? 'there was nothing to change' : 'the create did not reach it';
	const outcome = (OUTCOME_TABLES[kind].absent ?? 'unknown') as FailureKind;
	const message = `HaiPay has no order with this orderId${said}: ${what}`;
	return {
		type: 'failed',
		failure: new ItemFailure(outcome, message, { ...open.failure.details, gatewayMessage: errorMsg }),
	};
}

/** Takes in one proven answer: settles the request, or says when to ask again. */
function weigh(open: Open, result: LookupResult, askedAt: number, how: ResolveSettings): void {
	if (result.found) {
		open.resolution = found(open, result.data, how);
		return;
	}
	const landsBy = open.endedAt + how.notFoundAfterMs;
	if (askedAt >= landsBy) {
		open.resolution = notFound(open, result.errorMsg, how.kind);
		return;
	}
	open.why = `HaiPay said, signed, that it has no such order ${Math.round((askedAt - open.endedAt) / 1000)} s after the create ended, but a create still on its way may land up to ${how.notFoundAfterMs / 1000} s after ("Not Found After")`;
	// Asked again as usual, since the order may still land, and once more as soon as the span has passed.
	open.nextAt = Math.min(open.nextAt, landsBy);
}

async function ask(ctx: GatewayContext, open: Open, how: ResolveSettings, ends: number): Promise<void> {
	const askedAt = performance.now();
	open.nextAt = askedAt + BACKOFF_MS[Math.min(open.attempts, BACKOFF_MS.length - 1)];
	open.attempts += 1;
	try {
		const call = { ...how.call, timeoutMs: Math.max(1, Math.min(how.call.timeoutMs, ends - askedAt)), retries: 0 };
		weigh(
			open,
			await how.settlement.lookup(ctx, open.prepared.signer ?? how.settings, open.prepared, call),
			askedAt,
			how,
		);
	} catch (error) {
		open.why = error instanceof Error ? error.message : String(error);
	}
}

/** What an open create reports when no proven answer settled it in time: its outcome is unknown. */
function stillOpen(open: Open, how: ResolveSettings): Resolution {
	const seconds = Math.round(how.withinMs / 1000);
	const { failure } = open;
	const refused = { rejected: 'that nothing was created', duplicate: 'what stands under this ID' } as Record<
		string,
		string
	>;
	const message =
		refused[failure.kind] !== undefined
			? `${failure.message}; that refusal is not signed, and querying it for ${seconds} s did not show ${refused[failure.kind]}: ${open.why}`
			: `${failure.message}; querying it for ${seconds} s did not settle it: ${open.why}`;
	return { type: 'failed', failure: new ItemFailure('unknown', message, failure.details) };
}

/**
 * Asks HaiPay about every create whose outcome is not proven (an `unknown`, or a refusal, which HaiPay does not
 * sign), until proven answers settle them or the time is up. Never sends a create again: only
 * `/{ccy}/pay/query`, `/{ccy}/collect/query` or `/usd/refund/refundQuery`. A create is waited for without holding a query slot, so many
 * creates waiting out "Not Found After" wait together.
 */
export async function resolveAll(
	ctx: GatewayContext,
	unsettled: Unsettled[],
	how: ResolveSettings,
): Promise<Map<number, Resolution>> {
	const ends = performance.now() + how.withinMs;
	const open: Open[] = unsettled.map((entry) => ({
		...entry,
		attempts: 0,
		nextAt: 0,
		why: 'no query was answered in time',
		resolution: unaskable(entry, how),
	}));
	for (;;) {
		const now = performance.now();
		await pool(
			open.filter((entry) => entry.resolution === undefined && entry.nextAt <= now),
			how.concurrency,
			() => false,
			async (entry) => await ask(ctx, entry, how, ends),
		);
		const waiting = open.filter((entry) => entry.resolution === undefined);
		if (waiting.length === 0) break;
		// A loop, not Math.min(...list): a spread of a hundred thousand arguments overflows the call stack.
		const next = waiting.reduce((soonest, entry) => Math.min(soonest, entry.nextAt), Infinity);
		if (next >= ends - 200) break;
		await sleep(Math.max(0, next - performance.now()));
	}
	return new Map(open.map((entry) => [entry.itemIndex, entry.resolution ?? stillOpen(entry, how)]));
}

/**
 * A request its query cannot be asked about (the cashier's, without HaiPay's orderNo) stays unknown at once: waiting
 * would change nothing, and neither a resend nor "no such order" is ever concluded from silence.
 */
function unaskable(entry: Unsettled, how: ResolveSettings): Resolution | undefined {
	const why = how.settlement.unaskable?.(entry.prepared);
	if (why === undefined) return undefined;
	const { failure } = entry;
	const refused =
		failure.kind === 'rejected' || failure.kind === 'duplicate'
			? '; that refusal is not signed, so it shows nothing either way'
			: '';
	return {
		type: 'failed',
		failure: new ItemFailure(
			'unknown',
			`${failure.message}${refused}; it cannot be settled by a query: ${why}`,
			failure.details,
		),
	};
}

/** Without the HaiPay public key no answer proves anything: an unknown outcome stays unknown, at once. */
export function unresolvable(failure: ItemFailure): Resolution {
	const message = `${failure.message}; it cannot be resolved by a query: the credential has no HaiPay public key, so no answer of HaiPay's can be proven`;
	return { type: 'failed', failure: new ItemFailure('unknown', message, failure.details) };
}
