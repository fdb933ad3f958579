import http, { type IncomingMessage, type ServerResponse } from 'http';
import type { Socket } from 'net';

import { handleCashier } from './cashier';
import { ERROR_CODES, SUCCESS_CODE } from './constants';
import type { SandboxControl } from './control';
import { handleControl } from './control-http';
import type { ActiveFault, FaultType } from './faults';
import type { Gateway } from './gateway';
import { BodyTooLarge, delay, readBody, sendFile, sendJson } from './http-util';
import type { Outcome, RequestLogEntry } from './types';

export const CONTROL_PREFIX = '/__sandbox';

const BAD_GATEWAY_PAGE = (status: number) =>
	`<html>\r\n<head><title>${status} Bad Gateway</title></head>\r\n<body>\r\n<center><h1>${status} Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

/** Faults that spoil an answer the gateway made rather than lose it. */
const SPOILERS = new Set<FaultType>(['badSignature', 'replaceData', 'echo']);

type Log = (entry: Pick<RequestLogEntry, 'outcome' | 'error' | 'msg'>) => void;

function sendEnvelope(res: ServerResponse, data: unknown): void {
	sendJson(res, 200, { status: '1', error: SUCCESS_CODE, msg: 'success', data });
}

/** The body as JSON; `parseError` says why there is none (too large, or not JSON). */
async function readJson(req: IncomingMessage): Promise<{ body: unknown; parseError?: string }> {
	try {
		return { body: JSON.parse(await readBody(req)) };
	} catch (error) {
		return {
			body: undefined,
			parseError: error instanceof BodyTooLarge ? error.message : 'request body must be valid JSON',
		};
	}
}

export interface ServerRuntime {
	latencyMs: number;
	hangMs: number;
}

/** The HTTP face of the gateway: routing, envelopes, and the faults that lose or spoil an answer. */
export class SandboxServer {
	readonly server: http.Server;
	private readonly held = new Set<Socket>();

	constructor(
		private readonly gateway: Gateway,
		private readonly control: SandboxControl,
		private readonly runtime: ServerRuntime,
	) {
		this.server = http.createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
			this.route(req, res).catch((error: Error) => {
				if (!res.headersSent && !res.destroyed) sendJson(res, 500, { error: error.message });
			});
		});
	}

	private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://sandbox.local');
		if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
			await handleControl(this.gateway, this.control, req, res, url);
			return;
		}
		if (url.pathname.startsWith('/cashier/')) {
			await handleCashier(this.gateway, req, res, url.pathname);
			return;
		}
		await this.api(req, res, url.pathname);
	}

	private async api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
		const started = Date.now();
		// Counted until both its answer has closed ('close' fires once per response, also when the connection is reset
		// or dropped by a fault) and its handling is done: a client that goes away early, as a killed worker does,
		// does not stop a handler that may still make an order.
		this.gateway.traffic.requestStarted();
		let open = 2;
		const end = () => {
			open -= 1;
			if (open === 0) this.gateway.traffic.requestEnded();
		};
		res.once('close', end);
		try {
			await this.handleApi(req, res, path, started);
		} finally {
			end();
		}
	}

	private async handleApi(req: IncomingMessage, res: ServerResponse, path: string, started: number): Promise<void> {
		const method = req.method ?? 'GET';
		const { body, parseError } = await readJson(req);
		this.gateway.traffic.noteReceived(path, body);
		const log = this.logger(method, path, body, started);

		const before = this.gateway.faults.take(path, 'before');
		await delay(this.runtime.latencyMs + before.latencyMs);
		if (before.fault) {
			log({ outcome: 'fault', msg: `${before.fault.type} before handling` });
			this.lose(req, res, before.fault.type, before.fault, path);
			return;
		}
		const outcome = await this.outcomeOf(method, parseError, path, body);
		const after = this.gateway.faults.take(path, 'after');
		await delay(after.latencyMs);
		await this.answer(req, res, { path, body }, outcome, after.fault, log);
	}

	/** Logs the request once its fate is known, with what identifies it in its body. */
	private logger(method: string, path: string, body: unknown, started: number): Log {
		const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
		return (entry) =>
			this.gateway.traffic.logRequest(
				{
					method,
					path,
					appId: Number.isInteger(record.appId) ? (record.appId as number) : undefined,
					orderId: typeof record.orderId === 'string' ? record.orderId : undefined,
					body,
					ms: Date.now() - started,
					...entry,
				},
				started,
			);
	}

	private async outcomeOf(
		method: string,
		parseError: string | undefined,
		path: string,
		body: unknown,
	): Promise<Outcome> {
		if (method !== 'POST')
			return {
				type: 'error',
				code: ERROR_CODES.methodNotAllowed,
				msg: `${method} is not allowed; every operation is POST`,
			};
		if (parseError !== undefined) return { type: 'error', code: ERROR_CODES.badRequest, msg: parseError };
		try {
			return await this.gateway.handle(path, body);
		} catch (error) {
			return { type: 'error', code: ERROR_CODES.internal, msg: `internal error: ${(error as Error).message}` };
		}
	}

	/** Answers with the outcome, unless a fault (a rule, or a magic value in the request) loses or spoils the answer. */
	private async answer(
		req: IncomingMessage,
		res: ServerResponse,
		request: { path: string; body: unknown },
		outcome: Outcome,
		fault: ActiveFault | undefined,
		log: Log,
	): Promise<void> {
		const { path } = request;
		const lost = outcome.type === 'ok' || outcome.type === 'error' ? outcome.lose : undefined;
		const losing = fault && SPOILERS.has(fault.type) ? undefined : fault;
		if (losing || lost) {
			const type = losing?.type ?? lost?.fault ?? 'drop';
			log({ outcome: 'fault', msg: `${type} after handling` });
			this.lose(req, res, type, losing, path);
			return;
		}
		if (fault?.type === 'replaceData' && outcome.type === 'ok') {
			const data = fault.data;
			const replaced =
				typeof data === 'string'
					? data
					: { ...data, sign: await this.gateway.signDataAsync(data ?? {}, outcome.merchant) };
			sendEnvelope(res, replaced);
			log({ outcome: 'fault', msg: 'replaceData' });
			return;
		}
		if (fault?.type === 'echo') {
			// A proxy or a stub that answers success with the request itself: its orderId, and the merchant's own sign.
			sendEnvelope(res, request.body);
			log({ outcome: 'fault', msg: 'echo' });
			return;
		}
		await this.deliver(res, outcome, fault?.type === 'badSignature', log);
	}

	private async deliver(res: ServerResponse, outcome: Outcome, spoil: boolean, log: Log): Promise<void> {
		switch (outcome.type) {
			case 'ok': {
				sendEnvelope(res, {
					...outcome.data,
					sign: await this.gateway.signDataAsync(outcome.data, outcome.merchant, spoil),
				});
				log({ outcome: spoil ? 'fault' : '1', msg: spoil ? 'badSignature' : undefined });
				return;
			}
			case 'bare':
				sendEnvelope(res, outcome.data);
				log({ outcome: '1' });
				return;
			case 'file':
				sendFile(res, outcome.contentType, outcome.filename, outcome.bytes);
				log({ outcome: 'file' });
				return;
			default:
				sendJson(res, 200, { status: '0', error: outcome.code, msg: outcome.msg, data: null });
				log({ outcome: '0', error: outcome.code, msg: outcome.msg });
		}
	}

	/**
	 * Sends a body slowly or without end until the client goes away (or `total` bytes are out), then reports how
	 * many bytes went out: tests use that to prove the client stopped reading.
	 */
	private stream(
		res: ServerResponse,
		path: string,
		type: string,
		options: { chunk: Buffer; everyMs: number; total?: number },
	): void {
		const contentType = path === '/common/voucher/pdf' ? 'application/pdf' : 'application/json; charset=utf-8';
		res.writeHead(200, { 'Content-Type': contentType });
		let written = 0;
		let ended = false;
		const finish = (closedByClient: boolean) => {
			if (ended) return;
			ended = true;
			if (timer !== undefined) clearInterval(timer);
			this.gateway.events.emit('fault', { type, path, bytesWritten: written, closedByClient });
		};
		const pump = () => {
			if (ended) return;
			while (!res.destroyed && !res.writableNeedDrain && (options.total === undefined || written < options.total)) {
				written += options.chunk.length;
				const more = res.write(options.chunk);
				if (options.everyMs > 0 || !more) return;
			}
			if (options.total !== undefined && written >= options.total) {
				res.end();
				finish(false);
			}
		};
		const timer = options.everyMs > 0 ? setInterval(pump, options.everyMs) : undefined;
		res.on('drain', () => {
			if (options.everyMs === 0) pump();
		});
		res.once('close', () => finish(options.total === undefined || written < options.total));
		pump();
	}

	/** Answers the way a broken network or upstream would: an error page, a reset, or nothing at all. */
	private lose(req: IncomingMessage, res: ServerResponse, type: string, rule?: ActiveFault, path = ''): void {
		const socket = req.socket;
		if (type === 'statusZero') {
			sendJson(res, 200, {
				status: '0',
				error: rule?.code ?? '9999',
				msg: rule?.msg ?? 'System busy, please query the order',
				data: null,
			});
			return;
		}
		if (type === 'redirect') {
			res.writeHead(rule?.status ?? 307, { Location: rule?.location ?? path, 'Content-Length': 0 });
			res.end();
			return;
		}
		if (type === 'slowBody') {
			this.stream(res, path, type, { chunk: Buffer.from(' '), everyMs: rule?.ms ?? 500, total: rule?.bytes ?? 200 });
			return;
		}
		if (type === 'endlessBody') {
			this.stream(res, path, type, { chunk: Buffer.alloc(64 * 1024, 0x20), everyMs: 0 });
			return;
		}
		if (type === 'httpError') {
			const status = rule?.status ?? 502;
			const page = BAD_GATEWAY_PAGE(status);
			res.writeHead(status, {
				'Content-Type': 'text/html',
				'Content-Length': Buffer.byteLength(page),
				Connection: 'close',
			});
			res.end(page);
			return;
		}
		if (type === 'timeout') {
			this.held.add(socket);
			const timer = setTimeout(() => socket.destroy(), rule?.ms ?? this.runtime.hangMs);
			timer.unref();
			socket.once('close', () => {
				clearTimeout(timer);
				this.held.delete(socket);
			});
			return;
		}
		// A TCP reset where the platform has one, so that the client sees ECONNRESET rather than a clean close.
		const resettable = socket as Socket & { resetAndDestroy?: () => void };
		if (typeof resettable.resetAndDestroy === 'function') resettable.resetAndDestroy();
		else socket.destroy();
	}

	listen(port: number, host: string): Promise<number> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, host, () => {
				this.server.off('error', reject);
				const address = this.server.address();
				resolve(typeof address === 'object' && address ? address.port : port);
			});
		});
	}

	close(): Promise<void> {
		return new Promise((resolve) => {
			for (const socket of this.held) socket.destroy();
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}
}
