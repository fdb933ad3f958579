import type { IncomingMessage, ServerResponse } from 'http';
import { WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WebhookResponseData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError, isNodeClassInstance } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import type { HarnessEnvironment } from './environment';
import type { WebhookRequest, WebhookResponse } from './http';
import { asWebhookRequest, asWebhookResponse, parseBody } from './http';
import type { RunResult } from './run';
import { execute } from './run';
import type { StaticDataStore } from './static-data';
import { passHold, type StartHold } from './start-hold';
import { errorBody, lastNodeResponse, onReceivedBody, sendStatic } from './webhook-answers';
import type { RegisteredWebhook } from './webhook-routes';
import { route } from './webhook-routes';
import type { StaticDataSaveOrder, WebhookCall, WebhookExecution, WebhookUrlKind } from './webhook-types';
import type { PreparedWorkflow } from './workflow';

/** What every call of one served workflow shares. */
export interface Served {
	env: HarnessEnvironment;
	prepared: PreparedWorkflow;
	webhooks: RegisteredWebhook[];
	store: StaticDataStore;
	saveOrder: StaticDataSaveOrder;
	executions: WebhookExecution[];
	/** How many of the next executions fail to start, as when n8n's database or Redis fails at that moment. */
	startFailures: number;
	/** While set, every execution start waits here, as n8n's does on a slow database (WebhookServer.holdExecutionStarts). */
	startHold?: StartHold;
	/** http://127.0.0.1:<port>, once the server listens. */
	baseUrl: string;
}

/** A call that reached a webhook: the request and response, and a workflow instance of its own. */
interface RoutedCall {
	served: Served;
	call: WebhookCall;
	request: WebhookRequest;
	response: WebhookResponse;
	webhook: RegisteredWebhook;
	kind: WebhookUrlKind;
	mode: WorkflowExecuteMode;
	/** The request's workflow, over the request's own copy of the stored static data. */
	workflow: Workflow;
	/** The plain object the workflow's static data wraps: n8n 2.x wraps it again when it starts the execution. */
	staticData: IDataObject;
	node: INode;
}

/** The execution a call may start, and what the webhook's description says of the answer. */
interface CallRun {
	executionId: string;
	additionalData: IWorkflowExecuteAdditionalData;
	webhookData: IWebhookData;
	describe: <T>(property: keyof IWebhookDescription, fallback?: string | number | boolean) => T | undefined;
	responseMode: string;
	responseCode: number;
	responseData: string | undefined;
}

const responded = (response: WebhookResponse) => response.headersSent || response.writableEnded;

/**
 * One request, the way n8n 2.40's webhook server takes it (LiveWebhooks.executeWebhook, then WebhookHelpers.
 * executeWebhook): routed to its webhook, its body parsed, the node's webhook() run on the request's own copy of
 * the static data; an emission starts the execution on a fresh copy (startExecution); the answer saves the
 * request's copy, the end of the run the execution's (the order: StaticDataSaveOrder).
 */
export async function serveCall(
	served: Served,
	req: IncomingMessage,
	res: ServerResponse,
	call: WebhookCall,
): Promise<void> {
	const routed = await routeCall(served, req, res, call);
	if (routed === undefined || !bodyParsed(routed)) return;
	const run = prepareRun(routed);
	const { answer, startError } = await callWebhookMethod(routed, run);
	applyResponseHeaders(routed, run);
	const nodeAnswered = answer.noWebhookResponse === true;
	if (answer.workflowData === undefined) {
		saveRequestCopy(routed);
		if (!responded(routed.response) && !nodeAnswered) {
			sendStatic(
				routed.response,
				run.responseCode,
				answer.webhookResponse !== undefined ? answer.webhookResponse : { message: 'Webhook call received' },
			);
		}
		return;
	}
	// executeWebhook calls back at once for a node that answered itself, before it starts the run: LiveWebhooks
	// saves then. A webhook() that threw was called back with its error, which saves nothing.
	if (nodeAnswered && startError === undefined) saveRequestCopy(routed);
	const workflow = executionWorkflow(routed);
	// Only a held start waits: an await on every start would let a short run end before the request's save.
	if (served.startHold !== undefined) await passHold(served.startHold);
	const started = startExecution(routed, run, workflow, answer.workflowData, startError);
	if (started === undefined) {
		// n8n answers the error and saves no static data; nothing runs.
		sendStatic(routed.response, 500, errorBody(0, 'There was a problem executing the workflow'));
		return;
	}
	if (run.responseMode === 'onReceived' && !nodeAnswered) {
		if (served.saveOrder === 'execution-first') await started;
		saveRequestCopy(routed);
		if (!responded(routed.response))
			sendStatic(routed.response, run.responseCode, onReceivedBody(run.responseData, answer));
	}
	const result = await started;
	// An answer that waited for the run: n8n calls back once the run ended, its save (hookFunctionsSave) done.
	if (run.responseMode !== 'onReceived' && !nodeAnswered) await answerAfterRun(routed, run, result);
}

