import { createHash } from 'crypto';

import { EARLIER_STATUSES, exactStatus, REPEATING_STATUSES } from '../shared/contract/statuses';
import { NAMED_BY_CALLBACK } from '../shared/products';

/*
 * The repeat-key form of each thing a callback reports: an order (by orderNo, else orderId), a card refund (by its
 * refundNo) and a subscription's charge (by subscriptionNo and the charge's own orderNo, amount and payTime), with
 * its status. The memory (memory.ts) keeps what was emitted by these keys.
 */

/**
 * A callback's keys, found once as it is parsed; none when it names no order. `dedupKey`: `<order>|<status>` (order
 * `no:<orderNo>`, `id:<orderId>` or `refund:<refundNo>`), for 4 and 5 with `|["<amount>","<payTime>"]`. `finalMark`:
 * `<order>|<status>` beside such a key. `earlier`: the order, when the status comes before a final one (0, 1, -1).
 * A subscription's charge: `sub:<subscriptionNo>|<orderNo>|<status>|["<amount>","<payTime>"]`.
 */
export type RepeatKeys = { dedupKey?: string; finalMark?: string; earlier?: string };
export const part = (value: unknown): string =>
	typeof value === 'number' && Number.isFinite(value)
		? String(value)
		: typeof value === 'string'
			? value.trim().slice(0, 100)
			: '';
/** A number or time HaiPay writes, up to its first `&` (never in one): a re-split that lengthens it keeps its key. */
const plainPart = (value: unknown): string => part(value).split('&')[0].trim();
/** An amount by its decimal value ("10", "10.0", "10.00" and 10 are one), with at least two decimals as HaiPay writes it. */
function amountPart(value: unknown): string {
	const decimal = /^(-?)0*(\d+?)(?:\.(\d*?)0*)?$/.exec(plainPart(value));
	if (decimal === null) return plainPart(value);
	const digits = `${decimal[2]}.${(decimal[3] ?? '').padEnd(2, '0')}`;
	return decimal[1] !== '' && /[1-9]/.test(digits) ? `-${digits}` : digits;
}
/**
 * What the string HaiPay signed says of `name`: the value after its first `name=` at the start or after a `&`, up to
 * the next `&`. Every reading of one signed string (a re-split of it) gives the same answer, so a result keyed on it
 * keeps one key whatever fields a re-split adds, lengthens or joins away (`fee`, `payTime`).
 */
function signedPart(text: string, name: string): string {
	const at = text.startsWith(`${name}=`) ? 0 : text.indexOf(`&${name}=`) + 1;
	if (at === 0 && !text.startsWith(`${name}=`)) return '';
	const value = text.slice(at + name.length + 1);
	return value.slice(0, value.includes('&') ? value.indexOf('&') : value.length).trim();
}

/**
 * A callback's repeat keys. `signedText` (the string HaiPay signed, without its key) gives the amount and payTime of
 * the results keyed on them (4 and 5, a subscription's charge), so that no re-split of one signed text makes a second
 * key; without it they are read from `body`.
 */
export function repeatKeys(
	body: Record<string, unknown>,
	status = exactStatus(body.status),
	signedText?: () => string,
): RepeatKeys {
	const details = () => {
		const text = signedText?.();
		const [amount, payTime] =
			text === undefined ? [body.amount, body.payTime] : [signedPart(text, 'amount'), signedPart(text, 'payTime')];
		return JSON.stringify([amountPart(amount), plainPart(payTime)]);
	};
	const [refundNo, orderNo, orderId] = [part(body.refundNo), part(body.orderNo), part(body.orderId)];
	// Each recurring charge is its own result, told apart by its orderNo, amount and payTime; none of them is final.
	for (const { callback } of refundNo === '' ? NAMED_BY_CALLBACK : []) {
		const own = part(body[callback.member]);
		if (own !== '')
			return { dedupKey: `${callback.keyPrefix}:${own}|${orderNo}|${status ?? `~${part(body.status)}`}|${details()}` };
	}
	// A refund's orderNo is the refunded payment's: its refund number is its own order.
	const order =
		refundNo !== '' ? `refund:${refundNo}` : orderNo !== '' ? `no:${orderNo}` : orderId !== '' ? `id:${orderId}` : '';
	if (order === '') return {};
	const mark = `${order}|${status ?? `~${part(body.status)}`}`;
	// Refund statuses are not published: no order between them is known.
	if (refundNo !== '') return { dedupKey: mark };
	const earlier = status !== undefined && EARLIER_STATUSES.includes(status) ? order : undefined;
	if (status === undefined || !REPEATING_STATUSES.includes(status)) return { dedupKey: mark, earlier };
	// HaiPay may report several such results of one order, each its own event.
	return {
		dedupKey: `${mark}|${details()}`,
		finalMark: mark,
		earlier,
	};
}

/**
 * The keys HaiPay's confirming answer proves for a callback whose deciding fields were in doubt: its orderId and
 * orderNo where the answer states them, the callback's status (the answer's, as confirmed). A re-split that adds an
 * orderNo to a body without one, and the genuine body, then share a key (memory.ts `provenRepeat`).
 */
export function provenKeys(
	output: Record<string, unknown>,
	status: number | undefined,
	signedText: () => string,
	answer: Record<string, unknown>,
): RepeatKeys {
	const stated = (name: string) => (part(answer[name]) !== '' ? answer[name] : output[name]);
	return repeatKeys({ ...output, orderId: stated('orderId'), orderNo: stated('orderNo') }, status, signedText);
}

/**
 * The keys of a callback run without its deciding fields in doubt (HaiPayTrigger.node.ts): keyed without them, so
 * that every re-split of one signed text is one result. One that then names no order (a cashier collection whose only
 * number was in doubt) is keyed by the signed text itself, the same in every reading.
 */
export function unprovenKeys(
	output: Record<string, unknown>,
	unproven: readonly string[],
	status: number | undefined,
	signedText: () => string,
): RepeatKeys {
	const rest = { ...output };
	for (const name of unproven) delete rest[name];
	const keys = repeatKeys(rest, status, signedText);
	if (keys.dedupKey !== undefined) return keys;
	return { dedupKey: `signed:${createHash('sha256').update(signedText()).digest('hex').slice(0, 32)}` };
}
