import type { IncomingMessage, Server, ServerResponse } from 'http';
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import { UnexpectedError, UserError } from 'n8n-workflow';

import { send } from '../../dev/http';
import { harnessEnvironment } from './environment';
import type { WebhookRequest, WebhookResponse } from './http';
import { StaticDataStore } from './static-data';
import { runSetupMethods } from './webhook-activation';
import { errorBody } from './webhook-answers';
import type { Served } from './webhook-call';
import { holdStarts } from './start-hold';
import { serveCall } from './webhook-call';
import { webhookOf, webhookUrl, workflowWebhooks } from './webhook-routes';
import type {
	ActivationCall,
	HttpReply,
	SendOptions,
	WebhookCall,
	WebhookServer,
	WebhookServerOptions,
} from './webhook-types';
import { prepareWorkflow } from './workflow';

/**
 * Serves a workflow whose trigger is a webhook node, over real HTTP on 127.0.0.1, the way n8n's webhook server
 * does: the body is read raw (kept as `req.rawBody`) and parsed by content type, the node's `webhook()` runs with
 * n8n-core's WebhookContext on the real request and response, `noWebhookResponse` / `webhookResponse` /
 * `responseMode` decide the answer, and emitted items run the rest of the workflow with WorkflowExecute
 * (webhook-call.ts). Activation runs the webhooks' `webhookMethods` (webhook-activation.ts).
 *
 * @example
 * const server = await webhookServer({ nodeTypes: [HaiPayTrigger], credentials, nodes: [{ name: 'Trigger', type: 'haiPayTrigger' }] });
 * const reply = await server.send('Trigger', callbackBody);
 * expect(reply.text).toBe('SUCCESS');
 * expect(server.executions).toHaveLength(1);
 * await server.close();
 */
export async function webhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
	const served = await serveWorkflow(options);
	const calls: WebhookCall[] = [];
	const activations: ActivationCall[] = [];
	const inFlight = new InFlight();
	const server = createServer((req, res) => {
		const call = recordCall(req, res);
		calls.push(call);
		inFlight.track(serveRecorded(served, req, res, call));
	});
	served.baseUrl = await listen(server);
	const activate = options.activate !== false;
	if (activate) await activateOrStop(served, activations, server);
	let closing: Promise<void> | undefined;
	return {
		baseUrl: served.baseUrl,
		url: (pathOrNodeName, kind) => webhookUrl(served.baseUrl, served.webhooks, pathOrNodeName, kind),
		executions: served.executions,
		calls,
		activations,
		staticData: (nodeName) => served.store.of(nodeName),
		setStaticData: (data) => served.store.set(data),
		resetStaticData: () => served.store.reset(),
		failExecutionStarts: (count) => {
			served.startFailures = count;
		},
		holdExecutionStarts: () => holdStarts(served),
		idle: () => inFlight.idle(),
		waitForExecutions: (count, timeoutMs) => inFlight.waitFor(served.executions, count, 'executions', timeoutMs),
		waitForCalls: (count, timeoutMs) => inFlight.waitFor(calls, count, 'calls', timeoutMs),
		send: async (pathOrNodeName, body, sendOptions = {}) => {
			const reply = await sendToWebhook(served, pathOrNodeName, body, sendOptions);
			if (sendOptions.waitForExecutions !== false) await inFlight.idle();
			return reply;
		},
		workflow: served.prepared,
		close: async () => {
			closing ??= (async () => {
				await inFlight.idle();
				try {
					if (activate) await runSetupMethods(served, activations, 'delete', 'update');
				} finally {
					server.closeAllConnections();
					await new Promise<void>((resolve) => server.close(() => resolve()));
				}
			})();
			await closing;
		},
	};
}

/** The workflow prepared once, its webhooks, and its static data; a workflow without a webhook node is refused. */
async function serveWorkflow(options: WebhookServerOptions): Promise<Served> {
	const env = await harnessEnvironment();
	const prepared = prepareWorkflow(options, { addStart: false });
	const webhooks = workflowWebhooks(prepared.instantiate());
	if (webhooks.length === 0) {
		throw new UserError(
			'The workflow has no webhook node: webhookServer() serves workflows whose trigger is a webhook.',
		);
	}
	return {
		env,
		prepared,
		webhooks,
		store: options.staticDataStore ?? new StaticDataStore(options.staticData, options.dropStaticDataSaves === true),
		saveOrder: options.staticDataSaveOrder ?? 'request-first',
		executions: [],
		startFailures: 0,
		baseUrl: '',
	};
}

