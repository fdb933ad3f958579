import { magicOf } from '../faults';
import type { Merchant } from '../merchants';
import type { Outcome } from '../types';
import { fail, lostAnswer, pick, waitingCollection, type Endpoint, type GatewayPort, type Handler } from './shared';

/**
 * HaiPay's global cashier (version2 GlobalCashier): `/global/cashier/collect/apply` makes an order that waits (status
 * 0) for the payer on HaiPay's page, where the payer picks the method; `/global/cashier/collect/query` finds it only by
 * its orderId and orderNo together. Only the Cashier-specific App ID (currency CASHIER) may use either.
 */
const CASHIER = 'CASHIER';

const cashierApply: Handler = (gateway, merchant, request) => {
	const magic = magicOf(request.name);
	if (magic?.kind === 'reject') return fail(magic.code, magic.message);
	const order = waitingCollection(gateway, merchant, request, magic);
	order.local = {
		payType: CASHIER,
		inBankCode: String(request.currency),
		...pick(request, ['callBackUrl', 'callBackFailUrl']),
	};
	gateway.placed(order);
	const data = { orderId: order.orderId, orderNo: order.orderNo, payUrl: gateway.cashierUrl(order) };
	return { type: 'ok', merchant, data, lose: lostAnswer(magic) };
};

/**
 * The page publishes no answer for an order HaiPay does not have: this one answers status 3 and names what was
 * asked, so that a client which took it for "no such order" would be caught by a test.
 */
function cashierQuery(gateway: GatewayPort, merchant: Merchant, request: Record<string, unknown>): Outcome {
	const orderId = String(request.orderId);
	const orderNo = String(request.orderNo);
	const order = gateway.book.orders.get(orderNo);
	if (!order || order.appId !== merchant.appId || order.orderId !== orderId) {
		return { type: 'ok', merchant, data: { orderId, orderNo, status: 3, errorMsg: 'order does not exist' } };
	}
	const { amount, actualAmount, fee, status, payTime, errorMsg } = order;
	return { type: 'ok', merchant, data: { orderId, orderNo, amount, actualAmount, fee, status, payTime, errorMsg } };
}

export const CASHIER_ENDPOINTS: Endpoint[] = [
	{ path: '/global/cashier/collect/apply', currency: CASHIER, schema: 'cashierCollectApply', handle: cashierApply },
	{ path: '/global/cashier/collect/query', currency: CASHIER, schema: 'cashierCollectQuery', handle: cashierQuery },
];
