import type { KeyObject } from 'crypto';
import type { EventEmitter } from 'events';

import { HAIPAY_CALLBACK_SCHEDULE, type CallbackAttempt } from './callbacks';
import { SandboxControl } from './control';
import { Gateway } from './gateway';
import type { Subscription } from './subscriptions';
import { testKey } from './keys';
import { defaultMerchants, resolveMerchants, type MerchantConfig } from './merchants';
import type { Order } from './orders';
import type { Refund } from './refunds';
import { SandboxServer } from './server';
import { loadPrivateKey, publicPem } from './signing';
import { warmUp } from './schemas';
import type { GatewayConfig, RequestLogEntry, VoucherResponse } from './types';

export type { CallbackAttempt, CallbackJob } from './callbacks';
export { ERROR_CODES, KNOWN_CURRENCIES, SUCCESS_CODE } from './constants';
export type { OrderRef, RuntimeConfig } from './control';
export { SandboxControl } from './control';
export { ControlError } from './control-error';
export type { ActiveFault, FaultRule, FaultType } from './faults';
export { MAGIC_NAMES, UNKNOWN_BANK_CODE } from './faults';
export { DEFAULT_APP_IDS, defaultSecret } from './merchants';
export type { MerchantConfig } from './merchants';
export type { Order, OrderKind } from './orders';
export type { Refund, RefundStatus } from './refunds';
export { canonicalString, signBody, verifyBody } from './signing';
export type { GatewayConfig, Outcome, RequestLogEntry, SeedOrder, VoucherResponse } from './types';

export interface SandboxOptions {
	/** Default 0: a free port. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Replaces the default merchants (appIds 1001-1012, one per currency). */
	merchants?: MerchantConfig[];
	/** The public key of the default merchants. Default sandbox/keys/merchant-test-only.public.pem. */
	merchantPublicKey?: string | KeyObject;
	/** Signs answers and callbacks. Default sandbox/keys/platform-test-only.pkcs8.pem. */
	platformPrivateKey?: string | KeyObject;
	/** Delays (ms) between callback attempts; its length is the number of retries. Default HaiPay's: 5 x 5 min. */
	callbackSchedule?: number[];
	/** How long a callback receiver may take to answer. Default 10000 ms. */
	callbackTimeoutMs?: number;
	/** Callback attempts on the wire at once; the rest wait their turn (their time-out starts when sent). Default 0: no limit. */
	callbackConcurrency?: number;
	/** processingMs: status 0 -> 1 (0: orders start at 1). finalMs: 1 -> 2/3. Defaults 0 and 1000. */
	transitionDelays?: { processingMs?: number; finalMs?: number };
	/** Orders move only through the control API (settle, setStatus, advanceAll). Default false. */
	manual?: boolean;
	/** Persist orders, balances, tokens and pending callbacks to this JSON file, and load it at start. */
	stateFile?: string;
	/** How long state changes gather before one write. Default 200 ms. */
	persistDebounceMs?: number;
	/** Added before every gateway answer. Default 0. */
	latencyMs?: number;
	/** How a voucher is answered: the file itself (default), a JSON envelope with base64, or with a download URL. */
	voucherResponse?: VoucherResponse;
	/** Which environment's merchants this gateway knows. Default sandbox. */
	environment?: 'sandbox' | 'production';
	/** Offset from UTC of the times the gateway prints (payTime). Default 480 (UTC+8). */
	timeOffsetMinutes?: number;
	/** How long a timed-out request's connection is held before it is closed. Default 120000 ms. */
	hangMs?: number;
	/** Request log entries kept in memory. Default 1000. */
	requestLogLimit?: number;
}

export interface MerchantInfo {
	appId: number;
	currency: string;
	secretKey: string;
	environment: 'sandbox' | 'production';
	arrayStyle: 'json' | 'list';
	label: string;
}

export interface Sandbox {
	/** `http://127.0.0.1:PORT`, no trailing slash. */
	baseUrl: string;
	port: number;
	host: string;
	/** The platform public key (PEM): the "HaiPay public key" a merchant verifies answers and callbacks with. */
	platformPublicKey: string;
	merchants: MerchantInfo[];
	control: SandboxControl;
	/** Every order, oldest first (live objects: read them, steer them through `control`). */
	readonly orders: Order[];
	/** Every card refund, oldest first (live objects: steer them through `control`). */
	readonly refunds: Refund[];
	/** Every subscription, oldest first (live objects); `chargeSubscription` posts a recurring charge's callback. */
	readonly subscriptions: Subscription[];
	chargeSubscription(subscriptionNo: string, status?: 2 | 3, url?: string): void;
	/**
	 * The most recent gateway requests (control and cashier requests are not logged), each logged as its answer goes
	 * out: an apply's order exists a few milliseconds earlier, so wait for the entry, not the order.
	 */
	readonly requests: RequestLogEntry[];
	/** Every callback attempt so far. */
	readonly callbacks: CallbackAttempt[];
	/** Applies (`/{ccy}/pay/apply`, `/usd/mit/apply`, `/{ccy}/collect/apply`, `/usd/refund/apply`) received, for one appId or in all, faults included. */
	appliesReceived(appId?: number): number;
	/** Emits `request` (RequestLogEntry), `order` (Order, on every change) and `callback` (CallbackAttempt). */
	events: EventEmitter;
	/** Resolves with the first callback attempt, past or future, that matches. */
	waitForCallback(match: (attempt: CallbackAttempt) => boolean, timeoutMs?: number): Promise<CallbackAttempt>;
	/** Resolves when an order matching `match` exists (checked now and on every change). */
	waitForOrder(match: (order: Order) => boolean, timeoutMs?: number): Promise<Order>;
	/** Writes the state file now (when persisting). */
	saveState(): Promise<void>;
	close(): Promise<void>;
}

