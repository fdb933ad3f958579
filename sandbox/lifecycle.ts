import type { OrderBook } from './order-book';
import { isFinal, type MoveOptions, type Order } from './orders';
import type { GatewayConfig } from './types';

/**
 * The life of an order: the automatic steps on timers (0 -> 1 -> 2 or 3), and the moves the control API and the
 * cashier page make. One timer per order at most, so that a move made by hand replaces the pending step.
 */
export class OrderClock {
	private readonly timers = new Map<string, NodeJS.Timeout>();

	constructor(
		private readonly config: GatewayConfig,
		private readonly book: OrderBook,
		private readonly moved: (order: Order) => void,
	) {}

	/** The automatic step that follows the order's status, whatever the mode; undefined when it waits for someone. */
	private nextStep(order: Order): { status: number; delay: number } | undefined {
		if (isFinal(order)) return undefined;
		if (order.kind === 'payout' && order.status === 0) return { status: 1, delay: this.config.processingMs };
		if (order.status === 1 && order.plan !== 'hold') {
			return { status: order.plan === 'failed' ? 3 : 2, delay: this.config.finalMs };
		}
		return undefined;
	}

	/** Sets the timer for the order's next automatic step, if it has one and the sandbox is not in manual mode. */
	arm(order: Order): void {
		this.disarm(order);
		if (this.config.manual) {
			delete order.next;
			return;
		}
		if (!order.next) {
			const step = this.nextStep(order);
			if (!step) return;
			order.next = { status: step.status, at: Date.now() + step.delay };
		}
		const next = order.next;
		const timer = setTimeout(
			() => {
				this.timers.delete(order.orderNo);
				if (order.next !== next || isFinal(order)) return;
				this.advance(order, next.status);
				this.arm(order);
			},
			Math.max(0, next.at - Date.now()),
		);
		this.timers.set(order.orderNo, timer);
	}

	private disarm(order: Order): void {
		const timer = this.timers.get(order.orderNo);
		if (timer) {
			clearTimeout(timer);
			this.timers.delete(order.orderNo);
		}
	}

	/** Moves an order, and issues the MIT token on a first successful card payment. */
	advance(order: Order, status: number, options: MoveOptions = {}): void {
		this.disarm(order);
		delete order.next;
		this.book.move(order, status, options);
		if (order.mit && !order.mit.viaToken && !order.mit.tokenID && (status === 2 || status === 4 || status === 5)) {
			order.mit.tokenID = this.book.issueToken(order).tokenID;
		}
		this.moved(order);
	}

	/** Does every automatic step now (in manual mode too), until each order is final or waits for someone. */
	advanceAll(): number {
		let moved = 0;
		for (let round = 0; round < 3; round++) {
			let movedThisRound = 0;
			for (const order of this.book.orders.values()) {
				const step = this.nextStep(order);
				if (!step) continue;
				this.advance(order, step.status);
				this.arm(order);
				movedThisRound += 1;
			}
			moved += movedThisRound;
			if (movedThisRound === 0) break;
		}
		return moved;
	}

	clear(): void {
		for (const timer of this.timers.values()) clearTimeout(timer);
		this.timers.clear();
	}
}
