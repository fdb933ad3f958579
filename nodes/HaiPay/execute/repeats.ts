import { ItemFailure } from '../../shared/gateway/outcome';
import type { Prepared } from './types';

/*
 * Two items of one run with the same orderId would both be sent: HaiPay takes the first and refuses the second, and
 * should the second's answer be lost, a query would find the first's order and report the second as accepted too.
 * Within a run an orderId therefore belongs to its first item, and every later item with it is refused unsent.
 * A refund also names the payment it returns (orderNo), whole: a payment is refunded by one item of a run at most.
 */

const WHY: Record<string, string> = {
	orderId: 'HaiPay takes an orderId once',
	orderNo: 'a refund returns the whole payment, so a payment is refunded once',
};

function keyOf(request: Prepared, field: string): string | undefined {
	const value = field === 'orderId' ? request.orderId : request.body[field];
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The failure of each item whose orderId (or other unique field) an earlier item of the run already has, by item index. */
export function repeatedOrderIds(prepared: ReadonlyArray<Prepared | undefined>, fields: readonly string[] = ['orderId']): Map<number, ItemFailure> {
	const repeats = new Map<number, ItemFailure>();
	for (const field of fields) {
		const firstOf = new Map<string, number>();
		prepared.forEach((request, itemIndex) => {
			const key = request === undefined ? undefined : keyOf(request, field);
			if (key === undefined || repeats.has(itemIndex)) return;
			const first = firstOf.get(key);
			if (first === undefined) {
				firstOf.set(key, itemIndex);
				return;
			}
			const message = `"${field}" ${key} is also the ${field} of item ${first} of this run: ${WHY[field] ?? `${field} must be unique`}, so this item was not sent`;
			repeats.set(itemIndex, new ItemFailure('invalid', message, { field, rule: 'unique' }));
		});
	}
	return repeats;
}