function waitFor<T>(
	events: EventEmitter,
	event: string,
	existing: () => T[],
	match: (value: T) => boolean,
	timeoutMs: number,
	what: string,
): Promise<T> {
	const found = existing().find(match);
	if (found) return Promise.resolve(found);
	return new Promise((resolve, reject) => {
		const listener = (value: T) => {
			if (!match(value)) return;
			clearTimeout(timer);
			events.off(event, listener);
			resolve(value);
		};
		const timer = setTimeout(() => {
			events.off(event, listener);
			reject(new Error(`no ${what} matched within ${timeoutMs} ms`));
		}, timeoutMs);
		events.on(event, listener);
	});
}

function gatewayConfig(options: SandboxOptions): GatewayConfig {
	const merchantPublicKey = () => options.merchantPublicKey ?? testKey('merchant-test-only.public.pem');
	const merchantConfigs = options.merchants ?? defaultMerchants(merchantPublicKey);
	return {
		merchants: resolveMerchants(merchantConfigs, merchantPublicKey),
		platformKey: loadPrivateKey(options.platformPrivateKey ?? testKey('platform-test-only.pkcs8.pem')),
		environment: options.environment ?? 'sandbox',
		callbackSchedule: options.callbackSchedule ?? HAIPAY_CALLBACK_SCHEDULE,
		callbackTimeoutMs: options.callbackTimeoutMs ?? 10_000,
		callbackConcurrency: options.callbackConcurrency ?? 0,
		processingMs: options.transitionDelays?.processingMs ?? 0,
		finalMs: options.transitionDelays?.finalMs ?? 1_000,
		manual: options.manual ?? false,
		voucherResponse: options.voucherResponse ?? 'binary',
		timeOffsetMinutes: options.timeOffsetMinutes ?? 480,
		requestLogLimit: options.requestLogLimit ?? 1_000,
		stateFile: options.stateFile,
		persistDebounceMs: options.persistDebounceMs ?? 200,
	};
}

function sandboxOf(
	gateway: Gateway,
	control: SandboxControl,
	server: SandboxServer,
	host: string,
	port: number,
): Sandbox {
	let closed: Promise<void> | undefined;
	return {
		baseUrl: gateway.baseUrl,
		port,
		host,
		platformPublicKey: publicPem(gateway.config.platformKey),
		merchants: [...gateway.config.merchants.values()].map((m) => ({
			appId: m.appId,
			currency: m.currency,
			secretKey: m.secretKey,
			environment: m.environment,
			arrayStyle: m.arrayStyle,
			label: m.label,
		})),
		control,
		get orders() {
			return [...gateway.book.orders.values()];
		},
		get refunds() {
			return [...gateway.refunds.refunds.values()];
		},
		get subscriptions() {
			return [...gateway.subscriptions.subscriptions.values()];
		},
		chargeSubscription(subscriptionNo: string, status: 2 | 3 = 2, url?: string) {
			control.chargeSubscription(subscriptionNo, status, url);
		},
		get requests() {
			return gateway.traffic.requests();
		},
		get callbacks() {
			return gateway.callbacks.attempts();
		},
		appliesReceived: (appId?: number) => gateway.traffic.appliesReceived(appId),
		events: gateway.events,
		waitForCallback: (match, timeoutMs = 10_000) =>
			waitFor(gateway.events, 'callback', () => gateway.callbacks.attempts(), match, timeoutMs, 'callback attempt'),
		waitForOrder: (match, timeoutMs = 10_000) =>
			waitFor(gateway.events, 'order', () => [...gateway.book.orders.values()], match, timeoutMs, 'order'),
		saveState: () => gateway.saveNow(),
		close: () => {
			closed ??= server.close().then(() => gateway.close());
			return closed;
		},
	};
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const config = gatewayConfig(options);
	warmUp();
	const gateway = new Gateway(config);
	const runtime = { latencyMs: options.latencyMs ?? 0, hangMs: options.hangMs ?? 120_000 };
	const control = new SandboxControl(gateway, runtime);
	const server = new SandboxServer(gateway, control, runtime);
	let port: number;
	try {
		port = await server.listen(options.port ?? 0, host);
	} catch (error) {
		await gateway.close();
		throw error;
	}
	const urlHost = host.includes(':') ? `[${host}]` : host;
	gateway.baseUrl = `http://${urlHost}:${port}`;
	return sandboxOf(gateway, control, server, host, port);
}
