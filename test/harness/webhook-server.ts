import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'http';
import { createServer, request as httpRequest } from 'http';
import type { AddressInfo } from 'net';
import { BinaryDataService, HookContext, WebhookContext, getHtmlSandboxCSP, isWebhookHtmlSandboxingDisabled } from 'n8n-core';
import { Container } from '@n8n/di';
import type {
	IDataObject,
	IHttpRequestMethods,
	INode,
	INodeExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowDataProxyAdditionalKeys,
	WebhookResponseData,
	WebhookSetupMethodNames,
	Workflow,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { BINARY_ENCODING, NodeHelpers, UnexpectedError, UserError, isNodeClassInstance } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import { harnessEnvironment } from './environment';
import type { WebhookRequest, WebhookResponse } from './http';
import { asWebhookRequest, asWebhookResponse, parseBody } from './http';
import type { LogLine } from './logger';
import type { RunResult } from './run';
import { execute, plainStaticData } from './run';
import type { PreparedWorkflow, WorkflowDefinition } from './workflow';
import { prepareWorkflow } from './workflow';

export type WebhookUrlKind = 'production' | 'test';

export interface WebhookServerOptions extends WorkflowDefinition {
	/** Static data the workflow starts with (as if saved by an earlier activation or call). */
	staticData?: IDataObject;
	/** Run each webhook's `webhookMethods` checkExists/create on start and delete on close. Default true. */
	activate?: boolean;
}

/** One workflow execution a webhook call started. */
export interface WebhookExecution {
	/** What the trigger emitted on its first output. */
	items: INodeExecutionData[];
	/** Everything the trigger emitted, per output (`workflowData` of its webhook() answer). */
	workflowData: INodeExecutionData[][];
	result: RunResult;
	/** The call that started it. */
	call: WebhookCall;
}

/** One HTTP request the server received, whatever became of it. */
export interface WebhookCall {
	method: string;
	/** The request path, e.g. /webhook/<webhookId>/webhook. */
	path: string;
	kind: WebhookUrlKind | undefined;
	/** The node whose webhook answered, when one matched. */
	node: string | undefined;
	headers: IncomingHttpHeaders;
	rawBody: Buffer;
	statusCode: number;
	/** The response body as sent. */
	responseBody: string;
	/** Id of the execution the call started; undefined when the trigger emitted nothing. */
	executionId: string | undefined;
	/** Log lines written while the call and its execution ran. */
	logs: LogLine[];
	/** Set when the harness itself failed (a bug to report, not a node behaviour). */
	harnessError?: Error;
}

export interface ActivationCall {
	node: string;
	method: WebhookSetupMethodNames;
	result: unknown;
}

export interface HttpReply {
	status: number;
	headers: IncomingHttpHeaders;
	text: string;
	/** The body parsed as JSON (throws if it is not JSON). */
	json<T = unknown>(): T;
}

export interface SendOptions {
	method?: string;
	headers?: Record<string, string>;
	kind?: WebhookUrlKind;
	/** Wait for executions the call started to finish before returning. Default true. */
	waitForExecutions?: boolean;
}

export interface WebhookServer {
	/** http://127.0.0.1:<port> */
	baseUrl: string;
	/**
	 * The URL n8n would give a webhook: by node name (its first webhook), or by webhook path. Without an argument,
	 * the first webhook node's. 'production' is /webhook/..., 'test' is /webhook-test/... (run in manual mode).
	 */
	url(pathOrNodeName?: string, kind?: WebhookUrlKind): string;
	/** Executions started by calls, in the order they finished. */
	executions: WebhookExecution[];
	/** Every request received, in order. */
	calls: WebhookCall[];
	/** checkExists/create/delete calls made on start and close. */
	activations: ActivationCall[];
	/** The stored static data: a node's part (`node:<name>`) when a node name is given, else all of it. */
	staticData(nodeName?: string): IDataObject;
	setStaticData(data: IDataObject): void;
	resetStaticData(): void;
	/** Resolves when no execution is running (executions run after the response, as in n8n). */
	idle(): Promise<void>;
	/**
	 * Resolves once at least `count` executions have finished, for calls made by another client (a gateway
	 * posting callbacks) whose arrival the test cannot await. Rejects after `timeoutMs` when given; without it,
	 * only the test's own timeout bounds the wait.
	 */
	waitForExecutions(count: number, timeoutMs?: number): Promise<WebhookExecution[]>;
	/** Resolves once at least `count` requests have been answered and their executions finished. */
	waitForCalls(count: number, timeoutMs?: number): Promise<WebhookCall[]>;
	/** Sends a request to one of the server's webhooks over real HTTP. Objects are sent as JSON. */
	send(pathOrNodeName: string | undefined, body?: unknown, options?: SendOptions): Promise<HttpReply>;
	workflow: PreparedWorkflow;
	/** Waits for running executions, runs the webhooks' `delete`, stops the server. Safe to call twice. */
	close(): Promise<void>;
}

interface RegisteredWebhook {
	httpMethod: IHttpRequestMethods;
	node: string;
	path: string;
	webhookDescription: IWebhookDescription;
	webhookId?: string;
}

function errorBody(code: number, message: string, hint?: string): IDataObject {
	return hint === undefined ? { code, message } : { code, message, hint };
}

/** Webhooks a node registers, computed as n8n's WebhookService.getNodeWebhooks does. */
function nodeWebhooks(workflow: Workflow, node: INode): RegisteredWebhook[] {
	if (node.disabled === true) return [];
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const registered: RegisteredWebhook[] = [];
	for (const description of nodeType.description.webhooks ?? []) {
		if (description.restartWebhook === true) continue;
		const rawPath = workflow.expression.getSimpleParameterValue(node, description.path, 'internal', {});
		if (rawPath === undefined) continue;
		const nodePath = rawPath.toString().replace(/^\//, '').replace(/\/$/, '');
		const isFullPath = workflow.expression.getSimpleParameterValue(
			node,
			description.isFullPath,
			'internal',
			{},
			undefined,
			false,
		) as boolean;
		const path = NodeHelpers.getNodeWebhookPath(workflow.id, node, nodePath, isFullPath, false);
		const methods = workflow.expression.getSimpleParameterValue(node, description.httpMethod, 'internal', {}, undefined, 'GET');
		for (const method of String(methods).split(',')) {
			if (method.trim() === '') continue;
			registered.push({
				httpMethod: method.trim() as IHttpRequestMethods,
				node: node.name,
				path,
				webhookDescription: description,
				webhookId: (path.startsWith(':') || path.includes('/:')) && node.webhookId ? node.webhookId : undefined,
			});
		}
	}
	return registered;
}

/** Finds the webhook for a request path, with `:name` segments as parameters (n8n's dynamic webhooks). */
function match(webhooks: RegisteredWebhook[], method: string, path: string): { webhook: RegisteredWebhook; params: Record<string, string> } | undefined {
	const exact = webhooks.find((webhook) => webhook.httpMethod === method && webhook.path === path);
	if (exact) return { webhook: exact, params: {} };
	const segments = path.split('/');
	for (const webhook of webhooks) {
		if (webhook.httpMethod !== method) continue;
		const pattern = webhook.path.split('/');
		if (pattern.length !== segments.length) continue;
		const params: Record<string, string> = {};
		if (pattern.every((part, i) => (part.startsWith(':') ? ((params[part.slice(1)] = segments[i]), true) : part === segments[i]))) {
			return { webhook, params };
		}
	}
	return undefined;
}

function sendStatic(res: WebhookResponse, code: number, body: unknown): void {
	if (res.headersSent || res.writableEnded) return;
	res.status(code);
	if (!isWebhookHtmlSandboxingDisabled()) res.setHeader('Content-Security-Policy', getHtmlSandboxCSP());
	if (body === undefined) res.end();
	else if (typeof body === 'string' || Buffer.isBuffer(body)) res.send(body);
	else res.json(body);
}

function evaluateDescription<T>(
	workflow: Workflow,
	node: INode,
	description: IWebhookDescription,
	property: keyof IWebhookDescription,
	mode: WorkflowExecuteMode,
	additionalKeys: IWorkflowDataProxyAdditionalKeys,
	defaultValue?: string | number | boolean,
): T | undefined {
	const value = description[property as string];
	if (value === undefined) return defaultValue as T | undefined;
	return workflow.expression.getSimpleParameterValue(node, value, mode, additionalKeys, undefined, defaultValue) as T;
}

/** The answer in "When last node finishes" mode, as n8n's last-node response extractor builds it. */
async function lastNodeResponse(
	result: RunResult,
	responseData: WebhookResponseData | undefined,
	responsePropertyName: string | undefined,
): Promise<{ body: unknown; contentType?: string } | Error> {
	const lastNode = result.run.data.resultData.lastNodeExecuted;
	const taskData = lastNode === undefined ? undefined : result.runData[lastNode]?.at(-1);
	if (taskData === undefined) return { body: { message: 'Workflow executed successfully but the last node did not return any data' } };
	const first = taskData.data?.main?.[0];
	if (responseData === 'noData') return { body: undefined };
	if (responseData === 'firstEntryJson') {
		if (!first?.length) return new UnexpectedError('No item to return was found');
		let body: unknown = first[0].json;
		if (responsePropertyName !== undefined) {
			body = responsePropertyName.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], body);
		}
		return { body };
	}
	if (responseData === 'firstEntryBinary') {
		const binary = first?.[0]?.binary?.data;
		if (binary === undefined) return new UnexpectedError('No binary data was found to return');
		const body = binary.id
			? await Container.get(BinaryDataService).getAsBuffer(binary)
			: Buffer.from(binary.data, BINARY_ENCODING);
		return { body, contentType: binary.mimeType };
	}
	return { body: (first ?? []).map((item) => item.json) };
}

