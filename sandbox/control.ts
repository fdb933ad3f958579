import { forgeCallback, type AttackOptions, type CallbackAttack } from './attacks';
import type { CallbackAttempt, CallbackJob } from './callbacks';
import { cashierAct } from './cashier';
import { ControlError } from './control-error';
import type { ActiveFault, FaultRule } from './faults';
import type { Gateway } from './gateway';
import { GatewayError, type Order } from './orders';
import type { Refund } from './refunds';
import type { Subscription } from './subscriptions';
import type { SeedOrder, VoucherResponse } from './types';

/** A reference to one order: its orderNo, or its orderId (with the appId when several merchants use it). */
export type OrderRef = string | { orderNo?: string; orderId?: string; appId?: number };

export interface RuntimeConfig {
	voucherResponse: VoucherResponse;
	latencyMs: number;
	callbackSchedule: number[];
	processingMs: number;
	finalMs: number;
	manual: boolean;
}

/** What tests, demos and the benchmark use to steer the gateway; the same features are served over HTTP. */
export class SandboxControl {
	constructor(
		private readonly gateway: Gateway,
		private readonly runtime: { latencyMs: number },
	) {}

	order(ref: OrderRef): Order | undefined {
		if (typeof ref === 'string') return this.gateway.book.find(ref);
		if (ref.orderNo) {
			const order = this.gateway.book.orders.get(ref.orderNo);
			return order && (ref.appId === undefined || order.appId === ref.appId) ? order : undefined;
		}
		if (ref.orderId) return this.gateway.book.find(ref.orderId, ref.appId);
		return undefined;
	}

	private mustFind(ref: OrderRef): Order {
		const order = this.order(ref);
		if (!order) throw new ControlError(404, `no order matches ${JSON.stringify(ref)}`);
		return order;
	}

	orders(filter: { appId?: number; status?: number; kind?: string } = {}): Order[] {
		return [...this.gateway.book.orders.values()].filter(
			(order) =>
				(filter.appId === undefined || order.appId === filter.appId) &&
				(filter.status === undefined || order.status === filter.status) &&
				(filter.kind === undefined || order.kind === filter.kind),
		);
	}

	/** Ends an order now: 'success' (status 2) or 'failed' (status 3), with the balance and callback effects. */
	settle(ref: OrderRef, outcome: 'success' | 'failed', options: { errorMsg?: string } = {}): Order {
		if (outcome !== 'success' && outcome !== 'failed') throw new ControlError(400, 'outcome must be success or failed');
		return this.setStatus(ref, outcome === 'success' ? 2 : 3, options);
	}

	/** Moves an order to any status of its kind (collections: 4 partial and 5 over-collected take a paidAmount). */
	setStatus(ref: OrderRef, status: number, options: { errorMsg?: string; paidAmount?: string } = {}): Order {
		const order = this.mustFind(ref);
		try {
			this.gateway.clock.advance(order, status, options);
		} catch (error) {
			if (error instanceof GatewayError) throw new ControlError(409, error.message);
			throw error;
		}
		this.gateway.clock.arm(order);
		return order;
	}

	/** Does every automatic step now, as if all delays had passed; orders that wait for someone stay. */
	advanceAll(): number {
		return this.gateway.clock.advanceAll();
	}

	/** Creates an order directly, e.g. for currencies whose orders the contract only queries (BRL, MYR, SAR, ...). */
	createOrder(seed: SeedOrder): Order {
		try {
			return this.gateway.seed(seed);
		} catch (error) {
			if (error instanceof GatewayError) throw new ControlError(400, error.message);
			throw error;
		}
	}

	/** Card refunds, oldest first; one by its refundNo or its refund number (orderId). */
	refunds(filter: { appId?: number; orderNo?: string } = {}): Refund[] {
		return [...this.gateway.refunds.refunds.values()].filter(
			(refund) =>
				(filter.appId === undefined || refund.appId === filter.appId) &&
				(filter.orderNo === undefined || refund.orderNo === filter.orderNo),
		);
	}

	refund(ref: string): Refund | undefined {
		return this.gateway.refunds.refunds.get(ref) ?? this.refunds().find((refund) => refund.orderId === ref);
	}

