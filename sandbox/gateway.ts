import { randomBytes } from 'crypto';
import { EventEmitter } from 'events';

import { CallbackDispatcher, type CallbackJob } from './callbacks';
import { ERROR_CODES } from './constants';
import { endpointOf } from './endpoints';
import { checkRequest } from './endpoints/checks';
import { fail, pick, type GatewayPort } from './endpoints/shared';
import { FaultBox } from './faults';
import { OrderClock } from './lifecycle';
import type { Merchant } from './merchants';
import { parseMoney } from './money';
import { OrderBook } from './order-book';
import { RefundBook, type Refund } from './refunds';
import { SubscriptionBook } from './subscriptions';
import { gatewayTime, GatewayError, isFinal, type Order, wallClockTime } from './orders';
import { signBody, signBodyAsync } from './signing';
import { loadState, StateWriter, type SavedState } from './state';
import { Traffic } from './traffic';
import type { GatewayConfig, Outcome, SeedOrder, StoredFile } from './types';

export type { StoredFile } from './types';
import { FixedAddressBook } from './fixed-addresses';

/**
 * The business side of the sandbox, with no HTTP in it: it holds the state (orders, balances, callbacks, faults,
 * traffic, files) and hands each request to the endpoint its path names (endpoints/).
 */
export class Gateway implements GatewayPort {
	readonly events = new EventEmitter();
	readonly book: OrderBook;
	readonly refunds: RefundBook;
	readonly subscriptions = new SubscriptionBook();
	readonly fixedAddresses = new FixedAddressBook();
	private readonly refundTimers = new Map<string, NodeJS.Timeout>();
	readonly faults = new FaultBox();
	readonly callbacks: CallbackDispatcher;
	readonly clock: OrderClock;
	readonly traffic: Traffic;
	private readonly files = new Map<string, StoredFile>();
	private readonly writer?: StateWriter;
	baseUrl = '';

	constructor(readonly config: GatewayConfig) {
		this.events.setMaxListeners(100);
		this.book = new OrderBook(config.merchants, config.timeOffsetMinutes);
		this.refunds = new RefundBook(this.book);
		this.traffic = new Traffic(config.requestLogLimit, this.events);
		this.callbacks = new CallbackDispatcher({
			schedule: config.callbackSchedule,
			timeoutMs: config.callbackTimeoutMs,
			concurrency: config.callbackConcurrency,
			events: this.events,
			onChange: () => this.changed(),
		});
		this.clock = new OrderClock(config, this.book, (order) => {
			if (isFinal(order) && order.notifyUrl) this.sendCallback(order);
			this.orderChanged(order);
		});
		if (config.stateFile) {
			this.writer = new StateWriter(config.stateFile, config.persistDebounceMs, () => this.savedState());
			const saved = loadState(config.stateFile);
			if (saved) {
				this.book.restore(saved.book);
				this.refunds.restore(saved.refunds ?? []);
				this.callbacks.restore(saved.callbacks);
				for (const order of this.book.orders.values()) this.clock.arm(order);
				for (const refund of this.refunds.refunds.values()) this.armRefund(refund);
			}
			// The file exists from the start, so a crash before the first order still keeps the balances.
			this.writer.markDirty();
		}
	}

	private savedState(): SavedState {
		const refunds = this.refunds.snapshot();
		return {
			version: 1,
			savedAt: new Date().toISOString(),
			book: this.book.snapshot(),
			callbacks: this.callbacks.snapshot(),
			...(refunds.length > 0 ? { refunds } : {}),
		};
	}

	changed(): void {
		this.writer?.markDirty();
	}

	async saveNow(): Promise<void> {
		this.writer?.markDirty();
		await this.writer?.flush();
	}

	async close(): Promise<void> {
		this.clock.clear();
		this.disarmRefunds();
		this.callbacks.close();
		await this.callbacks.settle();
		await this.writer?.flush();
	}

	time(epochMs = Date.now()): string {
		return gatewayTime(epochMs, this.config.timeOffsetMinutes);
	}

	/** Signs `data` for an answer to `merchant`: with the platform key, or deliberately wrong. */
	signData(data: Record<string, unknown>, merchant: Merchant, spoil = false): string {
		const secret = spoil ? `${merchant.secretKey}-spoiled` : merchant.secretKey;
		return signBody(data, secret, this.config.platformKey, merchant.arrayStyle);
	}

