import { readingOf } from '../../shared/contract/rules/identifiers';
import { ItemFailure } from '../../shared/gateway/outcome';
import { TAKEN_ONCE } from '../../shared/products';
import type { Prepared } from './types';

/*
 * Two items of one run with the same orderId would both be sent: HaiPay takes the first and refuses the second, and
 * should the second's answer be lost, a query would find the first's order and report the second as accepted too.
 * Within a run an orderId therefore belongs to its first item, and every later item with it is refused unsent.
 * A refund also names the payment it returns (orderNo), whole: a payment is refunded by one item of a run at most.
 *
 * "The same" is as a person reads it: "A1", "a1" and fullwidth "Ａ１" are different IDs to HaiPay, so a sheet row
 * duplicated with such a difference would be paid twice. IDs are compared by their reading (NFKC, case folded).
 */

const WHY: Record<string, string> = {
	orderId: 'HaiPay takes an orderId once',
	orderNo: 'a refund returns the whole payment, so a payment is refunded once',
	...TAKEN_ONCE,
};

function valueOf(request: Prepared, field: string): string | undefined {
	const value = field === 'orderId' ? request.orderId : request.body[field];
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function repeatMessage(
	field: string,
	value: string,
	itemIndex: number,
	first: { itemIndex: number; value: string },
): string {
	const why = `${WHY[field] ?? `${field} must be unique`}, so this item was not sent`;
	if (value === first.value)
		return `"${field}" ${value} is also the ${field} of item ${first.itemIndex} of this run: ${why}`;
	return `"${field}" "${value}" of item ${itemIndex} reads as "${first.value}", the ${field} of item ${first.itemIndex} of this run, once compatibility forms and letter case are set aside (NFKC, case folding): a person cannot tell them apart, ${why}`;
}

/** The failure of each item whose orderId (or other unique field) an earlier item of the run already has, by item index. */
export function repeatedOrderIds(
	prepared: ReadonlyArray<Prepared | undefined>,
	fields: readonly string[] = ['orderId'],
): Map<number, ItemFailure> {
	const repeats = new Map<number, ItemFailure>();
	for (const field of fields) {
		const firstOf = new Map<string, { itemIndex: number; value: string }>();
		prepared.forEach((request, itemIndex) => {
			const value = request === undefined ? undefined : valueOf(request, field);
			if (value === undefined || repeats.has(itemIndex)) return;
			const reading = readingOf(value);
			const first = firstOf.get(reading);
			if (first === undefined) {
				firstOf.set(reading, { itemIndex, value });
				return;
			}
			repeats.set(
				itemIndex,
				new ItemFailure('invalid', repeatMessage(field, value, itemIndex, first), { field, rule: 'unique' }),
			);
		});
	}
	return repeats;
}
