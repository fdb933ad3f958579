import { randomBytes, type KeyObject } from 'crypto';
import { EventEmitter } from 'events';

import { CallbackDispatcher, type CallbackJob } from './callbacks';
import { FaultBox, magicOf, UNKNOWN_BANK_CODE, type MagicEffect } from './faults';
import type { Merchant } from './merchants';
import { parseMoney } from './money';
import { gatewayTime, GatewayError, isFinal, OrderBook, type Order, type OrderKind, type Plan } from './orders';
import { validate, type SchemaName } from './schemas';
import { signBody, signBodyAsync, verifyBody } from './signing';
import { loadState, StateWriter, type SavedState } from './state';
import { voucherPdf, voucherZip, type VoucherOptions } from './voucher';

/** Every currency the contract's paths know; the generic query and ledger paths exist for each. */
export const KNOWN_CURRENCIES = ['TZS', 'ZAR', 'NGN', 'EGP', 'BDT', 'USD', 'BRL', 'MYR', 'SAR', 'IDR', 'USDC'];
const PAYOUT_APPLY: Record<string, SchemaName> = {
	TZS: 'tzsPayApply',
	ZAR: 'zarPayApply',
	NGN: 'ngnPayApply',
	EGP: 'egpPayApply',
	BDT: 'bdtPayApply',
};

export const SUCCESS_CODE = '00000000';

/** The error codes this gateway answers with (docs/sandbox.md lists them with their causes). */
export const ERROR_CODES = {
	badRequest: '4000',
	validation: '4001',
	unknownChannel: '4002',
	signature: '4003',
	unknownAppId: '4004',
	currencyMismatch: '4005',
	duplicateOrderId: '4006',
	insufficientBalance: '4007',
	voucherNotAvailable: '4008',
	unknownToken: '4009',
	noPermission: '4010',
	badTransition: '4011',
	unknownEndpoint: '4040',
	methodNotAllowed: '4050',
	internal: '5000',
} as const;

export type VoucherResponse = 'binary' | 'base64' | 'url';

export interface GatewayConfig {
	merchants: Map<number, Merchant>;
	platformKey: KeyObject;
	environment: 'sandbox' | 'production';
	callbackSchedule: number[];
	callbackTimeoutMs: number;
	processingMs: number;
	finalMs: number;
	manual: boolean;
	voucherResponse: VoucherResponse;
	timeOffsetMinutes: number;
	requestLogLimit: number;
	stateFile?: string;
	persistDebounceMs: number;
}

export type Outcome =
	| { type: 'ok'; data: Record<string, unknown>; merchant: Merchant; lose?: MagicEffect & { kind: 'lose' } }
	| { type: 'error'; code: string; msg: string; lose?: MagicEffect & { kind: 'lose' } }
	| { type: 'file'; contentType: string; filename: string; bytes: Buffer }
	| { type: 'bare'; data: string };

export interface RequestLogEntry {
	seq: number;
	at: string;
	method: string;
	path: string;
	appId?: number;
	orderId?: string;
	/** The parsed request body, `sign` included: the sandbox's keys and secrets are test-only. */
	body?: unknown;
	/** '1' answered normally, '0' answered with an error envelope, 'fault' lost or spoiled on purpose. */
	outcome: '1' | '0' | 'file' | 'fault';
	error?: string;
	msg?: string;
	ms: number;
}

export interface SeedOrder {
	appId: number;
	kind?: OrderKind;
	orderId?: string;
	amount: string;
	status?: number;
	errorMsg?: string;
	notifyUrl?: string;
	subject?: string;
	name?: string;
	accountNo?: string;
	bankCode?: string;
	/** Payouts only: hold amount plus fee on the balance as an applied payout does (default true). */
	holdFunds?: boolean;
}

interface Route {
	kind: 'payoutApply' | 'mitApply' | 'payQuery' | 'collectQuery' | 'ledger' | 'voucher';
	currency?: string;
	schema: SchemaName;
}