/**
 * LiveWebhooks.executeWebhook's response callback: `workflowStaticDataService.saveStaticData(workflow)` on the
 * request's workflow, which stores its copy if a change is still marked. Test URLs save nothing
 * (TestWebhooks.executeWebhook's callback only answers).
 */
function saveRequestCopy(routed: RoutedCall): void {
	if (routed.kind !== 'test') routed.served.store.save(routed.workflow);
}

/** Reads the body and finds the webhook; a path no webhook serves is answered 404. */
async function routeCall(
	served: Served,
	req: IncomingMessage,
	res: ServerResponse,
	call: WebhookCall,
): Promise<RoutedCall | undefined> {
	const url = new URL(req.url ?? '/', served.baseUrl);
	const response = asWebhookResponse(res);
	const request = asWebhookRequest(req, url.pathname);
	await request.readRawBody();
	const { kind, webhookPath, found } = route(served.webhooks, req.method ?? 'GET', url.pathname);
	call.rawBody = request.rawBody;
	call.kind = kind;
	if (found === undefined || kind === undefined) {
		sendStatic(
			response,
			404,
			errorBody(404, `The requested webhook "${req.method} ${webhookPath}" is not registered.`),
		);
		return undefined;
	}
	call.node = found.webhook.node;
	request.params = found.params;
	// LiveWebhooks.executeWebhook: the workflow loaded from the database, and a Workflow over its static data.
	const staticData = served.store.load();
	const workflow = served.prepared.instantiate(staticData);
	const node = workflow.getNode(found.webhook.node) as INode;
	return {
		served,
		call,
		request,
		response,
		webhook: found.webhook,
		kind,
		mode: kind === 'test' ? 'manual' : 'webhook',
		workflow,
		staticData,
		node,
	};
}

/**
 * WorkflowRunner.run(runData, loadStaticData = true) for a new execution, in its order:
 * 1. establishContextForPersistence builds a second Workflow over the request's static data object, which marks it
 *    unchanged again (ObservableObject.create defines `__dataChanged: false` on it);
 * 2. prepareNewExecution loads the static data afresh (WorkflowStaticDataService.getStaticDataById): the execution
 *    runs on that copy, loaded before the request saves its own, and runMainProcess builds its Workflow over it;
 * 3. ActiveExecutions.add stores the execution, its items as JSON (ExecutionPersistence.create), which a slow
 *    database holds (holdStarts), or fails to (the database or, in queue mode, Redis): then nothing runs;
 * 4. runMainProcess starts WorkflowExecute.processRunExecutionData and returns without waiting for it.
 * Resolves with the run once it ended and its static data, if a node changed it, was saved (hookFunctionsSave).
 * Undefined when the start failed.
 */
function startExecution(
	routed: RoutedCall,
	run: CallRun,
	workflow: Workflow,
	workflowData: INodeExecutionData[][],
	startError: Error | undefined,
): Promise<RunResult> | undefined {
	const { served } = routed;
	JSON.stringify(workflowData);
	if (served.startFailures > 0) {
		served.startFailures -= 1;
		return undefined;
	}
	return runTriggered(routed, run, workflow, workflowData, startError);
}

/** Steps 1 and 2 of startExecution: the request's copy unmarked, and the execution's own copy loaded. */
function executionWorkflow(routed: RoutedCall): Workflow {
	routed.served.prepared.instantiate(routed.staticData);
	return routed.served.prepared.instantiate(routed.served.store.load());
}

/** n8n parses JSON, form and text bodies (any body for a version-1 node); a malformed one is answered 422. */
function bodyParsed({ node, request, response }: RoutedCall): boolean {
	if (
		node.typeVersion !== 1 &&
		!/^(application\/json|text\/plain|application\/x-www-form-urlencoded)$/.test(request.contentType ?? '')
	)
		return true;
	try {
		parseBody(request);
		return true;
	} catch (error) {
		sendStatic(response, 422, errorBody(422, 'Failed to parse request body', (error as Error).message));
		return false;
	}
}

