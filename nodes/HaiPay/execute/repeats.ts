import { ItemFailure } from '../../shared/gateway/outcome';
import type { Prepared } from './types';

/*
 * Two items of one run with the same orderId would both be sent: HaiPay takes the first and refuses the second, and
 * should the second's answer be lost, a query would find the first's order and report the second as accepted too.
 * Within a run an orderId therefore belongs to its first item, and every later item with it is refused unsent.
 */

/** The failure of each item whose orderId an earlier item of the run already has, by item index. */
export function repeatedOrderIds(prepared: ReadonlyArray<Prepared | undefined>): Map<number, ItemFailure> {
	const firstOf = new Map<string, number>();
	const repeats = new Map<number, ItemFailure>();
	prepared.forEach((request, itemIndex) => {
		if (request?.orderId === undefined || request.orderId === '') return;
		const first = firstOf.get(request.orderId);
		if (first === undefined) {
			firstOf.set(request.orderId, itemIndex);
			return;
		}
		const message = `"orderId" ${request.orderId} is also the orderId of item ${first} of this run: HaiPay takes an orderId once, so this item was not sent`;
		repeats.set(itemIndex, new ItemFailure('invalid', message, { field: 'orderId', rule: 'unique' }));
	});
	return repeats;
}