export function routeOf(path: string): Route | undefined {
	if (path === '/common/voucher/pdf') return { kind: 'voucher', schema: 'voucherPdf' };
	if (path === '/usd/mit/apply') return { kind: 'mitApply', currency: 'USD', schema: 'usdMitApply' };
	const match = /^\/([a-z]+)\/(pay\/apply|pay\/query|collect\/query|account\/ledger)$/.exec(path);
	if (!match) return undefined;
	const currency = match[1].toUpperCase();
	if (!KNOWN_CURRENCIES.includes(currency)) return undefined;
	switch (match[2]) {
		case 'pay/apply':
			return PAYOUT_APPLY[currency] ? { kind: 'payoutApply', currency, schema: PAYOUT_APPLY[currency] } : undefined;
		case 'pay/query':
			return { kind: 'payQuery', currency, schema: 'orderQuery' };
		case 'collect/query':
			return { kind: 'collectQuery', currency, schema: 'orderQuery' };
		default:
			return { kind: 'ledger', currency, schema: 'accountLedger' };
	}
}

function fail(code: string, msg: string): Outcome {
	return { type: 'error', code, msg };
}

/** The business side of the sandbox: orders, balances, callbacks, vouchers, with no HTTP in it. */
export class Gateway {
	readonly events = new EventEmitter();
	readonly book: OrderBook;
	readonly faults = new FaultBox();
	readonly callbacks: CallbackDispatcher;
	private readonly timers = new Map<string, NodeJS.Timeout>();
	private readonly requestLog: RequestLogEntry[] = [];
	private requestSeq = 0;
	private readonly applies = new Map<number, number>();
	private inFlightNow = 0;
	private inFlightPeak = 0;
	private readonly files = new Map<string, { contentType: string; name: string; bytes: Buffer }>();
	private readonly writer?: StateWriter;
	baseUrl = '';

	constructor(readonly config: GatewayConfig) {
		this.events.setMaxListeners(100);
		this.book = new OrderBook(config.merchants, config.timeOffsetMinutes);
		this.callbacks = new CallbackDispatcher({
			schedule: config.callbackSchedule,
			timeoutMs: config.callbackTimeoutMs,
			events: this.events,
			onChange: () => this.changed(),
		});
		if (config.stateFile) {
			this.writer = new StateWriter(config.stateFile, config.persistDebounceMs, () => this.savedState());
			const saved = loadState(config.stateFile);
			if (saved) {
				this.book.restore(saved.book);
				this.callbacks.restore(saved.callbacks);
				for (const order of this.book.orders.values()) this.arm(order);
			}
			// The file exists from the start, so a crash before the first order still keeps the balances.
			this.writer.markDirty();
		}
	}

	private savedState(): SavedState {
		return { version: 1, savedAt: new Date().toISOString(), book: this.book.snapshot(), callbacks: this.callbacks.snapshot() };
	}

	changed(): void {
		this.writer?.markDirty();
	}

	async saveNow(): Promise<void> {
		this.writer?.markDirty();
		await this.writer?.flush();
	}

	async close(): Promise<void> {
		for (const timer of this.timers.values()) clearTimeout(timer);
		this.timers.clear();
		this.callbacks.close();
		await this.callbacks.settle();
		await this.writer?.flush();
	}

	time(epochMs = Date.now()): string {
		return gatewayTime(epochMs, this.config.timeOffsetMinutes);
	}

	// ---- requests ---------------------------------------------------------------------------------------------

	logRequest(entry: Omit<RequestLogEntry, 'seq' | 'at'>, startedAt: number): void {
		const full: RequestLogEntry = { seq: ++this.requestSeq, at: new Date(startedAt).toISOString(), ...entry };
		this.requestLog.push(full);
		// Trimmed in batches: a shift per request would copy the whole log every time.
		if (this.requestLog.length > this.config.requestLogLimit * 1.25) this.requestLog.splice(0, this.requestLog.length - this.config.requestLogLimit);
		this.events.emit('request', full);
	}