	/** Ends a refund now: 'success' (the money leaves the balance) or 'failed' (it returns), with an errorMsg. */
	settleRefund(ref: string, outcome: 'success' | 'failed', options: { errorMsg?: string } = {}): Refund {
		if (outcome !== 'success' && outcome !== 'failed') throw new ControlError(400, 'outcome must be success or failed');
		const refund = this.refund(ref);
		if (!refund) throw new ControlError(404, `no refund matches ${JSON.stringify(ref)}`);
		try {
			this.gateway.settleRefund(refund, outcome === 'success' ? 'SUCCESS' : 'FAILED', options.errorMsg);
		} catch (error) {
			if (error instanceof GatewayError) throw new ControlError(409, error.message);
			throw error;
		}
		return refund;
	}

	/** Subscriptions, oldest first; `appId` keeps one merchant's. */
	subscriptions(filter: { appId?: number } = {}): Subscription[] {
		return [...this.gateway.subscriptions.subscriptions.values()].filter(
			(sub) => filter.appId === undefined || sub.appId === filter.appId,
		);
	}

	/**
	 * Posts one recurring charge of an active subscription to its notifyUrl (or `url`): HaiPay charges on its own
	 * schedule, which a test cannot wait for, so the charge is made on demand. 2 paid, 3 failed.
	 */
	chargeSubscription(subscriptionNo: string, status: 2 | 3 = 2, url?: string): CallbackJob {
		if (status !== 2 && status !== 3) throw new ControlError(400, 'status must be 2 (paid) or 3 (failed)');
		if (!this.gateway.subscriptions.subscriptions.has(subscriptionNo))
			throw new ControlError(404, `no subscription ${JSON.stringify(subscriptionNo)}`);
		try {
			return this.gateway.chargeSubscription(subscriptionNo, status, url);
		} catch (error) {
			if (error instanceof GatewayError) throw new ControlError(409, error.message);
			throw error;
		}
	}

	/** A transfer of `amount` to a fixed deposit address, its callback posted to `url` (HaiPay's backend setting). */
	deposit(address: string, amount: string, url: string): CallbackJob {
		try {
			return this.gateway.deposit(address, amount, url);
		} catch (error) {
			if (error instanceof GatewayError) throw new ControlError(404, error.message);
			throw error;
		}
	}

	payCashier(ref: OrderRef, action: 'pay' | 'fail' = 'pay'): Order {
		const order = this.mustFind(ref);
		try {
			cashierAct(this.gateway, order, action);
		} catch (error) {
			throw new ControlError(409, (error as Error).message);
		}
		return order;
	}

	setFaults(rules: FaultRule[]): ActiveFault[] {
		return this.wrap(() => this.gateway.faults.set(rules));
	}

	addFault(rule: FaultRule): ActiveFault {
		return this.wrap(() => this.gateway.faults.add(rule));
	}

