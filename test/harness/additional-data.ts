import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import type { IncomingMessage, ServerResponse } from 'http';
import type { IWorkflowBase, IWorkflowExecuteAdditionalData, WorkflowExecuteMode } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials-helper';

let lastExecutionId = 0;

/** Execution ids as n8n's database hands them out: increasing integers, as strings. */
export function nextExecutionId(): string {
	lastExecutionId += 1;
	return String(lastExecutionId);
}

export interface AdditionalDataOptions {
	credentialsHelper: HarnessCredentialsHelper;
	executionId: string;
	workflowId: string;
	hooks?: ExecutionLifecycleHooks;
	/** Base of the instance URLs (webhook, form, REST); a webhook server passes its own address. */
	baseUrl?: string;
	httpRequest?: IncomingMessage;
	httpResponse?: ServerResponse;
	/** Milliseconds from now after which WorkflowExecute stops the run, like the workflow "Timeout" setting. */
	timeoutMs?: number;
}

function unsupported(what: string): never {
	throw new UnexpectedError(`${what} is not available in the n8n test harness`);
}

/**
 * The per-execution data n8n's server builds in `WorkflowExecuteAdditionalData.getBase()`, reduced to what a
 * node package uses: credentials, the execution id, lifecycle hooks, instance URLs and the HTTP request/response
 * of a webhook call. Sub-workflows, task runners and AI features throw a clear error if a node reaches them.
 */
export function buildAdditionalData(options: AdditionalDataOptions): IWorkflowExecuteAdditionalData {
	const base = (options.baseUrl ?? 'http://127.0.0.1:5678').replace(/\/+$/, '');
	return {
		credentialsHelper: options.credentialsHelper,
		executionId: options.executionId,
		workflowId: options.workflowId,
		hooks: options.hooks,
		externalSecretsProxy: new ExternalSecretsProxy(),
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: base,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		variables: {},
		executionTimeoutTimestamp: options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs,
		httpRequest: options.httpRequest as IWorkflowExecuteAdditionalData['httpRequest'],
		httpResponse: options.httpResponse as IWorkflowExecuteAdditionalData['httpResponse'],
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		executeWorkflow: async () => unsupported('Executing a sub-workflow'),
		startRunnerTask: async () => unsupported('The task runner (Code node)'),
	};
}

/** Lifecycle hooks that record the order nodes finished in and hand back the run when the workflow ends. */
export function recordingHooks(
	mode: WorkflowExecuteMode,
	executionId: string,
	workflowData: IWorkflowBase,
): { hooks: ExecutionLifecycleHooks; executedNodes: string[] } {
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const executedNodes: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executedNodes.push(nodeName);
	});
	return { hooks, executedNodes };
}