	requests(): RequestLogEntry[] {
		return this.requestLog.slice(-this.config.requestLogLimit);
	}

	appliesReceived(appId?: number): number {
		if (appId !== undefined) return this.applies.get(appId) ?? 0;
		let total = 0;
		for (const count of this.applies.values()) total += count;
		return total;
	}

	appliesByAppId(): Record<string, number> {
		return Object.fromEntries(this.applies);
	}

	/** Gateway requests (not control or cashier ones) between their arrival and the end of their answer. */
	requestStarted(): void {
		this.inFlightNow += 1;
		if (this.inFlightNow > this.inFlightPeak) this.inFlightPeak = this.inFlightNow;
	}

	requestEnded(): void {
		this.inFlightNow -= 1;
	}

	/** `max` is the high-water mark since the start or the last `resetInFlightPeak`. */
	inFlight(): { now: number; max: number } {
		return { now: this.inFlightNow, max: this.inFlightPeak };
	}

	/** Starts a new high-water mark from the requests in flight now; returns the previous one. */
	resetInFlightPeak(): number {
		const previous = this.inFlightPeak;
		this.inFlightPeak = this.inFlightNow;
		return previous;
	}

	signDataAsync(data: Record<string, unknown>, merchant: Merchant, spoil = false): Promise<string> {
		const secret = spoil ? `${merchant.secretKey}-spoiled` : merchant.secretKey;
		return signBodyAsync(data, secret, this.config.platformKey, merchant.arrayStyle);
	}

	/** Counts an apply as received, whatever then happens to it: tests use this to prove a create was sent once. */
	noteReceived(path: string, body: unknown): void {
		if (!/\/(pay|mit)\/apply$/.test(path) || body === null || typeof body !== 'object') return;
		const appId = (body as Record<string, unknown>).appId;
		if (Number.isInteger(appId)) this.applies.set(appId as number, (this.applies.get(appId as number) ?? 0) + 1);
	}

	/** Signs `data` for an answer to `merchant`: with the platform key, or deliberately wrong. */
	signData(data: Record<string, unknown>, merchant: Merchant, spoil = false): string {
		const secret = spoil ? `${merchant.secretKey}-spoiled` : merchant.secretKey;
		return signBody(data, secret, this.config.platformKey, merchant.arrayStyle);
	}

	async handle(path: string, body: unknown): Promise<Outcome> {
		const route = routeOf(path);
		if (!route) return fail(ERROR_CODES.unknownEndpoint, `unknown endpoint ${path}`);
		if (body === null || typeof body !== 'object' || Array.isArray(body)) {
			return fail(ERROR_CODES.badRequest, 'request body must be a JSON object');
		}
		const request = body as Record<string, unknown>;
		if (request.appId === undefined || request.appId === null || request.appId === '') {
			return fail(ERROR_CODES.validation, 'appId is required');
		}
		if (!Number.isInteger(request.appId)) return fail(ERROR_CODES.validation, 'appId must be of type integer');
		const merchant = this.config.merchants.get(request.appId as number);
		if (!merchant || merchant.environment !== this.config.environment) {
			return fail(ERROR_CODES.unknownAppId, `appId ${String(request.appId)} is not registered in the ${this.config.environment} environment`);
		}
		if (route.currency && merchant.currency !== route.currency) {
			return fail(
				ERROR_CODES.currencyMismatch,
				`appId ${merchant.appId} belongs to currency ${merchant.currency}, not ${route.currency} (path ${path})`,
			);
		}
		if (request.sign === undefined || request.sign === null || request.sign === '') {
			return fail(ERROR_CODES.signature, 'sign is required');
		}
		if (typeof request.sign !== 'string' || !verifyBody(request, request.sign, merchant.secretKey, merchant.publicKey, merchant.arrayStyle)) {
			return fail(ERROR_CODES.signature, 'sign does not verify with the public key and secret of this appId');
		}
		const valid = validate(route.schema, request);
		if (!valid.ok) return fail(ERROR_CODES.validation, valid.message);
		try {
			switch (route.kind) {
				case 'payoutApply':
					return this.payoutApply(merchant, request);
				case 'mitApply':
					return this.mitApply(merchant, request);
				case 'payQuery':
				case 'collectQuery':
					return this.query(merchant, route, request);
				case 'ledger':
					return { type: 'ok', merchant, data: this.book.ledger(merchant.appId) };
				default:
					return await this.voucher(merchant, request);
			}
		} catch (error) {
			if (error instanceof GatewayError) return fail(error.code, error.message);
			throw error;
		}
	}

