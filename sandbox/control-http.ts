import type { IncomingMessage, ServerResponse } from 'http';

import type { CallbackAttack } from './attacks';
import type { RuntimeConfig, OrderRef, SandboxControl } from './control';
import { ControlError } from './control-error';
import type { FaultRule } from './faults';
import type { Gateway, StoredFile } from './gateway';
import { readBody, sendFile, sendJson } from './http-util';
import type { SeedOrder } from './types';

/** One control request, parsed: its JSON body ({} when empty) and what its path's pattern captured. */
interface ControlRequest {
	gateway: Gateway;
	control: SandboxControl;
	body: Record<string, unknown>;
	url: URL;
	params: string[];
}

/** What a route answers: JSON (status 200), or a stored file. */
type ControlHandler = (request: ControlRequest) => unknown;

class FileReply {
	constructor(readonly file: StoredFile) {}
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

function storedFile({ gateway, params }: ControlRequest): FileReply {
	const stored = gateway.file(params[0]);
	if (!stored) throw new ControlError(404, 'no such file');
	return new FileReply(stored);
}

function oneOrder({ control, url, params }: ControlRequest): unknown {
	const ref = decodeURIComponent(params[0]);
	const appId = numberParam(url, 'appId');
	const order =
		appId === undefined
			? control.order(ref)
			: (control.order({ orderNo: ref, appId }) ?? control.order({ orderId: ref, appId }));
	if (!order) throw new ControlError(404, `no order ${ref}`);
	return order;
}

function health({ gateway }: ControlRequest): unknown {
	return {
		ok: true,
		baseUrl: gateway.baseUrl,
		environment: gateway.config.environment,
		orders: gateway.book.orders.size,
	};
}

function merchants({ gateway }: ControlRequest): unknown {
	return [...gateway.config.merchants.values()].map((m) => ({
		appId: m.appId,
		currency: m.currency,
		environment: m.environment,
		arrayStyle: m.arrayStyle,
		label: m.label,
		...gateway.book.ledger(m.appId),
	}));
}

function setStatus({ control, body }: ControlRequest): unknown {
	if (!Number.isInteger(body.status)) throw new ControlError(400, 'status must be an integer');
	return control.setStatus(orderRefOf(body), body.status as number, {
		errorMsg: body.errorMsg as string | undefined,
		paidAmount: body.paidAmount as string | undefined,
	});
}

function stats({ gateway }: ControlRequest): unknown {
	return {
		requests: gateway.traffic.requests().length,
		appliesReceived: gateway.traffic.appliesReceived(),
		appliesByAppId: gateway.traffic.appliesByAppId(),
		orders: gateway.book.orders.size,
		callbacksPending: gateway.callbacks.pending().length,
		inFlight: gateway.traffic.inFlight().now,
		maxInFlight: gateway.traffic.inFlight().max,
	};
}

function attackCallback({ control, body }: ControlRequest): unknown {
	const job = control.attackCallback(orderRefOf(body), body.attack as CallbackAttack, {
		url: body.url as string | undefined,
		fold: body.fold as string | undefined,
		status: body.status as number | undefined,
		fields: body.fields as number | undefined,
	});
	// The payload of an oversized attack is megabytes: answer with what identifies the job.
	return { ...job, payload: job.payload === undefined ? undefined : `${job.payload.length} characters` };
}

function setBalance({ control, body }: ControlRequest): unknown {
	if (!Number.isInteger(body.appId) || typeof body.availableBal !== 'string') {
		throw new ControlError(400, 'appId (integer) and availableBal (decimal string) are required');
	}
	control.setBalance(body.appId as number, body.availableBal);
	return control.ledger(body.appId as number);
}

function listOrders({ control, url }: ControlRequest): unknown {
	return control.orders({
		appId: numberParam(url, 'appId'),
		status: numberParam(url, 'status'),
		kind: url.searchParams.get('kind') ?? undefined,
	});
}

function settle({ control, body }: ControlRequest): unknown {
	return control.settle(orderRefOf(body), body.outcome as 'success' | 'failed', {
		errorMsg: body.errorMsg as string | undefined,
	});
}

function settleRefund({ control, body }: ControlRequest): unknown {
	const ref =
		typeof body.refundNo === 'string' ? body.refundNo : typeof body.orderId === 'string' ? body.orderId : undefined;
	if (ref === undefined) throw new ControlError(400, 'refundNo or orderId (the refund number) is required');
	return control.settleRefund(ref, body.outcome as 'success' | 'failed', {
		errorMsg: body.errorMsg as string | undefined,
	});
}

function chargeSubscription({ control, body }: ControlRequest): unknown {
	if (typeof body.subscriptionNo !== 'string') throw new ControlError(400, 'subscriptionNo is required');
	const job = control.chargeSubscription(
		body.subscriptionNo,
		(body.status ?? 2) as 2 | 3,
		body.url as string | undefined,
	);
	return { url: job.url, body: job.body };
}

function payCashier({ control, params }: ControlRequest): unknown {
	return control.payCashier(decodeURIComponent(params[0]), params[1] as 'pay' | 'fail');
}

/** One rule, or an array of rules, added to those in force. */
function addFaults({ control, body }: ControlRequest): unknown {
	return Array.isArray(body)
		? (body as FaultRule[]).map((rule) => control.addFault(rule))
		: control.addFault(body as unknown as FaultRule);
}

function clearFaults({ control }: ControlRequest): unknown {
	control.clearFaults();
	return [];
}

async function flushCallbacks({ control }: ControlRequest): Promise<unknown> {
	await control.flushCallbacks();
	return { attempts: control.callbacks().length };
}

function reset({ control }: ControlRequest): unknown {
	control.reset();
	return { ok: true };
}

/** Routes whose path has a part that varies; they are tried before the fixed ones. */
const PATTERN_ROUTES: Array<[method: string, pattern: RegExp, handle: ControlHandler]> = [
	['GET', /^\/files\/([a-f0-9]+)\/[^/]+$/, storedFile],
	['GET', /^\/orders\/([^/]+)$/, oneOrder],
	['POST', /^\/cashier\/([^/]+)\/(pay|fail)$/, payCashier],
];

const ROUTES = new Map<string, ControlHandler>([
	['GET /', health],
	['GET /health', health],
	['GET /merchants', merchants],
	['GET /orders', listOrders],
	['POST /orders', ({ control, body }) => control.createOrder(body as unknown as SeedOrder)],
	['POST /settle', settle],
	['POST /status', setStatus],
	['POST /advance', ({ control }) => ({ moved: control.advanceAll() })],
	[
		'GET /refunds',
		({ control, url }) =>
			control.refunds({ appId: numberParam(url, 'appId'), orderNo: url.searchParams.get('orderNo') ?? undefined }),
	],
	['POST /refunds/settle', settleRefund],
	['GET /subscriptions', ({ control, url }) => control.subscriptions({ appId: numberParam(url, 'appId') })],
	['POST /subscriptions/charge', chargeSubscription],
	['GET /faults', ({ control }) => control.faults()],
	['POST /faults', addFaults],
	[
		'PUT /faults',
		({ control, body }) =>
			control.setFaults(Array.isArray(body) ? (body as FaultRule[]) : [body as unknown as FaultRule]),
	],
	['DELETE /faults', clearFaults],
	['GET /requests', ({ gateway, url }) => gateway.traffic.requests().slice(-(numberParam(url, 'limit') ?? 100))],
	['GET /stats', stats],
	[
		'POST /stats/reset-peak',
		({ gateway }) => ({ maxInFlight: gateway.traffic.resetInFlightPeak(), inFlight: gateway.traffic.inFlight().now }),
	],
	['GET /callbacks', ({ control }) => ({ attempts: control.callbacks(), jobs: control.callbackJobs() })],
	['POST /callbacks/flush', flushCallbacks],
	[
		'POST /callbacks/resend',
		({ control, body }) => control.resendCallback(orderRefOf(body), body.url as string | undefined),
	],
	['POST /callbacks/attack', attackCallback],
	['PUT /callbacks/added-fields', ({ control, body }) => control.setAddedCallbackFields(body)],
	[
		'GET /balances',
		({ gateway }) => [...gateway.config.merchants.keys()].map((appId) => ({ appId, ...gateway.book.ledger(appId) })),
	],
	['POST /balance', setBalance],
	['GET /config', ({ control }) => control.config()],
	['POST /config', ({ control, body }) => control.setConfig(body as Partial<RuntimeConfig>)],
	['POST /reset', reset],
]);

function routeOf(method: string, path: string): { handle: ControlHandler; params: string[] } | undefined {
	for (const [routeMethod, pattern, handle] of PATTERN_ROUTES) {
		const match = routeMethod === method ? pattern.exec(path) : null;
		if (match) return { handle, params: match.slice(1) };
	}
	const handle = ROUTES.get(`${method} ${path}`);
	return handle && { handle, params: [] };
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
	const text = await readBody(req);
	if (text.trim() === '') return {};
	try {
		return JSON.parse(text) as Record<string, unknown>;
	} catch {
		throw new ControlError(400, 'body must be JSON');
	}
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
		const body = await jsonBody(req);
		const route = routeOf(method, path);
		if (!route) throw new ControlError(404, `unknown control endpoint ${method} ${path}`);
		const answer = await route.handle({ gateway, control, body, url, params: route.params });
		if (answer instanceof FileReply) sendFile(res, answer.file.contentType, answer.file.name, answer.file.bytes);
		else sendJson(res, 200, answer);
	} catch (error) {
		const status = error instanceof ControlError ? error.status : 500;
		sendJson(res, status, { error: (error as Error).message });
	}
}
