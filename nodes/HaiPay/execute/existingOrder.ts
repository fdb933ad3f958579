import { exactStatus, statusLabel, type OrderKind } from '../../shared/contract/statuses';
import { gatewayText, type ExistingOrder } from '../../shared/gateway/outcome';

/** The order a signed answer shows, as a duplicate item and Payout → Check carry it. */
export function existingOrder(data: Record<string, unknown>, kind: OrderKind): ExistingOrder | undefined {
	const orderNo = typeof data.orderNo === 'string' ? gatewayText(data.orderNo) : '';
	if (orderNo === '') return undefined;
	const status = exactStatus(data.status);
	const label = statusLabel(status, kind);
	const amount =
		typeof data.amount === 'string' || typeof data.amount === 'number' ? gatewayText(String(data.amount)) : '';
	return {
		orderNo,
		...(status !== undefined ? { status } : {}),
		...(label !== undefined ? { statusLabel: label } : {}),
		...(amount !== '' ? { amount } : {}),
	};
}
