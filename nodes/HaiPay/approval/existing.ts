import type { IDataObject } from 'n8n-workflow';

import type { ExistingOrder } from '../../shared/gateway/outcome';
import { existingFields } from '../execute/failures';
import { PAYOUT_ORDER } from '../../shared/products/order';
import { judge } from '../../shared/products/judge';
import { askedOf } from '../execute/asked';
import { existingOrder } from '../execute/existingOrder';
import type { QueryAnswer } from '../execute/orderQueries';
import type { Prepared } from '../execute/types';

/**
 * What Payout → Check's Look Up Existing Orders makes of HaiPay's answer about one valid row. Only a proven answer
 * decides: HaiPay's signed order, named by the row's orderId, is an order HaiPay has (`exists`), and its signed "no
 * such order", where the currency's query publishes one, is an order it has not (`absent`). Anything else (a failure,
 * a time-out, an answer not signed or not about the row, a status 3 without an order where no absence is published,
 * a row not asked in time) is `unchecked`: counted to pay, and flagged, never taken for absent.
 */
export type Standing =
	| { atHaiPay: 'exists'; order: ExistingOrder }
	| { atHaiPay: 'absent' }
	| { atHaiPay: 'unprovable' }
	| { atHaiPay: 'unchecked'; reason: string };

/**
 * The standing of a row from its query's answer, as the payout order's judge reads it (an order of this row's or of
 * another request's is at HaiPay either way; one the judge cannot read proves nothing); `notAsked` says why a row
 * without an answer was not asked.
 */
export function standingOf(answer: QueryAnswer | undefined, notAsked: string, prepared: Prepared): Standing {
	if (answer === undefined) return { atHaiPay: 'unchecked', reason: notAsked };
	if (answer instanceof Error) return { atHaiPay: 'unchecked', reason: answer.message };
	// HaiPay's query showed no order; where its currency's query publishes no "no such order" (USDT, KRW ...), that
	// proves nothing: `unprovable`, which the summary states once per currency rather than once per row.
	if (!answer.found) return prepared.absence === false ? { atHaiPay: 'unprovable' } : { atHaiPay: 'absent' };
	const judged = judge(PAYOUT_ORDER, answer.data, askedOf(prepared, PAYOUT_ORDER));
	if (judged.verdict === 'unknown')
		return { atHaiPay: 'unchecked', reason: `HaiPay's answer proves nothing: ${judged.why}` };
	const order = existingOrder(answer.data, 'payout');
	if (order === undefined)
		return { atHaiPay: 'unchecked', reason: "HaiPay's answer names no order number of HaiPay's" };
	return { atHaiPay: 'exists', order };
}

/** What a valid row's item of the check carries of its standing: the existing order under a duplicate's names. */
export function standingFields(standing: Standing | undefined, prepared: Prepared): IDataObject {
	if (standing === undefined) return {};
	if (standing.atHaiPay === 'exists') return { atHaiPay: 'exists', ...existingFields(standing.order) };
	if (standing.atHaiPay === 'unchecked') return { atHaiPay: 'unchecked', lookupError: standing.reason };
	if (standing.atHaiPay === 'unprovable') return { atHaiPay: 'unprovable', lookupNote: unprovableMeaning(prepared) };
	return { atHaiPay: 'absent' };
}

/** A row of the summary's `existing` or `unchecked` list, where the approver can find it in the sheet. */
export function listedRow(
	itemIndex: number,
	prepared: Prepared,
	standing: Exclude<Standing, { atHaiPay: 'absent' | 'unprovable' }>,
): IDataObject {
	const row = {
		itemIndex,
		orderId: prepared.orderId ?? null,
		currency: prepared.currency,
		amount: String(prepared.body.amount),
	};
	if (standing.atHaiPay === 'unchecked') return { ...row, reason: standing.reason };
	const { orderNo, status, statusLabel, amount } = standing.order;
	return { ...row, orderNo, status: status ?? null, statusLabel: statusLabel ?? null, existingAmount: amount ?? null };
}

/**
 * What a row of a currency whose order query publishes no "no such order" means, once per currency: HaiPay's query
 * showed no order, which proves nothing, and what keeps it from being paid twice is HaiPay's refusal of an orderId it
 * already has when Payout → Create sends it.
 */
export function unprovableMeaning(prepared: Pick<Prepared, 'currency'>): string {
	const { currency } = prepared;
	return `HaiPay's ${currency} payout query showed none of these orders, but HaiPay publishes no "no such order" answer for ${currency}, so that cannot prove HaiPay does not have them. They are counted in To pay. If HaiPay already has one, it refuses that orderId when Pay sends it (the row comes back duplicate), so none is paid twice.`;
}