	/** Fields every later callback carries beyond the published ones, signed with the rest; `{}` for none. */
	setAddedCallbackFields(fields: Record<string, unknown>): Record<string, string> {
		if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
			throw new ControlError(400, 'fields must be an object of names to texts');
		const added: Record<string, string> = {};
		for (const [name, value] of Object.entries(fields)) {
			if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) || name === 'sign')
				throw new ControlError(400, `${name.slice(0, 64)} is not a field name HaiPay could add`);
			if (typeof value !== 'string' || value === '')
				throw new ControlError(400, `the field ${name} needs a text value`);
			added[name] = value;
		}
		this.gateway.addedCallbackFields = added;
		return added;
	}

	clearFaults(): void {
		this.gateway.faults.clear();
	}

	faults(): ActiveFault[] {
		return this.gateway.faults.list();
	}

	ledger(appId: number): { bal: string; availableBal: string; frzBal: string; unSettleBal: string } {
		if (!this.gateway.config.merchants.has(appId)) throw new ControlError(404, `appId ${appId} is not configured`);
		return this.gateway.book.ledger(appId);
	}

	setBalance(appId: number, availableBal: string): void {
		this.wrap(() => this.gateway.setBalance(appId, availableBal));
	}

	/** Gateway requests being handled now, and the most at once since the start or the last reset of the peak. */
	inFlight(): { now: number; max: number } {
		return this.gateway.traffic.inFlight();
	}

	/** Starts a new high-water mark (from the requests in flight now); returns the previous one. */
	resetInFlightPeak(): number {
		return this.gateway.traffic.resetInFlightPeak();
	}

	callbacks(): CallbackAttempt[] {
		return this.gateway.callbacks.attempts();
	}

	callbackJobs(): CallbackJob[] {
		return this.gateway.callbacks.allJobs();
	}

	/** Makes every pending callback attempt now instead of at its scheduled time. */
	flushCallbacks(): Promise<void> {
		return this.gateway.callbacks.flush();
	}

	/** Sends a final order's callback again (a new delivery with its own retries), as a gateway may. */
	resendCallback(ref: OrderRef, url?: string): CallbackJob {
		const order = this.mustFind(ref);
		return this.wrap(() => this.gateway.sendCallback(order, url));
	}

	/**
	 * Sends an attack on the receiver of an order's callbacks, as someone who captured one genuine callback could,
	 * through the normal dispatcher (with its retries and its log). Each one verifies against HaiPay's key except
	 * `oversized`, which is refused for its size before any signature work; a correct receiver starts nothing:
	 * - `replay`: the order's first callback body, byte for byte, sent again;
	 * - `resplit`: the current callback with `fold` (default `orderNo`) folded into the field before it in byte
	 *   order (`"orderId": "M1&orderNo=HP1"`, no orderNo): the same string to sign, so the same signature holds;
	 * - `regressed`: the order at an earlier, non-final `status` (default 1), signed as HaiPay would have signed it;
	 * - `respelled`: the genuine callback with the name of its signature spelled `"\u0073ign"`;
	 * - `oversized`: a forged body with `fields` members (default 300,000): only the appId is real.
	 */
	attackCallback(ref: OrderRef, attack: CallbackAttack, options: AttackOptions = {}): CallbackJob {
		const order = this.mustFind(ref);
		const url = options.url ?? order.notifyUrl;
		if (!url) throw new ControlError(400, `order ${order.orderNo} has no notifyUrl; pass url`);
		const merchant = this.gateway.config.merchants.get(order.appId);
		if (!merchant) throw new ControlError(404, `appId ${order.appId} is not configured`);
		const { body, payload } = forgeCallback(this.gateway, order, merchant, attack, options);
		const job = this.wrap(() => this.gateway.callbacks.enqueue(url, body, { payload, attack }));
		job.orderNo = order.orderNo;
		job.orderId = order.orderId;
		return job;
	}

	config(): RuntimeConfig {
		const c = this.gateway.config;
		return {
			voucherResponse: c.voucherResponse,
			latencyMs: this.runtime.latencyMs,
			callbackSchedule: this.gateway.callbacks.schedule,
			processingMs: c.processingMs,
			finalMs: c.finalMs,
			manual: c.manual,
		};
	}

	setConfig(patch: Partial<RuntimeConfig>): RuntimeConfig {
		const c = this.gateway.config;
		if (patch.voucherResponse !== undefined) {
			if (!['binary', 'base64', 'url'].includes(patch.voucherResponse))
				throw new ControlError(400, 'voucherResponse must be binary, base64 or url');
			c.voucherResponse = patch.voucherResponse;
		}
		const nonNegative = (name: string, value: unknown): number => {
			if (!Number.isInteger(value) || (value as number) < 0)
				throw new ControlError(400, `${name} must be a non-negative integer`);
			return value as number;
		};
		if (patch.latencyMs !== undefined) this.runtime.latencyMs = nonNegative('latencyMs', patch.latencyMs);
		if (patch.processingMs !== undefined) c.processingMs = nonNegative('processingMs', patch.processingMs);
		if (patch.finalMs !== undefined) c.finalMs = nonNegative('finalMs', patch.finalMs);
		if (patch.callbackSchedule !== undefined) {
			if (!Array.isArray(patch.callbackSchedule))
				throw new ControlError(400, 'callbackSchedule must be an array of ms');
			this.gateway.callbacks.schedule = patch.callbackSchedule.map((ms) => nonNegative('callbackSchedule[]', ms));
		}
		if (patch.manual !== undefined) {
			c.manual = patch.manual === true;
			for (const order of this.gateway.book.orders.values()) this.gateway.clock.arm(order);
			for (const refund of this.gateway.refunds.refunds.values()) this.gateway.armRefund(refund);
		}
		return this.config();
	}

	/** Forgets every order, token, callback, log entry and fault, and restores the starting balances. */
	reset(): void {
		this.gateway.reset();
	}

	private wrap<T>(fn: () => T): T {
		try {
			return fn();
		} catch (error) {
			if (error instanceof ControlError) throw error;
			throw new ControlError(400, (error as Error).message);
		}
	}
}
