import { KNOWN_CURRENCIES } from '../constants';
import type { Merchant } from '../merchants';
import type { Order, OrderKind } from '../orders';
import type { Outcome } from '../types';
import type { Endpoint, GatewayPort } from './shared';

/** The order a query names: by orderNo when it gives one, else by orderId; only the appId's own, of the kind asked. */
function findOrder(
	gateway: GatewayPort,
	merchant: Merchant,
	kind: OrderKind,
	orderId?: string,
	orderNo?: string,
): Order | undefined {
	const order =
		orderNo !== undefined
			? gateway.book.orders.get(orderNo)
			: gateway.book.findByOrderId(merchant.appId, orderId ?? '');
	if (
		order &&
		(order.appId !== merchant.appId || order.kind !== kind || (orderId !== undefined && order.orderId !== orderId))
	) {
		return undefined;
	}
	return order;
}

function query(
	gateway: GatewayPort,
	merchant: Merchant,
	request: Record<string, unknown>,
	kind: OrderKind,
	currency: string,
): Outcome {
	const orderId = typeof request.orderId === 'string' ? request.orderId : undefined;
	const orderNo = typeof request.orderNo === 'string' ? request.orderNo : undefined;
	const order = findOrder(gateway, merchant, kind, orderId, orderNo);
	if (!order) {
		// Contract 4.7: a missing order is a normal answer with status 3 and a reason.
		return {
			type: 'ok',
			merchant,
			data: { orderId: orderId ?? '', orderNo: orderNo ?? '', status: 3, errorMsg: 'order does not exist' },
		};
	}
	const base = {
		orderId: order.orderId,
		orderNo: order.orderNo,
		amount: order.amount,
		fee: order.fee,
		status: order.status,
	};
	if (kind === 'payout') {
		// Contract 4.7: the BRL query has no payTime; MYR and the generic query do.
		if (currency === 'BRL') return { type: 'ok', merchant, data: { ...base, errorMsg: order.errorMsg } };
		return { type: 'ok', merchant, data: { ...base, payTime: order.payTime, errorMsg: order.errorMsg } };
	}
	return {
		type: 'ok',
		merchant,
		data: { ...base, actualAmount: order.actualAmount, payTime: order.payTime, errorMsg: order.errorMsg },
	};
}

function queryEndpoint(currency: string, segment: 'pay' | 'collect', kind: OrderKind): Endpoint {
	return {
		path: `/${currency.toLowerCase()}/${segment}/query`,
		currency,
		schema: 'orderQuery',
		handle: (gateway, merchant, request) => query(gateway, merchant, request, kind, currency),
	};
}

/** `/{ccy}/pay/query` and `/{ccy}/collect/query`, for every currency the contract's paths know. */
export const QUERY_ENDPOINTS: Endpoint[] = KNOWN_CURRENCIES.flatMap((currency) => [
	queryEndpoint(currency, 'pay', 'payout'),
	queryEndpoint(currency, 'collect', 'collection'),
]);
