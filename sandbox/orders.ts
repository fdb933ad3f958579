import type { Merchant } from './merchants';

export type OrderKind = 'payout' | 'collection';

/** What the automatic settlement does with an order once it is due: magic values choose `failed` or `hold`. */
export type Plan = 'success' | 'failed' | 'hold';

/**
 * Statuses (docs/haipay-facts.md): 0 not started, 1 processing, 2 success, 3 failed; collections also 4 partially
 * collected, 5 over-collected and -1 abnormal (awaiting confirmation).
 */
export const PAYOUT_STATUSES = [0, 1, 2, 3];
export const COLLECTION_STATUSES = [-1, 0, 1, 2, 3, 4, 5];

export function isFinal(order: Pick<Order, 'kind' | 'status'>): boolean {
	if (order.status === 2 || order.status === 3) return true;
	return order.kind === 'collection' && (order.status === 4 || order.status === 5);
}

export interface MitInfo {
	clientToken: string;
	/** True when the order charged a stored token instead of going through the cashier page. */
	viaToken: boolean;
	/** The token the order used, or the one it issued once paid. */
	tokenID?: string;
	callBackUrl?: string;
	callBackFailUrl?: string;
	cancelUrl?: string;
	loadingType?: number;
}

/**
 * What the payer of a local-currency collection pays with (docs/haipay-facts.md): HaiPay's page, and per rail a QR
 * code (PIX, QRIS, QR Ph), a virtual account number and the payment method's code.
 */
export interface LocalPayment {
	payType: string;
	inBankCode: string;
	qrCode?: string;
	bankNo?: string;
	bankCode?: string;
	callBackUrl?: string;
	callBackFailUrl?: string;
}

export interface Order {
	orderNo: string;
	orderId: string;
	appId: number;
	currency: string;
	kind: OrderKind;
	/** The amount as the gateway prints it: the merchant's digits, at least two decimals. */
	amount: string;
	fee: string;
	/** Payout: what reached the payee (0.00 unless successful). Collection: what was credited, after the fee. */
	actualAmount: string;
	status: number;
	errorMsg: string;
	/** Collections settled as partial (4) or over-collected (5): what the payer actually paid. */
	paidAmount?: string;
	/** `YYYY-MM-DD HH:mm:ss` once paid, else "". */
	payTime: string;
	createdAt: string;
	updatedAt: string;
	plan: Plan;
	/** Why a planned failure fails, shown in errorMsg. */
	failReason?: string;
	/** The next automatic step and when it is due (epoch ms); absent when the order waits for someone. */
	next?: { status: number; at: number };
	/** Money held on the merchant balance for a payout in flight, in 1/10,000 units. */
	held: string;
	notifyUrl?: string;
	subject?: string;
	body?: string;
	name?: string;
	accountNo?: string;
	accountType?: string;
	bankCode?: string;
	partnerUserId?: string;
	mit?: MitInfo;
	/** A local-currency collection's means of payment. */
	local?: LocalPayment;
	history: Array<{ status: number; at: string }>;
}

export interface Balance {
	available: bigint;
	frozen: bigint;
	unsettled: bigint;
}

export interface TokenRecord {
	tokenID: string;
	appId: number;
	partnerUserId?: string;
	issuedBy: string;
	createdAt: string;
}

export class GatewayError extends Error {
	constructor(
		readonly code: string,
		message: string,
	) {
		super(message);
		this.name = 'GatewayError';
	}
}

/** `YYYY-MM-DD HH:mm:ss` in a fixed offset from UTC, as the gateway prints times. */
export function gatewayTime(epochMs: number, offsetMinutes: number): string {
	const shifted = new Date(epochMs + offsetMinutes * 60_000).toISOString();
	return `${shifted.slice(0, 10)} ${shifted.slice(11, 19)}`;
}

/**
 * `YYYY-MM-DD HH:mm:ss` on the wall clock of an IANA zone, as HaiPay prints a fixed-address deposit's payTime
 * ("New York time"): read from the platform's zone data, not from the node's own conversion.
 */
export function wallClockTime(epochMs: number, zone: string): string {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(epochMs);
	const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
	return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/** Keeps every decimal the merchant sent and pads to at least two, so "1000" prints "1000.00". */
export function displayAmount(text: string): string {
	const [whole, fraction = ''] = text.split('.');
	return `${whole}.${fraction.padEnd(2, '0')}`;
}

export interface NewOrder {
	merchant: Merchant;
	kind: OrderKind;
	orderId: string;
	amount: string;
	status: number;
	plan: Plan;
	failReason?: string;
	fields?: Partial<
		Pick<Order, 'notifyUrl' | 'subject' | 'body' | 'name' | 'accountNo' | 'accountType' | 'bankCode' | 'partnerUserId'>
	>;
	mit?: MitInfo;
	local?: LocalPayment;
	/** Seeded orders (control API) may skip the balance hold. */
	holdFunds?: boolean;
}

export interface MoveOptions {
	errorMsg?: string;
	/** For collections reaching 2, 4 or 5: the amount actually paid. */
	paidAmount?: string;
}
