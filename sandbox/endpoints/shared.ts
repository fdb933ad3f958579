import type { MagicEffect } from '../faults';
import type { Merchant } from '../merchants';
import type { OrderBook } from '../order-book';
import type { Order, Plan } from '../orders';
import type { Refund, RefundBook } from '../refunds';
import type { SchemaName } from '../schemas';
import type { FixedAddressBook } from '../fixed-addresses';
import type { SubscriptionBook } from '../subscriptions';
import type { GatewayConfig, Outcome, StoredFile } from '../types';

/**
 * What an endpoint uses of the gateway: its books, configuration and clock, and the steps that follow a new order
 * or refund. The gateway implements it; endpoints depend on this and not on the gateway, which depends on them.
 */
export interface GatewayPort {
	readonly book: OrderBook;
	readonly refunds: RefundBook;
	readonly subscriptions: SubscriptionBook;
	readonly fixedAddresses: FixedAddressBook;
	readonly baseUrl: string;
	readonly config: GatewayConfig;
	time(epochMs?: number): string;
	placed(order: Order): void;
	placedRefund(refund: Refund): void;
	cashierUrl(order: Order): string;
	keepFile(file: StoredFile): string;
}

/** What an endpoint does with a request that passed the checks every request goes through (see checks.ts). */
export type Handler = (
	gateway: GatewayPort,
	merchant: Merchant,
	request: Record<string, unknown>,
) => Outcome | Promise<Outcome>;

/** One path of the gateway's API, and the currency an appId must have to use it (none: any). */
export interface Endpoint {
	path: string;
	currency?: string;
	schema: SchemaName;
	handle: Handler;
}

export function fail(code: string, msg: string): Outcome {
	return { type: 'error', code, msg };
}

/** A magic value either plans how the order ends or loses the answer; an order with neither succeeds. */
export function planOf(effect: MagicEffect | undefined): { plan: Plan; failReason?: string } {
	if (effect?.kind === 'plan') return { plan: effect.plan, failReason: effect.reason };
	return { plan: 'success' };
}

export function lostAnswer(effect: MagicEffect | undefined): (MagicEffect & { kind: 'lose' }) | undefined {
	return effect?.kind === 'lose' ? effect : undefined;
}

/** A collection order that waits (status 0) for its payer on HaiPay's page, made from an apply request. */
export function waitingCollection(
	gateway: GatewayPort,
	merchant: Merchant,
	request: Record<string, unknown>,
	effect: MagicEffect | undefined,
): Order {
	return gateway.book.create({
		merchant,
		kind: 'collection',
		orderId: request.orderId as string,
		amount: request.amount as string,
		status: 0,
		...planOf(effect),
		fields: pick(request, ['notifyUrl', 'subject', 'body', 'name', 'partnerUserId']),
	});
}

/** The optional text fields an order keeps: those the request sent, not empty. */
export function pick(source: Record<string, unknown>, keys: string[]): Record<string, string> {
	const out: Record<string, string> = {};
	for (const key of keys) {
		const value = source[key];
		if (typeof value === 'string' && value !== '') out[key] = value;
	}
	return out;
}