	private planOf(effect: MagicEffect | undefined): { plan: Plan; failReason?: string } {
		if (effect?.kind === 'plan') return { plan: effect.plan, failReason: effect.reason };
		return { plan: 'success' };
	}

	private payoutApply(merchant: Merchant, request: Record<string, unknown>): Outcome {
		const magic = magicOf(request.name);
		if (magic?.kind === 'reject') return fail(magic.code, magic.message);
		if (request.bankCode === UNKNOWN_BANK_CODE) return fail(ERROR_CODES.unknownChannel, `channel code does not exist: bankCode ${UNKNOWN_BANK_CODE}`);
		const order = this.book.create({
			merchant,
			kind: 'payout',
			orderId: request.orderId as string,
			amount: request.amount as string,
			status: this.config.processingMs > 0 && !this.config.manual ? 0 : 1,
			...this.planOf(magic),
			fields: pick(request, ['notifyUrl', 'subject', 'body', 'name', 'accountNo', 'accountType', 'bankCode', 'partnerUserId']),
		});
		this.arm(order);
		this.orderChanged(order);
		const data: Record<string, unknown> = { orderId: order.orderId, orderNo: order.orderNo };
		if (merchant.currency === 'NGN') data.payUrl = '';
		return { type: 'ok', merchant, data, lose: magic?.kind === 'lose' ? magic : undefined };
	}

	private mitApply(merchant: Merchant, request: Record<string, unknown>): Outcome {
		const magic = magicOf(request.name);
		if (magic?.kind === 'reject') return fail(magic.code, magic.message);
		const tokenID = typeof request.tokenID === 'string' && request.tokenID !== '' ? request.tokenID : undefined;
		const fields = pick(request, ['notifyUrl', 'subject', 'body', 'name', 'partnerUserId']);
		const redirects = pick(request, ['callBackUrl', 'callBackFailUrl', 'cancelUrl']);
		let order: Order;
		if (tokenID !== undefined) {
			const token = this.book.tokens.get(tokenID);
			if (!token || token.appId !== merchant.appId) {
				return fail(ERROR_CODES.unknownToken, 'tokenID is unknown or belongs to another appId');
			}
			order = this.book.create({
				merchant,
				kind: 'collection',
				orderId: request.orderId as string,
				amount: request.amount as string,
				status: 1,
				...this.planOf(magic),
				fields,
				mit: { clientToken: '', viaToken: true, tokenID, ...redirects },
			});
		} else {
			order = this.book.create({
				merchant,
				kind: 'collection',
				orderId: request.orderId as string,
				amount: request.amount as string,
				status: 0,
				...this.planOf(magic),
				fields,
				mit: {
					clientToken: `ct_${randomBytes(16).toString('hex')}`,
					viaToken: false,
					loadingType: request.loadingType as number | undefined,
					...redirects,
				},
			});
		}
		this.arm(order);
		this.orderChanged(order);
		const data = {
			orderId: order.orderId,
			orderNo: order.orderNo,
			payUrl: order.mit?.viaToken ? '' : this.cashierUrl(order),
			clientToken: order.mit?.clientToken ?? '',
		};
		return { type: 'ok', merchant, data, lose: magic?.kind === 'lose' ? magic : undefined };
	}

	cashierUrl(order: Order): string {
		return `${this.baseUrl}/cashier/${order.orderNo}`;
	}

