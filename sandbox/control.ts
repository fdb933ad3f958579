import type { IncomingMessage, ServerResponse } from 'http';

import type { CallbackAttempt, CallbackJob } from './callbacks';
import { cashierAct } from './cashier';
import type { ActiveFault, FaultRule } from './faults';
import { GatewayError, type Order } from './orders';
import type { Gateway } from './gateway';
import { readBody, sendJson } from './http-util';
import type { SeedOrder, VoucherResponse } from './types';

export const CALLBACK_ATTACKS = ['replay', 'resplit', 'regressed', 'respelled', 'oversized'] as const;
export type CallbackAttack = (typeof CALLBACK_ATTACKS)[number];

/** Byte order of names, as the signed string sorts them (plain ASCII names here). */
function byteOrder(a: string, b: string): number {
	return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

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

export class ControlError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
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
	attackCallback(
		ref: OrderRef,
		attack: CallbackAttack,
		options: { url?: string; fold?: string; status?: number; fields?: number } = {},
	): CallbackJob {
		const order = this.mustFind(ref);
		const url = options.url ?? order.notifyUrl;
		if (!url) throw new ControlError(400, `order ${order.orderNo} has no notifyUrl; pass url`);
		const merchant = this.gateway.config.merchants.get(order.appId);
		if (!merchant) throw new ControlError(404, `appId ${order.appId} is not configured`);
		let body: Record<string, unknown>;
		let payload: string | undefined;
		switch (attack) {
			case 'replay': {
				const first = this.gateway.callbacks.attempts().find((attempt) => attempt.orderNo === order.orderNo && attempt.attempt === 1);
				body = first?.body ?? this.gateway.callbackBody(order);
				break;
			}
			case 'resplit': {
				const genuine = this.gateway.callbackBody(order);
				const fold = options.fold ?? 'orderNo';
				const signed = Object.keys(genuine)
					.filter((key) => key !== 'sign' && genuine[key] !== '' && genuine[key] !== null && genuine[key] !== undefined)
					.sort(byteOrder);
				const at = signed.indexOf(fold);
				if (at < 1) throw new ControlError(400, `${fold} is not a signed field of this callback with one before it`);
				const into = signed[at - 1];
				body = { ...genuine, [into]: `${String(genuine[into])}&${fold}=${String(genuine[fold])}` };
				delete body[fold];
				break;
			}
			case 'regressed': {
				const status = options.status ?? 1;
				if (!Number.isInteger(status) || [2, 3, 4, 5].includes(status)) throw new ControlError(400, 'status must be a non-final integer');
				const earlier: Record<string, unknown> = { ...this.gateway.callbackBody(order), status };
				delete earlier.sign;
				delete earlier.payTime;
				delete earlier.errorMsg;
				delete earlier.tokenID;
				earlier.sign = this.gateway.signData(earlier, merchant);
				body = earlier;
				break;
			}
			case 'respelled': {
				body = this.gateway.callbackBody(order);
				payload = JSON.stringify(body).replace('"sign":', '"\\u0073ign":');
				break;
			}
			case 'oversized': {
				const fields = options.fields ?? 300_000;
				if (!Number.isInteger(fields) || fields < 1 || fields > 2_000_000) throw new ControlError(400, 'fields must be an integer from 1 to 2,000,000');
				const parts = [`"appId":${order.appId}`, `"orderNo":${JSON.stringify(order.orderNo)}`, '"status":2'];
				for (let index = 0; index < fields; index++) parts.push(`"k${index}":"v"`);
				parts.push('"sign":"forged"');
				payload = `{${parts.join(',')}}`;
				body = { appId: order.appId, orderNo: order.orderNo, status: 2, fields, bytes: payload.length };
				break;
			}
			default:
				throw new ControlError(400, `attack must be one of ${CALLBACK_ATTACKS.join(', ')}`);
		}
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
			if (!['binary', 'base64', 'url'].includes(patch.voucherResponse)) throw new ControlError(400, 'voucherResponse must be binary, base64 or url');
			c.voucherResponse = patch.voucherResponse;
		}
		const nonNegative = (name: string, value: unknown): number => {
			if (!Number.isInteger(value) || (value as number) < 0) throw new ControlError(400, `${name} must be a non-negative integer`);
			return value as number;
		};
		if (patch.latencyMs !== undefined) this.runtime.latencyMs = nonNegative('latencyMs', patch.latencyMs);
		if (patch.processingMs !== undefined) c.processingMs = nonNegative('processingMs', patch.processingMs);
		if (patch.finalMs !== undefined) c.finalMs = nonNegative('finalMs', patch.finalMs);
		if (patch.callbackSchedule !== undefined) {
			if (!Array.isArray(patch.callbackSchedule)) throw new ControlError(400, 'callbackSchedule must be an array of ms');
			this.gateway.callbacks.schedule = patch.callbackSchedule.map((ms) => nonNegative('callbackSchedule[]', ms));
		}
		if (patch.manual !== undefined) {
			c.manual = patch.manual === true;
			for (const order of this.gateway.book.orders.values()) this.gateway.clock.arm(order);
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

function orderRefOf(body: Record<string, unknown>): OrderRef {
	const appId = typeof body.appId === 'number' ? body.appId : undefined;
	if (typeof body.orderNo === 'string') return { orderNo: body.orderNo, appId };
	if (typeof body.orderId === 'string') return { orderId: body.orderId, appId };
	throw new ControlError(400, 'orderNo or orderId is required');
}

function numberParam(url: URL, name: string): number | undefined {
	const value = url.searchParams.get(name);
	return value === null || value === '' ? undefined : Number(value);
}

/** `/__sandbox/...`: the control API over HTTP, for a separate process (a real n8n, the benchmark, curl). */
export async function handleControl(
	gateway: Gateway,
	control: SandboxControl,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	const path = url.pathname.replace(/^\/__sandbox/, '') || '/';
	const method = req.method ?? 'GET';
	try {
		const text = await readBody(req);
		let body: Record<string, unknown> = {};
		if (text.trim() !== '') {
			try {
				body = JSON.parse(text) as Record<string, unknown>;
			} catch {
				throw new ControlError(400, 'body must be JSON');
			}
		}
		const route = `${method} ${path}`;
		const file = /^\/files\/([a-f0-9]+)\/[^/]+$/.exec(path);
		if (method === 'GET' && file) {
			const stored = gateway.file(file[1]);
			if (!stored) throw new ControlError(404, 'no such file');
			res.writeHead(200, {
				'Content-Type': stored.contentType,
				'Content-Length': stored.bytes.length,
				'Content-Disposition': `attachment; filename="${stored.name}"`,
			});
			res.end(stored.bytes);
			return;
		}
		const orderPath = /^\/orders\/([^/]+)$/.exec(path);
		if (method === 'GET' && orderPath) {
			const ref = decodeURIComponent(orderPath[1]);
			const appId = numberParam(url, 'appId');
			const order =
				appId === undefined ? control.order(ref) : (control.order({ orderNo: ref, appId }) ?? control.order({ orderId: ref, appId }));
			if (!order) throw new ControlError(404, `no order ${ref}`);
			sendJson(res, 200, order);
			return;
		}
		const cashier = /^\/cashier\/([^/]+)\/(pay|fail)$/.exec(path);
		if (method === 'POST' && cashier) {
			sendJson(res, 200, control.payCashier(decodeURIComponent(cashier[1]), cashier[2] as 'pay' | 'fail'));
			return;
		}
		switch (route) {
			case 'GET /':
			case 'GET /health':
				sendJson(res, 200, { ok: true, baseUrl: gateway.baseUrl, environment: gateway.config.environment, orders: gateway.book.orders.size });
				return;
			case 'GET /merchants':
				sendJson(
					res,
					200,
					[...gateway.config.merchants.values()].map((m) => ({
						appId: m.appId,
						currency: m.currency,
						environment: m.environment,
						arrayStyle: m.arrayStyle,
						label: m.label,
						...gateway.book.ledger(m.appId),
					})),
				);
				return;
			case 'GET /orders':
				sendJson(
					res,
					200,
					control.orders({ appId: numberParam(url, 'appId'), status: numberParam(url, 'status'), kind: url.searchParams.get('kind') ?? undefined }),
				);
				return;
			case 'POST /orders':
				sendJson(res, 200, control.createOrder(body as unknown as SeedOrder));
				return;
			case 'POST /settle':
				sendJson(res, 200, control.settle(orderRefOf(body), body.outcome as 'success' | 'failed', { errorMsg: body.errorMsg as string | undefined }));
				return;
			case 'POST /status':
				if (!Number.isInteger(body.status)) throw new ControlError(400, 'status must be an integer');
				sendJson(
					res,
					200,
					control.setStatus(orderRefOf(body), body.status as number, {
						errorMsg: body.errorMsg as string | undefined,
						paidAmount: body.paidAmount as string | undefined,
					}),
				);
				return;
			case 'POST /advance':
				sendJson(res, 200, { moved: control.advanceAll() });
				return;
			case 'GET /faults':
				sendJson(res, 200, control.faults());
				return;
			case 'POST /faults':
				sendJson(res, 200, Array.isArray(body) ? (body as FaultRule[]).map((rule) => control.addFault(rule)) : control.addFault(body as unknown as FaultRule));
				return;
			case 'PUT /faults':
				sendJson(res, 200, control.setFaults(Array.isArray(body) ? (body as FaultRule[]) : [body as unknown as FaultRule]));
				return;
			case 'DELETE /faults':
				control.clearFaults();
				sendJson(res, 200, []);
				return;
			case 'GET /requests': {
				const limit = numberParam(url, 'limit') ?? 100;
				sendJson(res, 200, gateway.traffic.requests().slice(-limit));
				return;
			}
			case 'GET /stats':
				sendJson(res, 200, {
					requests: gateway.traffic.requests().length,
					appliesReceived: gateway.traffic.appliesReceived(),
					appliesByAppId: gateway.traffic.appliesByAppId(),
					orders: gateway.book.orders.size,
					callbacksPending: gateway.callbacks.pending().length,
					inFlight: gateway.traffic.inFlight().now,
					maxInFlight: gateway.traffic.inFlight().max,
				});
				return;
			case 'POST /stats/reset-peak':
				sendJson(res, 200, { maxInFlight: gateway.traffic.resetInFlightPeak(), inFlight: gateway.traffic.inFlight().now });
				return;
			case 'GET /callbacks':
				sendJson(res, 200, { attempts: control.callbacks(), jobs: control.callbackJobs() });
				return;
			case 'POST /callbacks/flush':
				await control.flushCallbacks();
				sendJson(res, 200, { attempts: control.callbacks().length });
				return;
			case 'POST /callbacks/resend':
				sendJson(res, 200, control.resendCallback(orderRefOf(body), body.url as string | undefined));
				return;
			case 'POST /callbacks/attack':
			{
				const job = control.attackCallback(orderRefOf(body), body.attack as CallbackAttack, {
					url: body.url as string | undefined,
					fold: body.fold as string | undefined,
					status: body.status as number | undefined,
					fields: body.fields as number | undefined,
				});
				// The payload of an oversized attack is megabytes: answer with what identifies the job.
				sendJson(res, 200, { ...job, payload: job.payload === undefined ? undefined : `${job.payload.length} characters` });
				return;
			}
			case 'GET /balances':
				sendJson(
					res,
					200,
					[...gateway.config.merchants.keys()].map((appId) => ({ appId, ...gateway.book.ledger(appId) })),
				);
				return;
			case 'POST /balance':
				if (!Number.isInteger(body.appId) || typeof body.availableBal !== 'string') {
					throw new ControlError(400, 'appId (integer) and availableBal (decimal string) are required');
				}
				control.setBalance(body.appId as number, body.availableBal);
				sendJson(res, 200, control.ledger(body.appId as number));
				return;
			case 'GET /config':
				sendJson(res, 200, control.config());
				return;
			case 'POST /config':
				sendJson(res, 200, control.setConfig(body as Partial<RuntimeConfig>));
				return;
			case 'POST /reset':
				control.reset();
				sendJson(res, 200, { ok: true });
				return;
			default:
				throw new ControlError(404, `unknown control endpoint ${route}`);
		}
	} catch (error) {
		const status = error instanceof ControlError ? error.status : 500;
		sendJson(res, status, { error: (error as Error).message });
	}
}
