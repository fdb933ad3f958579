import { ERROR_CODES } from './constants';
import type { Merchant } from './merchants';
import { parseMoney } from './money';
import type { OrderBook } from './order-book';
import { GatewayError, type Order } from './orders';

/**
 * Card refunds (`/usd/refund/apply`): the merchant's refund number (`orderId`) for a paid collection (`orderNo`),
 * always of the whole payment. HaiPay publishes no refund status values (docs/haipay-facts.md), so this sandbox uses
 * plain words of its own, PROCESSING, then SUCCESS or FAILED, which the node never interprets. HaiPay documents no
 * refund callback, and the sandbox sends none.
 */

export type RefundStatus = 'PROCESSING' | 'SUCCESS' | 'FAILED';

export interface Refund {
	refundNo: string;
	/** The merchant's refund number, unique per appId like an order's orderId. */
	orderId: string;
	/** The refunded collection's platform order number. */
	orderNo: string;
	appId: number;
	currency: string;
	/** The whole payment: what the payer paid. */
	amount: string;
	status: RefundStatus;
	errorMsg: string;
	createdAt: string;
	updatedAt: string;
	/** When the automatic settlement is due (epoch ms); absent once final, or in manual mode. */
	dueAt?: number;
}

/** The statuses of a collection whose payment can be refunded: paid, partially or over-collected. */
const PAID = [2, 4, 5];

export class RefundBook {
	readonly refunds = new Map<string, Refund>();
	private readonly byOrderId = new Map<string, string>();
	private seq = 0;

	constructor(
		private readonly book: OrderBook,
		private readonly now: () => number = Date.now,
	) {}

	private key(appId: number, orderId: string): string {
		return `${appId}\u0000${orderId}`;
	}

	findByOrderId(appId: number, orderId: string): Refund | undefined {
		const refundNo = this.byOrderId.get(this.key(appId, orderId));
		return refundNo === undefined ? undefined : this.refunds.get(refundNo);
	}

	/** The refund a query names: by refundNo when it gives one, else by orderId; only the appId's own. */
	find(appId: number, orderId?: string, refundNo?: string): Refund | undefined {
		const refund = refundNo !== undefined ? this.refunds.get(refundNo) : this.findByOrderId(appId, orderId ?? '');
		if (!refund || refund.appId !== appId || (orderId !== undefined && refund.orderId !== orderId)) return undefined;
		return refund;
	}

	/** The paid collection a refund names, or why it cannot be refunded. */
	private refundable(merchant: Merchant, orderNo: string): Order {
		const order = this.book.orders.get(orderNo);
		if (!order || order.appId !== merchant.appId || order.kind !== 'collection') {
			throw new GatewayError(
				ERROR_CODES.refundRefused,
				`refund not allowed: ${orderNo} is not a collection of appId ${merchant.appId}`,
			);
		}
		if (!PAID.includes(order.status)) {
			throw new GatewayError(
				ERROR_CODES.refundRefused,
				`refund not allowed: order ${orderNo} is not paid (status ${order.status})`,
			);
		}
		const earlier = [...this.refunds.values()].find(
			(refund) => refund.orderNo === orderNo && refund.status !== 'FAILED',
		);
		if (earlier)
			throw new GatewayError(
				ERROR_CODES.refundRefused,
				`refund not allowed: order ${orderNo} is already refunded (${earlier.refundNo})`,
			);
		return order;
	}

	create(merchant: Merchant, orderId: string, orderNo: string): Refund {
		if (this.findByOrderId(merchant.appId, orderId)) {
			throw new GatewayError(
				ERROR_CODES.duplicateOrderId,
				`orderId ${orderId} already exists for appId ${merchant.appId}`,
			);
		}
		const order = this.refundable(merchant, orderNo);
		const amount = order.paidAmount ?? order.amount;
		const balance = this.book.balance(merchant.appId);
		const units = parseMoney(amount);
		if (balance.available < units) {
			throw new GatewayError(
				ERROR_CODES.insufficientBalance,
				`insufficient balance for the refund of ${amount} ${order.currency}`,
			);
		}
		balance.available -= units;
		balance.frozen += units;
		this.seq += 1;
		const at = new Date(this.now()).toISOString();
		const refund: Refund = {
			refundNo: `RF${order.orderNo.slice(2, 10)}${String(this.seq).padStart(10, '0')}`,
			orderId,
			orderNo,
			appId: merchant.appId,
			currency: order.currency,
			amount,
			status: 'PROCESSING',
			errorMsg: '',
			createdAt: at,
			updatedAt: at,
		};
		this.refunds.set(refund.refundNo, refund);
		this.byOrderId.set(this.key(refund.appId, orderId), refund.refundNo);
		return refund;
	}

	/** Ends a refund: the held money leaves the balance on success and returns to it on failure. */
	settle(refund: Refund, status: 'SUCCESS' | 'FAILED', errorMsg = 'Refund declined by the card issuer'): void {
		if (refund.status !== 'PROCESSING') {
			throw new GatewayError(
				ERROR_CODES.badTransition,
				`refund ${refund.refundNo} is already final (${refund.status})`,
			);
		}
		const balance = this.book.balance(refund.appId);
		const units = parseMoney(refund.amount);
		balance.frozen -= units;
		if (status === 'FAILED') {
			balance.available += units;
			refund.errorMsg = errorMsg;
		}
		refund.status = status;
		refund.updatedAt = new Date(this.now()).toISOString();
		delete refund.dueAt;
	}

	/** What a refund answer's data holds (the apply's and the query's): `appId` as text, as HaiPay's pages show it. */
	answer(refund: Refund): Record<string, unknown> {
		const { appId, orderNo, orderId, refundNo, status, errorMsg } = refund;
		return { appId: String(appId), orderNo, orderId, refundNo, status, errorMsg };
	}

	clear(): void {
		this.refunds.clear();
		this.byOrderId.clear();
	}

	snapshot(): Refund[] {
		return [...this.refunds.values()];
	}

	restore(refunds: Refund[]): void {
		this.clear();
		for (const refund of refunds) {
			this.refunds.set(refund.refundNo, refund);
			this.byOrderId.set(this.key(refund.appId, refund.orderId), refund.refundNo);
		}
		this.seq = refunds.length;
	}
}
