import type { IncomingHttpHeaders } from 'http';
import type { IDataObject, INodeExecutionData, WebhookSetupMethodNames } from 'n8n-workflow';

import type { LogLine } from './logger';
import type { RunResult } from './run';
import type { StaticDataStore } from './static-data';
import type { PreparedWorkflow, WorkflowDefinition } from './workflow';

/** What `webhookServer()` takes and gives, and what it records of each call. */

export type WebhookUrlKind = 'production' | 'test';

/**
 * Which of a request's two saves of static data comes last when n8n answers before the run ends ("Immediately"):
 * - 'request-first', the default: the request's copy is saved as it is answered, and the execution's copy at the end
 *   of the run, over it. What n8n 2.40 does unless the run ends before one database write does (its answer comes
 *   from `WorkflowRunner.run`'s return, the run goes on after it), and the order in which a run's save loses what
 *   the request wrote.
 * - 'execution-first': the run ends, and its copy is saved, before the request's copy is (a slow database); the
 *   answer waits for that save, as n8n's does.
 */
export type StaticDataSaveOrder = 'request-first' | 'execution-first';

export interface WebhookServerOptions extends WorkflowDefinition {
	/** Static data the workflow starts with (as if saved by an earlier activation or call). */
	staticData?: IDataObject;
	/**
	 * Where the workflow's static data is kept, in place of a store of its own (then `staticData` is not used): one
	 * store served by two servers is one workflow in one database taking requests on two n8n processes.
	 */
	staticDataStore?: StaticDataStore;
	/** Run each webhook's `webhookMethods` checkExists/create on start and delete on close. Default true. */
	activate?: boolean;
	/** Which save of static data comes last for a request answered before its run ends; default 'request-first'. */
	staticDataSaveOrder?: StaticDataSaveOrder;
	/** Static data saves are dropped: persistence broken on purpose. */
	dropStaticDataSaves?: boolean;
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
	/**
	 * The stored static data (what n8n's database holds): a node's part (`node:<name>`) when a node name is given,
	 * else all of it. Each request and each execution works on a copy of its own, loaded when it starts.
	 */
	staticData(nodeName?: string): IDataObject;
	setStaticData(data: IDataObject): void;
	resetStaticData(): void;
	/**
	 * The next `count` requests that would start the workflow fail to, as when n8n's database or Redis fails while
	 * it stores the execution: answered 500, nothing runs, and their static data is not saved.
	 */
	failExecutionStarts(count: number): void;
	/**
	 * Holds every execution start (after the trigger emitted, before n8n stores the execution and answers) until
	 * `release()`, as a slow database holds n8n's; `reached` resolves once a request waits there, and `waiting()`
	 * counts the starts that came to the hold.
	 */
	holdExecutionStarts(): { reached: Promise<void>; waiting(): number; release(): void };
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
