import type { IHttpRequestMethods, INode, IWebhookDescription, Workflow } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { WebhookUrlKind } from './webhook-types';

/** A webhook the served workflow registers: one per node, description and HTTP method. */
export interface RegisteredWebhook {
	httpMethod: IHttpRequestMethods;
	node: string;
	path: string;
	webhookDescription: IWebhookDescription;
	webhookId?: string;
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
		const methods = workflow.expression.getSimpleParameterValue(
			node,
			description.httpMethod,
			'internal',
			{},
			undefined,
			'GET',
		);
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

/** Every webhook of every node of the workflow. */
export function workflowWebhooks(workflow: Workflow): RegisteredWebhook[] {
	return workflow.queryNodes(() => true).flatMap((node) => nodeWebhooks(workflow, node));
}

/** Finds the webhook for a request path, with `:name` segments as parameters (n8n's dynamic webhooks). */
function match(
	webhooks: RegisteredWebhook[],
	method: string,
	path: string,
): { webhook: RegisteredWebhook; params: Record<string, string> } | undefined {
	const exact = webhooks.find((webhook) => webhook.httpMethod === method && webhook.path === path);
	if (exact) return { webhook: exact, params: {} };
	const segments = path.split('/');
	for (const webhook of webhooks) {
		if (webhook.httpMethod !== method) continue;
		const pattern = webhook.path.split('/');
		if (pattern.length !== segments.length) continue;
		const params: Record<string, string> = {};
		if (
			pattern.every((part, i) =>
				part.startsWith(':') ? ((params[part.slice(1)] = segments[i]), true) : part === segments[i],
			)
		) {
			return { webhook, params };
		}
	}
	return undefined;
}

/** Where a request goes: the URL kind its path starts with, the webhook path after it, and the webhook there if any. */
export interface Route {
	kind: WebhookUrlKind | undefined;
	webhookPath: string;
	found: { webhook: RegisteredWebhook; params: Record<string, string> } | undefined;
}

export function route(webhooks: RegisteredWebhook[], method: string, pathname: string): Route {
	const kind = pathname.startsWith('/webhook-test/')
		? 'test'
		: pathname.startsWith('/webhook/')
			? 'production'
			: undefined;
	const webhookPath = decodeURIComponent(pathname.replace(/^\/webhook(-test)?\//, '')).replace(/\/$/, '');
	return { kind, webhookPath, found: kind === undefined ? undefined : match(webhooks, method, webhookPath) };
}

/** A webhook by node name or by path; the first webhook when neither is given. */
export function webhookOf(webhooks: RegisteredWebhook[], pathOrNodeName?: string): RegisteredWebhook | undefined {
	const target = pathOrNodeName ?? webhooks[0].node;
	return webhooks.find((webhook) => webhook.node === target || webhook.path === target.replace(/^\/+/, ''));
}

/** The URL n8n would give a webhook (by node name or path), or a path that is none of them. */
export function webhookUrl(
	baseUrl: string,
	webhooks: RegisteredWebhook[],
	pathOrNodeName?: string,
	kind: WebhookUrlKind = 'production',
): string {
	const path = webhookOf(webhooks, pathOrNodeName)?.path ?? (pathOrNodeName ?? '').replace(/^\/+/, '');
	return `${baseUrl}/${kind === 'test' ? 'webhook-test' : 'webhook'}/${path}`;
}
