import { Container } from '@n8n/di';
import { BinaryDataService, getHtmlSandboxCSP, isWebhookHtmlSandboxingDisabled } from 'n8n-core';
import type { IDataObject, IWebhookResponseData, WebhookResponseData } from 'n8n-workflow';
import { BINARY_ENCODING, UnexpectedError } from 'n8n-workflow';

import type { WebhookResponse } from './http';
import type { RunResult } from './run';

/** The answers n8n's webhook server writes itself, as opposed to those a node writes. */

export function errorBody(code: number, message: string, hint?: string): IDataObject {
	return hint === undefined ? { code, message } : { code, message, hint };
}

/** Sends an answer unless one was sent already, with n8n's sandboxing header. */
export function sendStatic(res: WebhookResponse, code: number, body: unknown): void {
	if (res.headersSent || res.writableEnded) return;
	res.status(code);
	if (!isWebhookHtmlSandboxingDisabled()) res.setHeader('Content-Security-Policy', getHtmlSandboxCSP());
	if (body === undefined) res.end();
	else if (typeof body === 'string' || Buffer.isBuffer(body)) res.send(body);
	else res.json(body);
}

/** The answer of "Immediately" (onReceived) mode once the trigger emitted: `responseData`, the node's, or n8n's message. */
export function onReceivedBody(responseData: string | undefined, answer: IWebhookResponseData): unknown {
	if (responseData === 'noData') return undefined;
	if (responseData) return responseData;
	return answer.webhookResponse !== undefined ? answer.webhookResponse : { message: 'Workflow was started' };
}

/** The answer in "When last node finishes" mode, as n8n's last-node response extractor builds it. */
export async function lastNodeResponse(
	result: RunResult,
	responseData: WebhookResponseData | undefined,
	responsePropertyName: string | undefined,
): Promise<{ body: unknown; contentType?: string } | Error> {
	const lastNode = result.run.data.resultData.lastNodeExecuted;
	const taskData = lastNode === undefined ? undefined : result.runData[lastNode]?.at(-1);
	if (taskData === undefined)
		return { body: { message: 'Workflow executed successfully but the last node did not return any data' } };
	const first = taskData.data?.main?.[0];
	if (responseData === 'noData') return { body: undefined };
	if (responseData === 'firstEntryJson') {
		if (!first?.length) return new UnexpectedError('No item to return was found');
		let body: unknown = first[0].json;
		if (responsePropertyName !== undefined) {
			body = responsePropertyName
				.split('.')
				.reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], body);
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