	private query(merchant: Merchant, route: Route, request: Record<string, unknown>): Outcome {
		const kind: OrderKind = route.kind === 'payQuery' ? 'payout' : 'collection';
		const orderId = typeof request.orderId === 'string' ? request.orderId : undefined;
		const orderNo = typeof request.orderNo === 'string' ? request.orderNo : undefined;
		let order = orderNo !== undefined ? this.book.orders.get(orderNo) : this.book.findByOrderId(merchant.appId, orderId ?? '');
		if (order && (order.appId !== merchant.appId || order.kind !== kind || (orderId !== undefined && order.orderId !== orderId))) {
			order = undefined;
		}
		if (!order) {
			// Contract 4.7: a missing order is a normal answer with status 3 and a reason.
			return {
				type: 'ok',
				merchant,
				data: { orderId: orderId ?? '', orderNo: orderNo ?? '', status: 3, errorMsg: 'order does not exist' },
			};
		}
		const base = { orderId: order.orderId, orderNo: order.orderNo, amount: order.amount, fee: order.fee, status: order.status };
		if (kind === 'payout') {
			// Contract 4.7: the BRL query has no payTime; MYR and the generic query do.
			if (route.currency === 'BRL') return { type: 'ok', merchant, data: { ...base, errorMsg: order.errorMsg } };
			return { type: 'ok', merchant, data: { ...base, payTime: order.payTime, errorMsg: order.errorMsg } };
		}
		return {
			type: 'ok',
			merchant,
			data: { ...base, actualAmount: order.actualAmount, payTime: order.payTime, errorMsg: order.errorMsg },
		};
	}

	private async voucher(merchant: Merchant, request: Record<string, unknown>): Promise<Outcome> {
		const orderNos = [...new Set(request.orderNos as string[])];
		const orders: Order[] = [];
		for (const orderNo of orderNos) {
			const order = this.book.orders.get(orderNo);
			if (!order || order.appId !== merchant.appId) {
				return fail(ERROR_CODES.voucherNotAvailable, `orderNos: ${orderNo} is not an order of appId ${merchant.appId}`);
			}
			if (order.kind !== 'payout') return fail(ERROR_CODES.voucherNotAvailable, `orderNos: ${orderNo} is not a payout order`);
			if (!isFinal(order)) {
				return fail(
					ERROR_CODES.voucherNotAvailable,
					`orderNos: ${orderNo} is not final (status ${order.status}); vouchers exist for success (2) and failed (3) payouts`,
				);
			}
			orders.push(order);
		}
		const options: VoucherOptions = {
			getFee: (request.getFee as number | undefined) ?? 0,
			isAmount: (request.isAmount as number | undefined) ?? 0,
			getSubject: (request.getSubject as number | undefined) ?? 0,
			lang: (request.lang as 'zh' | 'en' | undefined) ?? 'zh',
		};
		const pdfs: Array<{ name: string; bytes: Uint8Array }> = [];
		for (const order of orders) {
			const when = order.payTime || this.time(Date.parse(order.updatedAt));
			pdfs.push({ name: `${order.orderNo}.pdf`, bytes: await voucherPdf(order, options, when) });
		}
		const file =
			pdfs.length === 1
				? { contentType: 'application/pdf', filename: pdfs[0].name, bytes: Buffer.from(pdfs[0].bytes) }
				: { contentType: 'application/zip', filename: `vouchers-${merchant.appId}.zip`, bytes: await voucherZip(pdfs) };
		if (this.config.voucherResponse === 'base64') return { type: 'bare', data: file.bytes.toString('base64') };
		if (this.config.voucherResponse === 'url') {
			const id = randomBytes(8).toString('hex');
			this.files.set(id, { contentType: file.contentType, name: file.filename, bytes: file.bytes });
			// Voucher files are kept for download, not for ever.
			if (this.files.size > 50) this.files.delete(this.files.keys().next().value as string);
			return { type: 'bare', data: `${this.baseUrl}/__sandbox/files/${id}/${file.filename}` };
		}
		return { type: 'file', ...file };
	}