	signDataAsync(data: Record<string, unknown>, merchant: Merchant, spoil = false): Promise<string> {
		const secret = spoil ? `${merchant.secretKey}-spoiled` : merchant.secretKey;
		return signBodyAsync(data, secret, this.config.platformKey, merchant.arrayStyle);
	}

	async handle(path: string, body: unknown): Promise<Outcome> {
		const endpoint = endpointOf(path);
		if (!endpoint) return fail(ERROR_CODES.unknownEndpoint, `unknown endpoint ${path}`);
		const checked = checkRequest(this.config, endpoint, path, body);
		if ('refusal' in checked) return checked.refusal;
		try {
			return await endpoint.handle(this, checked.merchant, checked.request);
		} catch (error) {
			if (error instanceof GatewayError) return fail(error.code, error.message);
			throw error;
		}
	}

	/** Starts a new order's clock and tells listeners it exists. */
	placed(order: Order): void {
		this.clock.arm(order);
		this.orderChanged(order);
	}

	private orderChanged(order: Order): void {
		this.changed();
		this.events.emit('order', order);
	}

	/** Starts a new refund's settlement and tells listeners it exists. */
	placedRefund(refund: Refund): void {
		this.armRefund(refund);
		this.refundChanged(refund);
	}

	/** Settles a refund after `finalMs` (SUCCESS), unless the sandbox is manual: then only the control API ends it. */
	armRefund(refund: Refund): void {
		clearTimeout(this.refundTimers.get(refund.refundNo));
		this.refundTimers.delete(refund.refundNo);
		if (refund.status !== 'PROCESSING' || this.config.manual) {
			delete refund.dueAt;
			return;
		}
		refund.dueAt ??= Date.now() + this.config.finalMs;
		const timer = setTimeout(
			() => {
				this.refundTimers.delete(refund.refundNo);
				if (refund.status === 'PROCESSING') this.settleRefund(refund, 'SUCCESS');
			},
			Math.max(0, refund.dueAt - Date.now()),
		);
		this.refundTimers.set(refund.refundNo, timer);
	}

	settleRefund(refund: Refund, status: 'SUCCESS' | 'FAILED', errorMsg?: string): void {
		clearTimeout(this.refundTimers.get(refund.refundNo));
		this.refundTimers.delete(refund.refundNo);
		this.refunds.settle(refund, status, errorMsg);
		this.refundChanged(refund);
	}

	private refundChanged(refund: Refund): void {
		this.changed();
		this.events.emit('refund', refund);
	}

	private disarmRefunds(): void {
		for (const timer of this.refundTimers.values()) clearTimeout(timer);
		this.refundTimers.clear();
	}

	cashierUrl(order: Order): string {
		return `${this.baseUrl}/cashier/${order.orderNo}`;
	}

	/** Keeps a voucher for download and gives its URL: the newest 50 are kept, not every one for ever. */
	keepFile(file: StoredFile): string {
		const id = randomBytes(8).toString('hex');
		this.files.set(id, file);
		if (this.files.size > 50) this.files.delete(this.files.keys().next().value as string);
		return `${this.baseUrl}/__sandbox/files/${id}/${file.name}`;
	}

	file(id: string): StoredFile | undefined {
		return this.files.get(id);
	}

	/**
	 * Fields HaiPay's callbacks carry beyond those published (its callback page says it will add some), signed with
	 * the rest: set through the control API, so that tests can send what an extended HaiPay would.
	 */
	addedCallbackFields: Record<string, string> = {};

	/** `extra`: members of this one callback beyond the order's (a deposit's transaction hash), signed with them. */
	callbackBody(order: Order, extra: Record<string, unknown> = {}): Record<string, unknown> {
		const merchant = this.config.merchants.get(order.appId);
		const body: Record<string, unknown> = {
			appId: order.appId,
			currency: order.currency,
			orderId: order.orderId,
			orderNo: order.orderNo,
			amount: order.paidAmount ?? order.amount,
			fee: order.fee,
			status: order.status,
		};
		if (order.status === 2 || order.status === 4 || order.status === 5) body.payTime = order.payTime;
		if (order.status === 3) body.errorMsg = order.errorMsg;
		if (order.mit?.tokenID) body.tokenID = order.mit.tokenID;
		Object.assign(body, extra);
		for (const [name, value] of Object.entries(this.addedCallbackFields)) if (!(name in body)) body[name] = value;
		if (merchant) body.sign = this.signData(body, merchant);
		return body;
	}

