import { EARLIER_STATUSES, exactStatus, FINAL_STATUSES, REPEATING_STATUSES } from '../shared/contract/statuses';

/**
 * What makes two callbacks the same result: the keys of the repeat memory (memory.ts), and the rule that an
 * earlier status never follows a final one. HaiPay retries a callback until it reads `SUCCESS` (every 5 minutes,
 * 5 times), and an answer can be lost on the way back, so the same result can arrive more than once.
 */

export const DEFAULT_WINDOW_MINUTES = 1440;

const MAX_KEY_PART = 100;

function part(value: unknown): string {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string') return value.trim().slice(0, MAX_KEY_PART);
	return '';
}

/** A status as the keys spell it: the integer it states, or, for a value that states none, its text marked `~`. */
function statusPart(value: unknown): string {
	const status = exactStatus(value);
	return status !== undefined ? String(status) : `~${part(value)}`;
}

/**
 * `orderNo` (HaiPay's number) with `status`: a later, different status of the same order is a new event. A
 * callback without `orderNo` falls back to the merchant's `orderId`; one with neither cannot be recognised
 * again and is always emitted. A status HaiPay may report several times with different results (partially or
 * over-collected) also keys on the result's `amount` and `payTime`, JSON-encoded so no two values run together.
 */
export function dedupKey(body: Record<string, unknown>): string | undefined {
	const mark = statusMark(body);
	if (mark === undefined || refundPart(body) !== '') return mark;
	const status = exactStatus(body.status);
	if (status === undefined || !REPEATING_STATUSES.includes(status)) return mark;
	return `${mark}|${JSON.stringify([part(body.amount), part(body.payTime)])}`;
}

/** The order with its status, `<order>|<status>`: what the regression check looks for (see finalBefore). */
function statusMark(body: Record<string, unknown>): string | undefined {
	const order = orderPart(body);
	return order === undefined ? undefined : `${order}|${statusPart(body.status)}`;
}

/**
 * The key remembered beside a callback's repeat key so that the regression check sees its final status, when the
 * repeat key is not that key itself (a partial or over-collected result); otherwise undefined.
 */
export function finalMark(body: Record<string, unknown>): string | undefined {
	const mark = statusMark(body);
	return mark !== undefined && mark !== dedupKey(body) ? mark : undefined;
}

/** A refund-shaped callback's refund number: its `orderNo` is the refunded payment's, shared with that payment's own results. */
function refundPart(body: Record<string, unknown>): string {
	return part(body.refundNo);
}

/** The order a key is about: `no:<orderNo>`, or `id:<orderId>` without one; a refund's own `refund:<refundNo>`. */
export function orderPart(body: Record<string, unknown>): string | undefined {
	const refundNo = refundPart(body);
	if (refundNo !== '') return `refund:${refundNo}`;
	const orderNo = part(body.orderNo);
	const orderId = part(body.orderId);
	const order = orderNo !== '' ? `no:${orderNo}` : orderId !== '' ? `id:${orderId}` : '';
	return order === '' ? undefined : order;
}

/** Statuses as the keys spell them. */
const FINAL = FINAL_STATUSES.map(String);
const EARLIER = EARLIER_STATUSES.map(String);

/** Whether the memory holds a key inside the window. */
export type Recall = (key: string) => boolean;

/** Keys of callbacks being confirmed with HaiPay right now, per trigger: a copy arriving meanwhile is not emitted twice. */
const confirming = new Map<string, Set<string>>();

export function confirmingNow(scope: string): Set<string> {
	let keys = confirming.get(scope);
	if (keys === undefined) {
		keys = new Set();
		confirming.set(scope, keys);
	}
	return keys;
}

/**
 * The final status already emitted for the order of a callback whose own status comes before any final one (0, 1,
 * -1), or undefined. A final status is never followed by an earlier one, so such a callback is an old one sent again.
 */
export function finalBefore(recall: Recall, body: Record<string, unknown>): string | undefined {
	const order = orderPart(body);
	const status = statusPart(body.status);
	// A status HaiPay adds later is not known to come before a final one, so it is left to repeat detection; so is
	// every refund status, whose values HaiPay does not publish.
	if (order === undefined || !EARLIER.includes(status) || refundPart(body) !== '') return undefined;
	return FINAL.find((final) => recall(`${order}|${final}`));
}
