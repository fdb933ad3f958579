import { EARLIER_STATUSES, exactStatus, FINAL_STATUSES, REPEATING_STATUSES } from '../shared/contract/statuses';

/*
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

/**
 * A number or time HaiPay writes (`amount`, `payTime`) as a key reads it. HaiPay never puts `&` in one, so a key
 * reads it only up to its first `&`: a re-split that lengthens it with the text of a field after it keeps its key.
 * An amount is read by its decimal value: `10`, `"10.0"` and `"10.00"` are one amount.
 */
function plainPart(value: unknown, amount = false): string {
	const text = part(value).split('&')[0].trim();
	const decimal = /^(-?)0*(\d+?)(?:\.(\d*?)0*)?$/.exec(text);
	if (!amount || decimal === null) return text;
	const [, sign, whole, fraction] = decimal;
	const digits = fraction === undefined || fraction === '' ? whole : `${whole}.${fraction}`;
	return digits === '0' ? '0' : `${sign}${digits}`;
}

/** A refund-shaped callback's refund number: its `orderNo` is the refunded payment's, shared with that payment's own results. */
function refundPart(body: Record<string, unknown>): string {
	return part(body.refundNo);
}

/** The order a key is about: `no:<orderNo>`, or `id:<orderId>` without one; a refund's own `refund:<refundNo>`. */
function orderPart(body: Record<string, unknown>): string | undefined {
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

/** A callback's keys in the repeat memory, found once; none when it names no order. */
export interface RepeatKeys {
	/**
	 * `orderNo` (HaiPay's number) with `status`: a later, different status of the same order is a new event. A
	 * callback without `orderNo` falls back to the merchant's `orderId`; one with neither cannot be recognised
	 * again and is always emitted. A status HaiPay may report several times with different results (partially or
	 * over-collected) also keys on the result's `amount` and `payTime`, JSON-encoded so no two values run together.
	 */
	dedupKey?: string;
	/**
	 * The order with its status, `<order>|<status>`, remembered beside a dedupKey that is not that key itself (a
	 * partial or over-collected result), so that the regression rule sees its final status.
	 */
	finalMark?: string;
	/** The order, when the callback's status comes before any final one (0, 1, -1): where the regression rule looks. */
	earlier?: string;
}

/**
 * The keys of a callback, from its members as output (numbers as values, `status` as the integer it states) and
 * its status read once (`exactStatus`). A status that states no integer is spelled by its text, marked `~`.
 */
export function repeatKeys(body: Record<string, unknown>, status = exactStatus(body.status)): RepeatKeys {
	const order = orderPart(body);
	if (order === undefined) return {};
	const spelled = status !== undefined ? String(status) : `~${part(body.status)}`;
	const mark = `${order}|${spelled}`;
	// A refund's status values are not published: no order between them is known, nor any result repeated.
	if (refundPart(body) !== '') return { dedupKey: mark };
	// A status HaiPay adds later is not known to come before a final one, so it is left to repeat detection.
	const earlier = EARLIER.includes(spelled) ? order : undefined;
	if (status === undefined || !REPEATING_STATUSES.includes(status)) return { dedupKey: mark, earlier };
	return { dedupKey: `${mark}|${JSON.stringify([plainPart(body.amount, true), plainPart(body.payTime)])}`, finalMark: mark, earlier };
}

/** The repeat key of one callback body (see RepeatKeys.dedupKey). */
export function dedupKey(body: Record<string, unknown>): string | undefined {
	return repeatKeys(body).dedupKey;
}

/** Whether the memory holds a key inside the window. */
export type Recall = (key: string) => boolean;

/**
 * The final status already emitted for the order of a callback whose own status comes before any final one (0, 1,
 * -1), or undefined. A final status is never followed by an earlier one, so such a callback is an old one sent again.
 */
export function finalBefore(recall: Recall, body: Record<string, unknown>, keys = repeatKeys(body)): string | undefined {
	const order = keys.earlier;
	return order === undefined ? undefined : FINAL.find((final) => recall(`${order}|${final}`));
}
