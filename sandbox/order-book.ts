import { randomBytes } from 'crypto';

import { ERROR_CODES } from './constants';
import type { Merchant } from './merchants';
import { feeOf, formatMoney, parseMoney } from './money';
import {
	COLLECTION_STATUSES,
	displayAmount,
	gatewayTime,
	GatewayError,
	isFinal,
	PAYOUT_STATUSES,
	type Balance,
	type MoveOptions,
	type NewOrder,
	type Order,
	type TokenRecord,
} from './orders';

export interface BookSnapshot {
	seq: number;
	orders: Order[];
	balances: Record<string, { available: string; frozen: string; unsettled: string }>;
	tokens: TokenRecord[];
}

/** Orders, balances and card tokens: the gateway's whole business state. */
export class OrderBook {
	readonly orders = new Map<string, Order>();
	private readonly byOrderId = new Map<string, string>();
	readonly balances = new Map<number, Balance>();
	readonly tokens = new Map<string, TokenRecord>();
	private seq = 0;

	constructor(
		private readonly merchants: Map<number, Merchant>,
		private readonly offsetMinutes: number,
		private readonly now: () => number = Date.now,
	) {
		this.resetBalances();
	}

	resetBalances(): void {
		this.balances.clear();
		for (const merchant of this.merchants.values()) {
			this.balances.set(merchant.appId, { available: parseMoney(merchant.balance), frozen: 0n, unsettled: 0n });
		}
	}

	clear(): void {
		this.orders.clear();
		this.byOrderId.clear();
		this.tokens.clear();
		this.resetBalances();
	}

	balance(appId: number): Balance {
		let balance = this.balances.get(appId);
		if (!balance) {
			balance = { available: 0n, frozen: 0n, unsettled: 0n };
			this.balances.set(appId, balance);
		}
		return balance;
	}

	ledger(appId: number): { bal: string; availableBal: string; frzBal: string; unSettleBal: string } {
		const b = this.balance(appId);
		return {
			bal: formatMoney(b.available + b.frozen + b.unsettled),
			availableBal: formatMoney(b.available),
			frzBal: formatMoney(b.frozen),
			unSettleBal: formatMoney(b.unsettled),
		};
	}

	private key(appId: number, orderId: string): string {
		return `${appId}\u0000${orderId}`;
	}

	findByOrderId(appId: number, orderId: string): Order | undefined {
		const orderNo = this.byOrderId.get(this.key(appId, orderId));
		return orderNo === undefined ? undefined : this.orders.get(orderNo);
	}

	/** An order by orderNo, or by orderId when that is unambiguous (or the appId says which). */
	find(ref: string, appId?: number): Order | undefined {
		const direct = this.orders.get(ref);
		if (direct && (appId === undefined || direct.appId === appId)) return direct;
		if (appId !== undefined) return this.findByOrderId(appId, ref);
		const matches = [...this.orders.values()].filter((order) => order.orderId === ref);
		return matches.length === 1 ? matches[0] : undefined;
	}

	nextOrderNo(): string {
		this.seq += 1;
		const day = gatewayTime(this.now(), this.offsetMinutes).slice(0, 10).replace(/-/g, '');
		return `HP${day}${String(this.seq).padStart(10, '0')}`;
	}

	timestamp(): string {
		return new Date(this.now()).toISOString();
	}

	create(input: NewOrder): Order {
		const { merchant } = input;
		if (this.findByOrderId(merchant.appId, input.orderId)) {
			throw new GatewayError(
				ERROR_CODES.duplicateOrderId,
				`orderId ${input.orderId} already exists for appId ${merchant.appId}`,
			);
		}
		const units = parseMoney(input.amount);
		let fee = 0n;
		let held = 0n;
		if (input.kind === 'payout') {
			fee = feeOf(units, merchant.payoutFeeRate);
			if (input.holdFunds !== false) {
				held = units + fee;
				const balance = this.balance(merchant.appId);
				if (balance.available < held) {
					throw new GatewayError(
						ERROR_CODES.insufficientBalance,
						`insufficient balance: amount plus fee ${formatMoney(held)} exceeds available balance ${formatMoney(balance.available)}`,
					);
				}
				balance.available -= held;
				balance.frozen += held;
			}
		}
		const at = this.timestamp();
		const order: Order = {
			orderNo: this.nextOrderNo(),
			orderId: input.orderId,
			appId: merchant.appId,
			currency: merchant.currency,
			kind: input.kind,
			amount: displayAmount(input.amount),
			fee: formatMoney(fee),
			actualAmount: '0.00',
			status: input.status,
			errorMsg: '',
			payTime: '',
			createdAt: at,
			updatedAt: at,
			plan: input.plan,
			failReason: input.failReason,
			held: held.toString(),
			...input.fields,
			mit: input.mit,
			local: input.local,
			history: [{ status: input.status, at }],
		};
		this.orders.set(order.orderNo, order);
		this.byOrderId.set(this.key(order.appId, order.orderId), order.orderNo);
		return order;
	}