function prepareRun(routed: RoutedCall): CallRun {
	const { served, workflow, node, webhook, mode } = routed;
	const executionId = nextExecutionId();
	const additionalData = buildAdditionalData({
		credentialsHelper: served.prepared.credentialsHelper,
		executionId,
		workflowId: served.prepared.id,
		baseUrl: served.baseUrl,
		httpRequest: routed.request,
		httpResponse: routed.response,
	});
	const webhookData: IWebhookData = {
		...webhook,
		workflowId: served.prepared.id,
		workflowExecuteAdditionalData: additionalData,
		isTest: routed.kind === 'test',
	};
	const additionalKeys: IWorkflowDataProxyAdditionalKeys = { $executionId: executionId };
	const describe = <T>(property: keyof IWebhookDescription, fallback?: string | number | boolean): T | undefined => {
		const value = webhook.webhookDescription[property as string];
		if (value === undefined) return fallback as T | undefined;
		return workflow.expression.getSimpleParameterValue(node, value, mode, additionalKeys, undefined, fallback) as T;
	};
	return {
		executionId,
		additionalData,
		webhookData,
		describe,
		responseMode: describe<string>('responseMode', 'onReceived') ?? 'onReceived',
		responseCode: describe<number>('responseCode', 200) ?? 200,
		responseData: describe<string>('responseData'),
	};
}

/** The node's webhook(). One that throws is answered 500 as n8n does; its workflow still runs, failing at the trigger. */
async function callWebhookMethod(
	routed: RoutedCall,
	run: CallRun,
): Promise<{ answer: IWebhookResponseData; startError?: Error }> {
	const { workflow, node, mode } = routed;
	try {
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		if (nodeType.webhook === undefined) throw new UnexpectedError('Node does not have any webhooks defined');
		const context = new WebhookContext(workflow, node, run.additionalData, mode, run.webhookData, [], null);
		const answer = isNodeClassInstance(nodeType)
			? await nodeType.webhook(context)
			: ((await nodeType.webhook.call(context)) as IWebhookResponseData);
		return { answer };
	} catch (error) {
		// n8n answers with a generic message (the cause stays in the execution) and still runs the workflow,
		// which then fails at the trigger with the error.
		routed.served.env.logger.error(`Webhook node "${node.name}" failed: ${(error as Error).message}`, { error });
		sendStatic(routed.response, 500, errorBody(0, 'Workflow Webhook Error: Workflow could not be started!'));
		return { answer: { noWebhookResponse: true, workflowData: [[{ json: {} }]] }, startError: error as Error };
	}
}

/** n8n applies the description's responseHeaders ({ entries: [{ name, value }] }) to any answer it writes. */
function applyResponseHeaders(routed: RoutedCall, run: CallRun): void {
	if (routed.webhook.webhookDescription.responseHeaders === undefined) return;
	const headers = run.describe<{ entries?: Array<{ name: string; value: string }> }>('responseHeaders');
	if (!responded(routed.response))
		for (const entry of headers?.entries ?? []) routed.response.setHeader(entry.name, entry.value);
}

/**
 * The rest of the workflow, from the trigger with what it emitted, on the execution's own workflow and static data;
 * recorded as one of the server's executions.
 */
async function runTriggered(
	routed: RoutedCall,
	run: CallRun,
	workflow: Workflow,
	workflowData: INodeExecutionData[][],
	startError: Error | undefined,
): Promise<RunResult> {
	const { served, call } = routed;
	call.executionId = run.executionId;
	const result = await execute({
		prepared: served.prepared,
		workflow,
		mode: routed.mode,
		startNode: routed.node.name,
		startData: workflowData,
		executionId: run.executionId,
		logs: call.logs,
		additionalData: { baseUrl: served.baseUrl },
		startError,
		saveStaticData: (newStaticData) => served.store.saveWhole(newStaticData),
	});
	served.executions.push({ items: workflowData[0] ?? [], workflowData, result, call });
	return result;
}

/**
 * An answer that waited for the run: n8n's error, or the last node's items ("When last node finishes"). Each is
 * a response callback that saves the request's copy first, but for an error of reading the last node's items.
 */
async function answerAfterRun(routed: RoutedCall, run: CallRun, result: RunResult): Promise<void> {
	const { response } = routed;
	if (result.executionError !== undefined) {
		saveRequestCopy(routed);
		sendStatic(response, 500, { message: 'Error in workflow' });
	} else if (run.responseMode === 'lastNode') {
		const reply = await lastNodeResponse(
			result,
			run.responseData as WebhookResponseData | undefined,
			run.describe<string>('responsePropertyName'),
		);
		if (reply instanceof Error) sendStatic(response, 500, errorBody(0, reply.message));
		else {
			saveRequestCopy(routed);
			if (reply.contentType !== undefined) response.setHeader('Content-Type', reply.contentType);
			sendStatic(response, run.responseCode, reply.body);
		}
	} else {
		sendStatic(response, 500, errorBody(0, `Response mode "${run.responseMode}" is not supported by the test harness`));
	}
}
