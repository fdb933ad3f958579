import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ACKNOWLEDGEMENT, IDENTIFYING_FIELDS } from '../shared/contract/callback';
import { settingsFor } from '../shared/signing/settings';
import { readCallback } from './body';
import {
	assess,
	integerStatus,
	isPrototypeName as isPrototypeOwn,
	outputView,
	signedView,
	REJECTION_STATUS,
	REJECTION_TEXT,
	type TriggerOptions,
} from './callback';
import { confirmWithHaiPay } from './confirm';
import { dedupKey, DEFAULT_WINDOW_MINUTES, finalBefore, processMemory, recallShared, rememberShared } from './dedup';
import { shown, type KindSetting, type StatusChoice } from './filters';
import { triggerProperties } from './description';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/** HaiPay stops resending only when the body is exactly this text. */

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

/** What HaiPay reads when a callback could not be confirmed yet: not SUCCESS, so it sends the callback again. */
const NOT_YET = 'Not confirmed yet: send it again later';
/** What HaiPay reads for a callback whose signed string could be read as other fields. */
const AMBIGUOUS = 'Rejected: the signed fields are ambiguous';

/** Identifying fields of a callback for a log line; never its signature, never a key. */
function logContext(body: Record<string, unknown> | undefined): IDataObject {
	if (body === undefined) return {};
	const context: IDataObject = { fields: Object.keys(body).slice(0, 40).map(shown).join(',') };
	for (const name of IDENTIFYING_FIELDS) {
		if (body[name] !== undefined) context[name] = shown(body[name]);
	}
	return context;
}

interface Options extends TriggerOptions {
	deduplicate: boolean;
	windowMinutes: number;
	confirm: boolean;
}

function readOptions(context: IWebhookFunctions): Options {
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
		confirm: options.confirmWithHaiPay === true,
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
		// A full URL is opened as it is; a codex link would get n8n's "?utm_…" appended after its #anchor.
		documentationUrl: 'https://github.com/haipay-n8n/n8n-nodes-haipay#the-haipay-trigger',
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
		const received = readCallback(this.getRequestObject().rawBody, this.getBodyData());
		if (!received.ok) {
			// Refused by size or shape before the credential is read or any signature work is done.
			const code = REJECTION_STATUS[received.problem];
			this.logger.warn(`HaiPay Trigger refused a callback with ${code}: ${received.log}`, { reason: received.problem });
			answer(res, code, REJECTION_TEXT[received.problem]);
			return { noWebhookResponse: true };
		}
		const credentialData = await this.getCredentials('haiPayApi');
		const settings = settingsFor(credentialData);
		const options = readOptions(this);
		const assessment = await assess(received, settings, options);
		const body = outputView(received.body);
		const context = logContext(signedView(received.body));

		if (assessment.action === 'reject') {
			const code = REJECTION_STATUS[assessment.reason];
			this.logger.warn(`HaiPay Trigger refused a callback with ${code}: ${assessment.log}`, { ...context, reason: assessment.reason });
			answer(res, code, REJECTION_TEXT[assessment.reason]);
			return { noWebhookResponse: true };
		}
		if (assessment.action === 'acknowledge') {
			this.logger.info(`HaiPay Trigger acknowledged a callback without starting the workflow: ${assessment.log}`, context);
			answer(res, 200, ACKNOWLEDGEMENT);
			return { noWebhookResponse: true };
		}

		const acknowledge = (why: string): IWebhookResponseData => {
			this.logger.info(`HaiPay Trigger acknowledged a callback without starting the workflow: ${why}`, context);
			answer(res, 200, ACKNOWLEDGEMENT);
			return { noWebhookResponse: true };
		};
		const notYet = (code: number, text: string, why: string): IWebhookResponseData => {
			this.logger.warn(`HaiPay Trigger answered a callback with ${code}, so HaiPay sends it again: ${why}`, context);
			answer(res, code, text);
			return { noWebhookResponse: true };
		};

		const { ambiguity } = assessment;
		if (ambiguity !== undefined) {
			const where = `the ${ambiguity.part === 'name' ? 'name' : 'value'} of the field ${shown(ambiguity.field)} holds ${ambiguity.character}, so its signed string could be read as other fields`;
			if (ambiguity.identifying) return notYet(422, AMBIGUOUS, `${where}; a field that names the order must never hold one`);
			if (!options.confirm) {
				return notYet(422, AMBIGUOUS, `${where}; turn on Confirm With HaiPay to accept such a callback once HaiPay's order query confirms it, or query the order`);
			}
		}

		const scope = `${this.getWorkflow().id ?? ''}/${this.getNode().id}`;
		const data = this.getWorkflowStaticData('node');
		const now = Math.floor(Date.now() / 1000);
		const windowSeconds = options.windowMinutes * 60;
		const key = dedupKey(body);
		const recall = recallShared(scope, data, SEEN_KEY, now, windowSeconds);
		const final = finalBefore(recall, body);
		if (final !== undefined) {
			return acknowledge(`its status ${shown(body.status)} comes before the final status ${final} already emitted for this order: an old callback sent again`);
		}
		if (options.deduplicate && key !== undefined && recall(key)) {
			return acknowledge(`a repeated callback (same orderNo and status within ${options.windowMinutes} minutes)`);
		}

		let item = assessment.item;
		if (options.confirm) {
			const memory = processMemory(scope);
			const inFlight = key ?? '';
			if (memory.confirming.has(inFlight)) return notYet(503, NOT_YET, 'the same callback is being confirmed with HaiPay now');
			memory.confirming.add(inFlight);
			let confirmation;
			try {
				// The credential as read for this request, so that n8n does not decrypt it again for the query.
				const reference = this.getNode().credentials?.haiPayApi;
				const credential = { id: reference?.id ?? '', name: reference?.name ?? 'HaiPay API', type: 'haiPayApi', data: credentialData };
				confirmation = await confirmWithHaiPay(this, settings, assessment.order, options.kind, credential);
			} finally {
				memory.confirming.delete(inFlight);
			}
			if (confirmation.result === 'retry') return notYet(503, NOT_YET, `not confirmed with HaiPay: ${confirmation.log}`);
			if (confirmation.result === 'stale') return acknowledge(`not confirmed with HaiPay: ${confirmation.log}`);
			// An ambiguous callback's own fields cannot be told apart: what HaiPay's query answered stands in for them.
			if (ambiguity !== undefined) item = confirmedItem(assessment.item, confirmation.data);
			item.confirmed = true;
		}

		if (key !== undefined) {
			const result = rememberShared(scope, data, SEEN_KEY, key, now, windowSeconds);
			if (result.duplicate && options.deduplicate) {
				return acknowledge(`a repeated callback (same orderNo and status within ${options.windowMinutes} minutes)`);
			}
		}

		if (!options.verifySignature) {
			this.logger.warn('HaiPay Trigger accepted a callback without checking its signature: verification is turned off', context);
		}
		return { webhookResponse: ACKNOWLEDGEMENT, workflowData: [[{ json: item }]] };
	}
}

/** The item of an ambiguous callback: every field HaiPay's signed query answer has replaces the callback's. */
function confirmedItem(item: IDataObject, data: IDataObject): IDataObject {
	const confirmed: IDataObject = { ...item };
	for (const name of Object.keys(data)) {
		if (name === 'sign' || isPrototypeOwn(name)) continue;
		const value = data[name];
		confirmed[name] = name === 'status' ? (integerStatus(value) as IDataObject[string]) : value;
	}
	return confirmed;
}
