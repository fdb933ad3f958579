import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { settingsOf } from '../HaiPay/transport/settings';
import { assess, readBody, REJECTION_TEXT, type TriggerOptions } from './callback';
import { dedupKey, DEFAULT_WINDOW_MINUTES, rememberShared } from './dedup';
import { shown, type KindSetting, type StatusChoice } from './filters';
import { triggerProperties } from './description';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/** HaiPay stops resending only when the body is exactly this text. */
const ACKNOWLEDGEMENT = 'SUCCESS';

/** Where the node remembers the URL it told the user about, and what it has emitted. */
const URL_KEY = 'notifyUrl';
const SEEN_KEY = 'seenCallbacks';

/**
 * Every answer is written here rather than left to n8n, so that HaiPay always reads plain text: `SUCCESS`, or a
 * 401 with a short reason.
 */
function answer(res: Response, code: number, text: string): void {
	res.status(code);
	res.setHeader('Content-Type', 'text/plain; charset=utf-8');
	res.end(text);
}

/** Identifying fields of a callback for a log line; never its signature, never a key. */
function logContext(body: Record<string, unknown> | undefined): IDataObject {
	if (body === undefined) return {};
	const context: IDataObject = { fields: Object.keys(body).slice(0, 40).map(shown).join(',') };
	for (const name of ['appId', 'orderId', 'orderNo', 'status', 'currency']) {
		if (body[name] !== undefined) context[name] = shown(body[name]);
	}
	return context;
}

function readOptions(context: IWebhookFunctions): TriggerOptions & { deduplicate: boolean; windowMinutes: number } {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const statuses = context.getNodeParameter('statuses', ['any']) as StatusChoice[];
	const window = Number(options.deduplicationWindow ?? DEFAULT_WINDOW_MINUTES);
	return {
		kind: context.getNodeParameter('kind', 'either') as KindSetting,
		statuses: Array.isArray(statuses) ? statuses : ['any'],
		currency: String(context.getNodeParameter('currency', '') ?? '').toUpperCase(),
		verifySignature: context.getNodeParameter('verifySignature', true) !== false,
		includeRawBody: options.includeRawBody === true,
		deduplicate: options.deduplicate !== false,
		windowMinutes: Number.isFinite(window) && window > 0 ? window : DEFAULT_WINDOW_MINUTES,
	};
}

export class HaiPayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'HaiPay Trigger',
		name: 'haiPayTrigger',
		icon: { light: 'file:../../icons/haipay.svg', dark: 'file:../../icons/haipay.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ {"payout": "Payout results", "collection": "Collection results", "either": "Payout and collection results"}[$parameter["kind"]] }}',
		description: 'Starts the workflow when HaiPay sends a signed payout or collection result',
		defaults: { name: 'HaiPay Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'haiPayApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				path: 'webhook',
				// An accepted callback is answered by n8n once the execution is stored: if n8n cannot store it, HaiPay
				// hears an error and sends the callback again, instead of reading SUCCESS for a result that is lost.
				responseMode: 'onReceived',
				responseData: ACKNOWLEDGEMENT,
				responseHeaders: '={{ { "entries": [{ "name": "Content-Type", "value": "text/plain; charset=utf-8" }] } }}',
			},
		],
		triggerPanel: {
			header: 'Put this URL in the notifyUrl of a HaiPay request, or in HaiPay\'s merchant portal',
			executionsHelp: {
				inactive:
					'While you build, click "Listen for test event", use the Test URL as notifyUrl, and settle an order: the callback shows here. Activate the workflow and use the Production URL for real callbacks.',
				active:
					'The workflow is active: HaiPay callbacks sent to the Production URL start it. Those executions are listed under Executions.',
			},
			activationHint:
				'Once HaiPay\'s requests carry the Production URL as notifyUrl, activate the workflow to receive their results.',
		},
		properties: triggerProperties,
	};

	/*
	 * HaiPay has no API to register a callback URL: the merchant puts it in each request's notifyUrl or in the
	 * merchant portal. These methods therefore only keep local state and tell the user where the URL goes.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node');
				return data[URL_KEY] !== undefined && data[URL_KEY] === this.getNodeWebhookUrl('default');
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const url = this.getNodeWebhookUrl('default');
				const data = this.getWorkflowStaticData('node');
				data[URL_KEY] = url;
				this.logger.info(
					`HaiPay Trigger is listening at ${url}. HaiPay has no API to register it: set it as notifyUrl in HaiPay requests or in HaiPay's merchant portal.`,
				);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node');
				const url = data[URL_KEY];
				delete data[URL_KEY];
				this.logger.info(
					`HaiPay Trigger stopped listening at ${String(url ?? this.getNodeWebhookUrl('default'))}. HaiPay keeps sending callbacks of orders that carry it, and resends them until a workflow answers SUCCESS.`,
				);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const res = this.getResponseObject();
		const settings = settingsOf(await this.getCredentials('haiPayApi'));
		const options = readOptions(this);
		const received = readBody(this.getRequestObject().rawBody, this.getBodyData());
		const assessment = assess(received, settings, options);
		const context = logContext(received?.body);

		if (assessment.action === 'reject') {
			this.logger.warn(`HaiPay Trigger refused a callback with 401: ${assessment.log}`, { ...context, reason: assessment.reason });
			answer(res, 401, REJECTION_TEXT[assessment.reason]);
			return { noWebhookResponse: true };
		}
		if (assessment.action === 'acknowledge') {
			this.logger.info(`HaiPay Trigger acknowledged a callback without starting the workflow: ${assessment.log}`, context);
			answer(res, 200, ACKNOWLEDGEMENT);
			return { noWebhookResponse: true };
		}

		const key = options.deduplicate && received !== undefined ? dedupKey(received.body) : undefined;
		if (key !== undefined) {
			const data = this.getWorkflowStaticData('node');
			const scope = `${this.getWorkflow().id ?? ''}/${this.getNode().id}`;
			const result = rememberShared(scope, data, SEEN_KEY, key, Math.floor(Date.now() / 1000), options.windowMinutes * 60);
			if (result.duplicate) {
				this.logger.info(
					`HaiPay Trigger acknowledged a repeated callback without starting the workflow again (same orderNo and status within ${options.windowMinutes} minutes)`,
					context,
				);
				answer(res, 200, ACKNOWLEDGEMENT);
				return { noWebhookResponse: true };
			}
		}

		if (!options.verifySignature) {
			this.logger.warn('HaiPay Trigger accepted a callback without checking its signature: verification is turned off', context);
		}
		return { webhookResponse: ACKNOWLEDGEMENT, workflowData: [[{ json: assessment.item }]] };
	}
}