	sendCallback(order: Order, url = order.notifyUrl): CallbackJob {
		if (!url) throw new GatewayError(ERROR_CODES.badRequest, `order ${order.orderNo} has no notifyUrl`);
		if (!isFinal(order)) throw new GatewayError(ERROR_CODES.badTransition, `order ${order.orderNo} is not final yet`);
		return this.callbacks.enqueue(url, this.callbackBody(order));
	}

	/**
	 * A transfer of `amount` to a fixed deposit address: a collection order of HaiPay's own, paid at once, with a new
	 * orderId and orderNo, whose callback (with the transaction hash) goes to `url`, the merchant's configured one.
	 */
	deposit(address: string, amount: string, url: string): CallbackJob {
		const bound = this.fixedAddresses.find(address);
		if (!bound) throw new GatewayError(ERROR_CODES.badRequest, `no fixed address ${address}`);
		const orderId = `FIX-${randomBytes(6).toString('hex')}`;
		const order = this.seed({ appId: bound.appId, kind: 'collection', orderId, amount, status: 2 });
		// The fixed-address page gives this payTime in New York time, unlike the gateway's other times.
		order.payTime = wallClockTime(Date.now(), 'America/New_York');
		return this.callbacks.enqueue(url, this.callbackBody(order, { hash: randomBytes(32).toString('hex') }));
	}

	/** A recurring charge of a subscription, posted signed to its notifyUrl (or `url`). */
	chargeSubscription(subscriptionNo: string, status: 2 | 3 = 2, url?: string): CallbackJob {
		const sub = this.subscriptions.subscriptions.get(subscriptionNo);
		if (!sub) throw new GatewayError(ERROR_CODES.badRequest, `subscription ${subscriptionNo} does not exist`);
		const target = url ?? (typeof sub.request.notifyUrl === 'string' ? sub.request.notifyUrl : '');
		if (target === '')
			throw new GatewayError(ERROR_CODES.badRequest, `subscription ${subscriptionNo} has no notifyUrl`);
		const merchant = this.config.merchants.get(sub.appId);
		const body = this.subscriptions.chargeBody(sub, status, this.time());
		if (merchant) body.sign = this.signData(body, merchant);
		return this.callbacks.enqueue(target, body);
	}

	seed(input: SeedOrder): Order {
		const merchant = this.config.merchants.get(input.appId);
		if (!merchant) throw new GatewayError(ERROR_CODES.unknownAppId, `appId ${input.appId} is not configured`);
		const kind = input.kind ?? 'payout';
		if (!/^\d+(\.\d{1,4})?$/.test(input.amount))
			throw new GatewayError(ERROR_CODES.validation, 'amount must be a decimal string');
		const order = this.book.create({
			merchant,
			kind,
			orderId: input.orderId ?? `SEED-${randomBytes(6).toString('hex')}`,
			amount: input.amount,
			status: kind === 'payout' ? 1 : 0,
			plan: 'hold',
			holdFunds: input.holdFunds,
			fields: pick(input as unknown as Record<string, unknown>, [
				'notifyUrl',
				'subject',
				'name',
				'accountNo',
				'bankCode',
			]),
		});
		if (input.status !== undefined && input.status !== order.status)
			this.clock.advance(order, input.status, { errorMsg: input.errorMsg });
		else this.orderChanged(order);
		return order;
	}

	setBalance(appId: number, available: string): void {
		if (!this.config.merchants.has(appId))
			throw new GatewayError(ERROR_CODES.unknownAppId, `appId ${appId} is not configured`);
		this.book.balance(appId).available = parseMoney(available);
		this.changed();
	}

	reset(): void {
		this.clock.clear();
		this.disarmRefunds();
		this.refunds.clear();
		this.subscriptions.clear();
		this.fixedAddresses.clear();
		this.book.clear();
		this.callbacks.clear();
		this.faults.clear();
		this.traffic.clear();
		this.files.clear();
		this.changed();
	}
}