	file(id: string): { contentType: string; name: string; bytes: Buffer } | undefined {
		return this.files.get(id);
	}

	// ---- the life of an order -------------------------------------------------------------------------------

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
		const existing = this.timers.get(order.orderNo);
		if (existing) {
			clearTimeout(existing);
			this.timers.delete(order.orderNo);
		}
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
		const timer = setTimeout(() => {
			this.timers.delete(order.orderNo);
			if (order.next !== next || isFinal(order)) return;
			this.advance(order, next.status);
			this.arm(order);
		}, Math.max(0, next.at - Date.now()));
		this.timers.set(order.orderNo, timer);
	}

	/** Moves an order, issues the MIT token on a first successful card payment, and calls back when final. */
	advance(order: Order, status: number, options: { errorMsg?: string; paidAmount?: string } = {}): void {
		const timer = this.timers.get(order.orderNo);
		if (timer) {
			clearTimeout(timer);
			this.timers.delete(order.orderNo);
		}
		delete order.next;
		this.book.move(order, status, options);
		if (order.mit && !order.mit.viaToken && !order.mit.tokenID && (status === 2 || status === 4 || status === 5)) {
			order.mit.tokenID = this.book.issueToken(order).tokenID;
		}
		if (isFinal(order) && order.notifyUrl) this.sendCallback(order);
		this.orderChanged(order);
	}

	private orderChanged(order: Order): void {
		this.changed();
		this.events.emit('order', order);
	}

	callbackBody(order: Order): Record<string, unknown> {
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
		if (merchant) body.sign = this.signData(body, merchant);
		return body;
	}

	sendCallback(order: Order, url = order.notifyUrl): CallbackJob {
		if (!url) throw new GatewayError(ERROR_CODES.badRequest, `order ${order.orderNo} has no notifyUrl`);
		if (!isFinal(order)) throw new GatewayError(ERROR_CODES.badTransition, `order ${order.orderNo} is not final yet`);
		return this.callbacks.enqueue(url, this.callbackBody(order));
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

	seed(input: SeedOrder): Order {
		const merchant = this.config.merchants.get(input.appId);
		if (!merchant) throw new GatewayError(ERROR_CODES.unknownAppId, `appId ${input.appId} is not configured`);
		const kind = input.kind ?? 'payout';
		if (!/^\d+(\.\d{1,4})?$/.test(input.amount)) throw new GatewayError(ERROR_CODES.validation, 'amount must be a decimal string');
		const order = this.book.create({
			merchant,
			kind,
			orderId: input.orderId ?? `SEED-${randomBytes(6).toString('hex')}`,
			amount: input.amount,
			status: kind === 'payout' ? 1 : 0,
			plan: 'hold',
			holdFunds: input.holdFunds,
			fields: pick(input as unknown as Record<string, unknown>, ['notifyUrl', 'subject', 'name', 'accountNo', 'bankCode']),
		});
		if (input.status !== undefined && input.status !== order.status) this.advance(order, input.status, { errorMsg: input.errorMsg });
		else this.orderChanged(order);
		return order;
	}

	setBalance(appId: number, available: string): void {
		if (!this.config.merchants.has(appId)) throw new GatewayError(ERROR_CODES.unknownAppId, `appId ${appId} is not configured`);
		this.book.balance(appId).available = parseMoney(available);
		this.changed();
	}

	reset(): void {
		for (const timer of this.timers.values()) clearTimeout(timer);
		this.timers.clear();
		this.book.clear();
		this.callbacks.clear();
		this.faults.clear();
		this.requestLog.length = 0;
		this.applies.clear();
		this.files.clear();
		this.changed();
	}
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, string> {
	const out: Record<string, string> = {};
	for (const key of keys) {
		const value = source[key];
		if (typeof value === 'string' && value !== '') out[key] = value;
	}
	return out;
}