async function listen(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Activation as n8n does it on start; a failing activation stops the server before the error goes on. */
async function activateOrStop(served: Served, activations: ActivationCall[], server: Server): Promise<void> {
	try {
		await runSetupMethods(served, activations, 'create', 'activate');
	} catch (error) {
		await new Promise<void>((resolve) => server.close(() => resolve()));
		throw error;
	}
}

/** A record of a request; its status and body are filled in as the response ends. */
function recordCall(req: IncomingMessage, res: ServerResponse): WebhookCall {
	const call: WebhookCall = {
		method: req.method ?? 'GET',
		path: (req.url ?? '/').split('?')[0],
		kind: undefined,
		node: undefined,
		headers: req.headers,
		rawBody: Buffer.alloc(0),
		statusCode: 0,
		responseBody: '',
		executionId: undefined,
		logs: [],
	};
	const chunks: Buffer[] = [];
	const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
	const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
	const keep = (chunk: unknown) => {
		if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') {
			chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
		}
	};
	res.write = ((chunk: unknown, ...rest: unknown[]) => {
		keep(chunk);
		return write(chunk, ...rest);
	}) as ServerResponse['write'];
	res.end = ((...args: unknown[]) => {
		keep(args[0]);
		call.statusCode = res.statusCode;
		call.responseBody = Buffer.concat(chunks).toString('utf8');
		return end(...args);
	}) as ServerResponse['end'];
	return call;
}

/** Serves one request with its log lines kept on the call; a failure of the harness itself is answered 500. */
async function serveRecorded(
	served: Served,
	req: IncomingMessage,
	res: ServerResponse,
	call: WebhookCall,
): Promise<void> {
	try {
		await served.env.logger.capture(call.logs, async () => await serveCall(served, req, res, call));
	} catch (error) {
		call.harnessError = error as Error;
		served.env.logger.error(`Harness failure while serving ${call.method} ${call.path}: ${(error as Error).message}`, {
			error,
		});
		if (!res.headersSent) {
			res.statusCode = 500;
			res.end(JSON.stringify(errorBody(500, `Harness failure: ${(error as Error).message}`)));
		}
	} finally {
		// n8n would leave a response the node took over (noWebhookResponse) and never wrote open until the
		// client gives up; ending it keeps a test from hanging on a node bug.
		if (!res.writableEnded) res.end();
	}
}

/** The calls being served. Executions run after the answer, as in n8n, so tests wait for them. */
class InFlight {
	private readonly running = new Set<Promise<void>>();

	track(work: Promise<void>): void {
		const done: Promise<void> = work.finally(() => this.running.delete(done));
		this.running.add(done);
	}

	async idle(): Promise<void> {
		while (this.running.size > 0) await Promise.allSettled([...this.running]);
	}

	/** Resolves once `list` has `count` entries and nothing runs; rejects after `timeoutMs` when given. */
	async waitFor<T>(list: T[], count: number, what: string, timeoutMs?: number): Promise<T[]> {
		const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
		for (;;) {
			await this.idle();
			if (list.length >= count && this.running.size === 0) return list;
			if (Date.now() > deadline) {
				throw new UnexpectedError(`Waited ${timeoutMs} ms for ${count} ${what}, got ${list.length}.`);
			}
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
	}
}

/** One request to a webhook over real HTTP, the body byte for byte; an object goes as JSON. */
async function sendToWebhook(
	served: Served,
	pathOrNodeName: string | undefined,
	body: unknown,
	options: SendOptions,
): Promise<HttpReply> {
	const headers: Record<string, string> = { ...options.headers };
	const hasContentType = Object.keys(headers).some((key) => key.toLowerCase() === 'content-type');
	let payload: Buffer | undefined;
	if (Buffer.isBuffer(body)) payload = body;
	else if (typeof body === 'string') payload = Buffer.from(body, 'utf8');
	else if (body !== undefined) {
		payload = Buffer.from(JSON.stringify(body), 'utf8');
		if (!hasContentType) headers['Content-Type'] = 'application/json';
	}
	if (payload !== undefined) headers['Content-Length'] = String(payload.length);
	const url = webhookUrl(served.baseUrl, served.webhooks, pathOrNodeName, options.kind);
	const method = options.method ?? webhookOf(served.webhooks, pathOrNodeName)?.httpMethod ?? 'POST';
	const reply = await send(url, payload, { method, headers });
	return { ...reply, json: <T>() => JSON.parse(reply.text) as T };
}

export type {
	ActivationCall,
	HttpReply,
	SendOptions,
	StaticDataSaveOrder,
	WebhookCall,
	WebhookExecution,
	WebhookServer,
	WebhookServerOptions,
	WebhookUrlKind,
} from './webhook-types';
export type { WebhookRequest, WebhookResponse };
