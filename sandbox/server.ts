import http, { type IncomingMessage, type ServerResponse } from 'http';
import type { Socket } from 'net';

import { handleCashier } from './cashier';
import { ERROR_CODES, SUCCESS_CODE } from './constants';
import type { SandboxControl } from './control';
import { handleControl } from './control-http';
import type { ActiveFault } from './faults';
import type { Gateway } from './gateway';
import { BodyTooLarge, delay, readBody, sendJson } from './http-util';
import type { Outcome, RequestLogEntry } from './types';

export const CONTROL_PREFIX = '/__sandbox';

const BAD_GATEWAY_PAGE = (status: number) =>
	`<html>\r\n<head><title>${status} Bad Gateway</title></head>\r\n<body>\r\n<center><h1>${status} Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

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
		// 'close' fires once per response, also when the connection is reset or held and dropped by a fault.
		this.gateway.traffic.requestStarted();
		res.once('close', () => this.gateway.traffic.requestEnded());
		const method = req.method ?? 'GET';
		let body: unknown;
		let parseError: string | undefined;
		try {
			const text = await readBody(req);
			body = JSON.parse(text);
		} catch (error) {
			parseError = error instanceof BodyTooLarge ? error.message : 'request body must be valid JSON';
		}
		this.gateway.traffic.noteReceived(path, body);
		const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
		const log = (entry: Pick<RequestLogEntry, 'outcome' | 'error' | 'msg'>) =>
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

		const before = this.gateway.faults.take(path, 'before');
		await delay(this.runtime.latencyMs + before.latencyMs);
		if (before.fault) {
			log({ outcome: 'fault', msg: `${before.fault.type} before handling` });
			this.lose(req, res, before.fault.type, before.fault, path);
			return;
		}

		let outcome: Outcome;
		if (method !== 'POST') outcome = { type: 'error', code: ERROR_CODES.methodNotAllowed, msg: `${method} is not allowed; every operation is POST` };
		else if (parseError !== undefined) outcome = { type: 'error', code: ERROR_CODES.badRequest, msg: parseError };
		else {
			try {
				outcome = await this.gateway.handle(path, body);
			} catch (error) {
				outcome = { type: 'error', code: ERROR_CODES.internal, msg: `internal error: ${(error as Error).message}` };
			}
		}

		const after = this.gateway.faults.take(path, 'after');
		await delay(after.latencyMs);
		const lost = outcome.type === 'ok' || outcome.type === 'error' ? outcome.lose : undefined;
		const spoilers = new Set(['badSignature', 'replaceData']);
		const fault = after.fault && spoilers.has(after.fault.type) ? undefined : after.fault;
		if (fault || lost) {
			const type = fault?.type ?? lost?.fault ?? 'drop';
			log({ outcome: 'fault', msg: `${type} after handling` });
			this.lose(req, res, type, fault, path);
			return;
		}
		const spoil = after.fault?.type === 'badSignature';
		if (after.fault?.type === 'replaceData' && outcome.type === 'ok') {
			const data = after.fault.data;
			const replaced = typeof data === 'string' ? data : { ...data, sign: await this.gateway.signDataAsync(data ?? {}, outcome.merchant) };
			sendJson(res, 200, { status: '1', error: SUCCESS_CODE, msg: 'success', data: replaced });
			log({ outcome: 'fault', msg: 'replaceData' });
			return;
		}
		switch (outcome.type) {
			case 'ok': {
				const data = { ...outcome.data, sign: await this.gateway.signDataAsync(outcome.data, outcome.merchant, spoil) };
				sendJson(res, 200, { status: '1', error: SUCCESS_CODE, msg: 'success', data });
				log({ outcome: spoil ? 'fault' : '1', msg: spoil ? 'badSignature' : undefined });
				return;
			}
			case 'bare':
				sendJson(res, 200, { status: '1', error: SUCCESS_CODE, msg: 'success', data: outcome.data });
				log({ outcome: '1' });
				return;
			case 'file':
				res.writeHead(200, {
					'Content-Type': outcome.contentType,
					'Content-Length': outcome.bytes.length,
					'Content-Disposition': `attachment; filename="${outcome.filename}"`,
				});
				res.end(outcome.bytes);
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
	private stream(res: ServerResponse, path: string, type: string, options: { chunk: Buffer; everyMs: number; total?: number }): void {
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
			sendJson(res, 200, { status: '0', error: rule?.code ?? '9999', msg: rule?.msg ?? 'System busy, please query the order', data: null });
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
			res.writeHead(status, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(page), Connection: 'close' });
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
