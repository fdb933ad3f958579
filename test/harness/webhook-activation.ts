import { HookContext } from 'n8n-core';
import type { INode, IWebhookData, WebhookSetupMethodNames, Workflow, WorkflowActivateMode } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import type { Served } from './webhook-call';
import type { RegisteredWebhook } from './webhook-routes';
import type { ActivationCall } from './webhook-types';

/**
 * What activating and deactivating a workflow runs of each webhook's `webhookMethods`: `checkExists`, then
 * `create` when it answered false; or `delete`. Each call is recorded; static data they change is saved.
 */
export async function runSetupMethods(
	served: Served,
	activations: ActivationCall[],
	method: 'create' | 'delete',
	activation: WorkflowActivateMode,
): Promise<void> {
	const workflow = served.prepared.instantiate(served.store.load());
	for (const webhook of served.webhooks) {
		const call = setupCaller(served, activations, workflow, webhook, activation);
		if (method === 'delete') await call('delete');
		else if (!(await call('checkExists'))) await call('create');
	}
	served.store.save(workflow);
}

/** Calls one of a webhook's setup methods in n8n-core's HookContext, if the node has it. */
function setupCaller(
	served: Served,
	activations: ActivationCall[],
	workflow: Workflow,
	webhook: RegisteredWebhook,
	activation: WorkflowActivateMode,
): (name: WebhookSetupMethodNames) => Promise<unknown> {
	const node = workflow.getNode(webhook.node) as INode;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const setup = nodeType.webhookMethods?.[webhook.webhookDescription.name];
	const additionalData = buildAdditionalData({
		credentialsHelper: served.prepared.credentialsHelper,
		executionId: '',
		workflowId: served.prepared.id,
		baseUrl: served.baseUrl,
	});
	const webhookData: IWebhookData = {
		...webhook,
		workflowId: served.prepared.id,
		workflowExecuteAdditionalData: additionalData,
	};
	const context = new HookContext(workflow, node, additionalData, 'trigger', activation, webhookData);
	return async (name) => {
		const fn = setup?.[name];
		if (fn === undefined) return undefined;
		const result = await served.env.logger.capture([], async () => (await fn.call(context)) as unknown);
		activations.push({ node: node.name, method: name, result });
		return result;
	};
}
