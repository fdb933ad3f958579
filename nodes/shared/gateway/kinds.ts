import type { FailureKind } from './outcome';

/**
 * The kinds of request an operation makes, each with its truth table: what every way a request can end is called
 * on the item, and which endings are settled by asking HaiPay instead of being reported as they stand. An operation
 * declares its kind and gets the table; nothing else in the runner decides an outcome word.
 *
 * - `create` makes something HaiPay numbers (a payout or collection order).
 * - `refund` makes a refund of a paid collection: a create of its own, settled by the refund query.
 * - `change` acts on something HaiPay already has (a cancel): its query shows the thing either way, so finding it
 *   proves nothing; only a state that shows the change does.
 * - `read` asks and changes nothing: it may be sent again.
 */
export type OperationKind = 'create' | 'refund' | 'change' | 'read';

/** What an item of a sent-once request reports: a word of success, or the failure kind that says what to do next. */
export type Outcome = 'accepted' | 'changed' | FailureKind;

/**
 * What the query of an open request showed, as the operation's settlement judges it (execute/settle.ts): `done` the
 * request's own effect, `other` the effect of another request under the same ID (another amount, another payment),
 * `pending` not yet the effect (a cancel whose order still shows its old state), `refused` a state the request can
 * no longer reach (a cancel of an order already paid out).
 */
export type Verdict = 'done' | 'other' | 'pending' | 'refused';

interface OutcomeTable {
	/** Sent exactly once, never retried and never resent by the node; a read is retried on failures it may retry. */
	sentOnce: boolean;
	/** HaiPay's signed answer that proves the request took effect. */
	proven?: Outcome;
	/** HaiPay's refusal that says the ID is already used; unsigned, so it is settled by the query when it can be. */
	duplicate: Outcome;
	/** No proof either way (a time-out, a 5xx, an unreadable or unproven answer): settled by the query when on. */
	lost: Outcome;
	/** How each verdict of a proven query answer is reported; `pending` after the time to settle ran out. */
	query?: Record<Verdict, Outcome>;
	/** A proven "no such thing" from a query whose page publishes that answer; never reached otherwise. */
	absent?: Outcome;
}

/** A request that makes something at HaiPay (an order, a refund): sent once, settled by its answer or a query. */
const MAKES: OutcomeTable = {
	sentOnce: true,
	proven: 'accepted',
	duplicate: 'duplicate',
	lost: 'unknown',
	query: { done: 'accepted', other: 'duplicate', pending: 'unknown', refused: 'unknown' },
	absent: 'not_found',
};

export const OUTCOME_TABLES: Record<OperationKind, OutcomeTable> = {
	create: MAKES,
	refund: MAKES,
	change: {
		sentOnce: true,
		proven: 'changed',
		// "Already cancelled" is not signed: it is `duplicate` (nothing changed by this request) only once the query shows
		// the state the change asks for (resolve.ts); a query showing any other state settles it as below.
		duplicate: 'duplicate',
		lost: 'unknown',
		query: { done: 'changed', other: 'unknown', pending: 'unknown', refused: 'rejected' },
		absent: 'not_found',
	},
	read: { sentOnce: false, duplicate: 'rejected', lost: 'unavailable' },
};

export function sentOnce(kind: OperationKind): boolean {
	return OUTCOME_TABLES[kind].sentOnce;
}

/** The word an item reports when HaiPay's signed answer proves the request, for a sent-once kind. */
export function provenOutcome(kind: OperationKind): Outcome | undefined {
	return OUTCOME_TABLES[kind].proven;
}

/** The outcome a query's verdict gives a request of this kind. */
export function verdictOutcome(kind: OperationKind, verdict: Verdict): Outcome {
	return OUTCOME_TABLES[kind].query?.[verdict] ?? 'unknown';
}