	/** Moves an order and applies what the move does to the merchant's balance. Final states never change. */
	move(order: Order, status: number, options: MoveOptions = {}): void {
		const allowed = order.kind === 'payout' ? PAYOUT_STATUSES : COLLECTION_STATUSES;
		if (!allowed.includes(status)) {
			throw new GatewayError(
				ERROR_CODES.badTransition,
				`status ${status} is not a ${order.kind} status (${allowed.join(', ')})`,
			);
		}
		if (isFinal(order)) {
			throw new GatewayError(
				ERROR_CODES.badTransition,
				`order ${order.orderNo} is already final (status ${order.status})`,
			);
		}
		const merchant = this.merchants.get(order.appId);
		const balance = this.balance(order.appId);
		const held = BigInt(order.held);
		const now = this.now();
		if (order.kind === 'payout') {
			if (status === 2) {
				balance.frozen -= held;
				order.actualAmount = formatMoney(parseMoney(order.amount));
				order.payTime = gatewayTime(now, this.offsetMinutes);
			} else if (status === 3) {
				balance.frozen -= held;
				balance.available += held;
				order.errorMsg = options.errorMsg ?? order.failReason ?? 'Payout failed';
			}
			if (status === 2 || status === 3) order.held = '0';
		} else if (status === 2 || status === 4 || status === 5) {
			const amount = parseMoney(order.amount);
			const paid =
				options.paidAmount !== undefined
					? parseMoney(options.paidAmount)
					: status === 4
						? amount / 2n
						: status === 5
							? amount + amount / 10n
							: amount;
			const fee = feeOf(paid, merchant?.collectionFeeRate ?? '0');
			order.fee = formatMoney(fee);
			order.actualAmount = formatMoney(paid - fee);
			order.payTime = gatewayTime(now, this.offsetMinutes);
			balance.available += paid - fee;
			if (status !== 2) order.paidAmount = formatMoney(paid);
		} else if (status === 3) {
			order.errorMsg = options.errorMsg ?? order.failReason ?? 'Payment failed';
		} else if (status === -1) {
			order.errorMsg = options.errorMsg ?? 'Abnormal, awaiting confirmation';
		}
		order.status = status;
		order.updatedAt = new Date(now).toISOString();
		order.history.push({ status, at: order.updatedAt });
		if (isFinal(order)) delete order.next;
	}

	issueToken(order: Order): TokenRecord {
		const token: TokenRecord = {
			tokenID: `tok_${randomBytes(12).toString('hex')}`,
			appId: order.appId,
			partnerUserId: order.partnerUserId,
			issuedBy: order.orderNo,
			createdAt: this.timestamp(),
		};
		this.tokens.set(token.tokenID, token);
		return token;
	}

	snapshot(): BookSnapshot {
		const balances: BookSnapshot['balances'] = {};
		for (const [appId, b] of this.balances) {
			balances[appId] = {
				available: b.available.toString(),
				frozen: b.frozen.toString(),
				unsettled: b.unsettled.toString(),
			};
		}
		return { seq: this.seq, orders: [...this.orders.values()], balances, tokens: [...this.tokens.values()] };
	}

	restore(snapshot: BookSnapshot): void {
		this.clear();
		this.seq = snapshot.seq;
		for (const order of snapshot.orders) {
			this.orders.set(order.orderNo, order);
			this.byOrderId.set(this.key(order.appId, order.orderId), order.orderNo);
		}
		for (const [appId, b] of Object.entries(snapshot.balances)) {
			this.balances.set(Number(appId), {
				available: BigInt(b.available),
				frozen: BigInt(b.frozen),
				unsettled: BigInt(b.unsettled),
			});
		}
		for (const token of snapshot.tokens) this.tokens.set(token.tokenID, token);
	}
}