/**
 * Serves a workflow whose trigger is a webhook node, over real HTTP on 127.0.0.1, the way n8n's webhook server
 * does: the body is read raw (kept as `req.rawBody`) and parsed by content type, the node's `webhook()` runs with
 * n8n-core's WebhookContext on the real request and response, `noWebhookResponse` / `webhookResponse` /
 * `responseMode` decide the answer, and emitted items run the rest of the workflow with WorkflowExecute.
 *
 * @example
 * const server = await webhookServer({ nodeTypes: [HaiPayTrigger], credentials, nodes: [{ name: 'Trigger', type: 'haiPayTrigger' }] });
 * const reply = await server.send('Trigger', callbackBody);
 * expect(reply.text).toBe('SUCCESS');
 * expect(server.executions).toHaveLength(1);
 * await server.close();
 */
export async function webhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
	const env = await harnessEnvironment();
	const prepared = prepareWorkflow(options, { addStart: false });
	let storedStaticData: IDataObject = structuredClone(options.staticData ?? {});
	const probe = prepared.instantiate();
	const webhooks = probe.queryNodes(() => true).flatMap((node) => nodeWebhooks(probe, node));
	if (webhooks.length === 0) {
		throw new UserError('The workflow has no webhook node: webhookServer() serves workflows whose trigger is a webhook.');
	}

	const executions: WebhookExecution[] = [];
	const calls: WebhookCall[] = [];
	const activations: ActivationCall[] = [];
	const running = new Set<Promise<void>>();
	let baseUrl = '';

	/** What n8n's WorkflowStaticDataService.saveStaticData does: store the data if anything changed it. */
	const saveStaticData = (workflow: Workflow): void => {
		if (workflow.staticData.__dataChanged === true) {
			storedStaticData = plainStaticData(workflow);
			workflow.staticData.__dataChanged = false;
		}
	};

	const runSetupMethod = async (method: WebhookSetupMethodNames, activation: WorkflowActivateMode): Promise<void> => {
		const workflow = prepared.instantiate(structuredClone(storedStaticData));
		for (const webhook of webhooks) {
			const node = workflow.getNode(webhook.node) as INode;
			const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			const setup = nodeType.webhookMethods?.[webhook.webhookDescription.name];
			const additionalData = buildAdditionalData({
				credentialsHelper: prepared.credentialsHelper,
				executionId: '',
				workflowId: prepared.id,
				baseUrl,
			});
			const webhookData: IWebhookData = { ...webhook, workflowId: prepared.id, workflowExecuteAdditionalData: additionalData };
			const context = new HookContext(workflow, node, additionalData, 'trigger', activation, webhookData);
			const call = async (name: WebhookSetupMethodNames): Promise<unknown> => {
				const fn = setup?.[name];
				if (fn === undefined) return undefined;
				const result = await env.logger.capture([], async () => (await fn.call(context)) as unknown);
				activations.push({ node: node.name, method: name, result });
				return result;
			};
			if (method === 'delete') await call('delete');
			else if (!(await call('checkExists'))) await call('create');
		}
		saveStaticData(workflow);
	};

	const handle = async (req: IncomingMessage, res: ServerResponse, call: WebhookCall): Promise<void> => {
		const url = new URL(req.url ?? '/', baseUrl);
		const prefix = url.pathname.startsWith('/webhook-test/') ? 'test' : url.pathname.startsWith('/webhook/') ? 'production' : undefined;
		const response = asWebhookResponse(res);
		const request = asWebhookRequest(req, url.pathname);
		await request.readRawBody();
		call.rawBody = request.rawBody;
		call.kind = prefix;
		const webhookPath = decodeURIComponent(url.pathname.replace(/^\/webhook(-test)?\//, '')).replace(/\/$/, '');
		const found = prefix === undefined ? undefined : match(webhooks, req.method ?? 'GET', webhookPath);
		if (found === undefined) {
			sendStatic(response, 404, errorBody(404, `The requested webhook "${req.method} ${webhookPath}" is not registered.`));
			return;
		}
		const { webhook } = found;
		call.node = webhook.node;
		request.params = found.params;

		const mode: WorkflowExecuteMode = prefix === 'test' ? 'manual' : 'webhook';
		const workflow = prepared.instantiate(structuredClone(storedStaticData));
		const node = workflow.getNode(webhook.node) as INode;
		if (node.typeVersion === 1 || /^(application\/json|text\/plain|application\/x-www-form-urlencoded)$/.test(request.contentType ?? '')) {
			try {
				parseBody(request);
			} catch (error) {
				sendStatic(response, 422, errorBody(422, 'Failed to parse request body', (error as Error).message));
				return;
			}
		}

		const executionId = nextExecutionId();
		const additionalData = buildAdditionalData({
			credentialsHelper: prepared.credentialsHelper,
			executionId,
			workflowId: prepared.id,
			baseUrl,
			httpRequest: request,
			httpResponse: response,
		});
		const webhookData: IWebhookData = {
			...webhook,
			workflowId: prepared.id,
			workflowExecuteAdditionalData: additionalData,
			isTest: prefix === 'test',
		};
		const additionalKeys: IWorkflowDataProxyAdditionalKeys = { $executionId: executionId };
		const describe = <T>(property: keyof IWebhookDescription, fallback?: string | number | boolean) =>
			evaluateDescription<T>(workflow, node, webhook.webhookDescription, property, mode, additionalKeys, fallback);
		const responseMode = describe<string>('responseMode', 'onReceived') ?? 'onReceived';
		const responseCode = describe<number>('responseCode', 200) ?? 200;
		const responseData = describe<string>('responseData');

		let answer: IWebhookResponseData;
		let startError: Error | undefined;
		try {
			const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			if (nodeType.webhook === undefined) throw new UnexpectedError('Node does not have any webhooks defined');
			const context = new WebhookContext(workflow, node, additionalData, mode, webhookData, [], null);
			answer = isNodeClassInstance(nodeType)
				? await nodeType.webhook(context)
				: ((await nodeType.webhook.call(context)) as IWebhookResponseData);
		} catch (error) {
			// n8n answers with a generic message (the cause stays in the execution) and still runs the workflow,
			// which then fails at the trigger with the error.
			env.logger.error(`Webhook node "${node.name}" failed: ${(error as Error).message}`, { error });
			sendStatic(response, 500, errorBody(0, 'Workflow Webhook Error: Workflow could not be started!'));
			startError = error as Error;
			answer = { noWebhookResponse: true, workflowData: [[{ json: {} }]] };
		}

		const responded = () => response.headersSent || response.writableEnded;
		// n8n applies the description's responseHeaders ({ entries: [{ name, value }] }) to any answer it writes.
		const headers = webhook.webhookDescription.responseHeaders === undefined ? undefined : describe<{ entries?: Array<{ name: string; value: string }> }>('responseHeaders');
		if (!responded()) for (const entry of headers?.entries ?? []) response.setHeader(entry.name, entry.value);
		if (answer.workflowData === undefined) {
			if (!responded() && answer.noWebhookResponse !== true) {
				sendStatic(response, responseCode, answer.webhookResponse !== undefined ? answer.webhookResponse : { message: 'Webhook call received' });
			}
			saveStaticData(workflow);
			return;
		}

		if (responseMode === 'onReceived' && !responded() && answer.noWebhookResponse !== true) {
			const body =
				responseData === 'noData'
					? undefined
					: responseData
						? responseData
						: answer.webhookResponse !== undefined
							? answer.webhookResponse
							: { message: 'Workflow was started' };
			sendStatic(response, responseCode, body);
		}
		saveStaticData(workflow);

		call.executionId = executionId;
		const result = await execute({
			prepared,
			workflow,
			mode,
			startNode: node.name,
			startData: answer.workflowData,
			executionId,
			logs: call.logs,
			additionalData: { baseUrl },
			startError,
		});
		saveStaticData(workflow);
		executions.push({ items: answer.workflowData[0] ?? [], workflowData: answer.workflowData, result, call });

		if (responded() || answer.noWebhookResponse === true) return;
		if (result.executionError !== undefined) {
			sendStatic(response, 500, { message: 'Error in workflow' });
		} else if (responseMode === 'lastNode') {
			const reply = await lastNodeResponse(result, responseData as WebhookResponseData | undefined, describe<string>('responsePropertyName'));
			if (reply instanceof Error) sendStatic(response, 500, errorBody(0, reply.message));
			else {
				if (reply.contentType !== undefined) response.setHeader('Content-Type', reply.contentType);
				sendStatic(response, responseCode, reply.body);
			}
		} else {
			sendStatic(response, 500, errorBody(0, `Response mode "${responseMode}" is not supported by the test harness`));
		}
	};

	const server: Server = createServer((req, res) => {
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
		calls.push(call);
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

		const done = env.logger
			.capture(call.logs, async () => await handle(req, res, call))
			.catch((error: Error) => {
				call.harnessError = error;
				env.logger.error(`Harness failure while serving ${call.method} ${call.path}: ${error.message}`, { error });
				if (!res.headersSent) {
					res.statusCode = 500;
					res.end(JSON.stringify(errorBody(500, `Harness failure: ${error.message}`)));
				}
			})
			.finally(() => {
				// n8n would leave a response the node took over (noWebhookResponse) and never wrote open until the
				// client gives up; ending it keeps a test from hanging on a node bug.
				if (!res.writableEnded) res.end();
				running.delete(done);
			});
		running.add(done);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const idle = async (): Promise<void> => {
		while (running.size > 0) await Promise.allSettled([...running]);
	};

	const webhookOf = (pathOrNodeName?: string): RegisteredWebhook | undefined => {
		const target = pathOrNodeName ?? webhooks[0].node;
		return webhooks.find((webhook) => webhook.node === target || webhook.path === target.replace(/^\/+/, ''));
	};

	const waitFor = async <T>(list: T[], count: number, what: string, timeoutMs?: number): Promise<T[]> => {
		const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
		for (;;) {
			await idle();
			if (list.length >= count && running.size === 0) return list;
			if (Date.now() > deadline) {
				throw new UnexpectedError(`Waited ${timeoutMs} ms for ${count} ${what}, got ${list.length}.`);
			}
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
	};

	const urlOf = (pathOrNodeName?: string, kind: WebhookUrlKind = 'production'): string => {
		const path = webhookOf(pathOrNodeName)?.path ?? (pathOrNodeName ?? '').replace(/^\/+/, '');
		return `${baseUrl}/${kind === 'test' ? 'webhook-test' : 'webhook'}/${path}`;
	};

	const send = async (pathOrNodeName: string | undefined, body?: unknown, sendOptions: SendOptions = {}): Promise<HttpReply> => {
		const target = new URL(urlOf(pathOrNodeName, sendOptions.kind));
		const headers: Record<string, string> = { ...sendOptions.headers };
		const hasContentType = Object.keys(headers).some((key) => key.toLowerCase() === 'content-type');
		let payload: Buffer | undefined;
		if (Buffer.isBuffer(body)) payload = body;
		else if (typeof body === 'string') payload = Buffer.from(body, 'utf8');
		else if (body !== undefined) {
			payload = Buffer.from(JSON.stringify(body), 'utf8');
			if (!hasContentType) headers['Content-Type'] = 'application/json';
		}
		if (payload !== undefined) headers['Content-Length'] = String(payload.length);
		const reply = await new Promise<HttpReply>((resolve, reject) => {
			const outgoing = httpRequest(
				target,
				{ method: sendOptions.method ?? webhookOf(pathOrNodeName)?.httpMethod ?? 'POST', headers },
				(incoming) => {
					const chunks: Buffer[] = [];
					incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
					incoming.on('end', () => {
						const text = Buffer.concat(chunks).toString('utf8');
						resolve({
							status: incoming.statusCode ?? 0,
							headers: incoming.headers,
							text,
							json: <T>() => JSON.parse(text) as T,
						});
					});
					incoming.on('error', reject);
				},
			);
			outgoing.on('error', reject);
			outgoing.end(payload);
		});
		if (sendOptions.waitForExecutions !== false) await idle();
		return reply;
	};

	let closing: Promise<void> | undefined;
	if (options.activate !== false) {
		try {
			await runSetupMethod('create', 'activate');
		} catch (error) {
			await new Promise<void>((resolve) => server.close(() => resolve()));
			throw error;
		}
	}

	return {
		baseUrl,
		url: urlOf,
		executions,
		calls,
		activations,
		staticData: (nodeName) => structuredClone((nodeName === undefined ? storedStaticData : storedStaticData[`node:${nodeName}`] ?? {}) as IDataObject),
		setStaticData: (data) => {
			storedStaticData = structuredClone(data);
		},
		resetStaticData: () => {
			storedStaticData = {};
		},
		idle,
		waitForExecutions: async (count, timeoutMs) => await waitFor(executions, count, 'executions', timeoutMs),
		waitForCalls: async (count, timeoutMs) => await waitFor(calls, count, 'calls', timeoutMs),
		send,
		workflow: prepared,
		close: async () => {
			closing ??= (async () => {
				await idle();
				try {
					if (options.activate !== false) await runSetupMethod('delete', 'update');
				} finally {
					server.closeAllConnections();
					await new Promise<void>((resolve) => server.close(() => resolve()));
				}
			})();
			await closing;
		},
	};
}

export type { WebhookRequest, WebhookResponse };
