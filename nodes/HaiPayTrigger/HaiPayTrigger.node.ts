import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ACKNOWLEDGEMENT } from '../shared/contract/callback';
import { testHaiPayCredential } from '../shared/gateway/credentialTest';
import { settingsFor, type HaiPaySettings } from '../shared/signing/settings';
import { readCallback } from './body';
import {
	assess,
	integerStatus,
	isPrototypeName as isPrototypeOwn,
	outputView,
	signedView,
	REJECTION_STATUS,
	REJECTION_TEXT,
	type Assessment,
	type TriggerOptions,
} from './callback';
import { ANSWER_DEADLINE_MS, confirmWithHaiPay } from './confirm';
import { triggerCredential } from './credential';
import { confirmingNow, dedupKey, DEFAULT_WINDOW_MINUTES, finalBefore, finalMark } from './dedup';
import { openMemory, type RepeatMemory } from './memory';
import { shown, type KindSetting, type StatusChoice } from './filters';
import { CALLBACK_WEBHOOK, triggerProperties } from './description';
import { AMBIGUOUS, logContext, NOT_YET, repliesFor, type Replies } from './reply';

/** Where the node remembers the URL it told the user about, and what it has emitted. */
const URL_KEY = 'notifyUrl';

type Emitting = Extract<Assessment, { action: 'emit' }>;

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
		// 1.1 behaves as 1. n8n reads a version-1 webhook node's body through an expression evaluated on every
		// request (its v1 binary-data option), which 1.1 skips: about a fifth of a callback's cost.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{ {"payout": "Payout results", "collection": "Collection results", "either": "Payout and collection results"}[$parameter["kind"]] }}',
		description: 'Starts the workflow when HaiPay sends a signed payout or collection result',
		defaults: { name: 'HaiPay Trigger' },
		// A full URL is opened as it is; a codex link would get n8n's "?utm_…" appended after its #anchor.
		documentationUrl: 'https://github.com/haipay-n8n/n8n-nodes-haipay#the-haipay-trigger',
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'haiPayApi', required: true, testedBy: 'haiPayApiTest' }],
		webhooks: [CALLBACK_WEBHOOK],
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

	methods = { credentialTest: { haiPayApiTest: testHaiPayCredential } };

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
		// Every callback is answered within this: Confirm With HaiPay's queries stop at it (503, HaiPay resends).
		const deadline = Date.now() + ANSWER_DEADLINE_MS;
		const received = readCallback(this.getRequestObject().rawBody, this.getBodyData());
		if (!received.ok) {
			// Refused by size or shape before the credential is read or any signature work is done.
			const { problem } = received;
			return repliesFor(this, {}).refuse(REJECTION_STATUS[problem], REJECTION_TEXT[problem], received.log, { reason: problem });
		}
		const credentialData = await triggerCredential(this);
		const settings = settingsFor(credentialData);
		const options = readOptions(this);
		const assessment = await assess(received, settings, options);
		const context = logContext(signedView(received.body));
		const replies = repliesFor(this, context);
		if (assessment.action === 'reject') {
			const { reason } = assessment;
			return replies.refuse(REJECTION_STATUS[reason], REJECTION_TEXT[reason], assessment.log, { reason });
		}
		if (assessment.action === 'acknowledge') return replies.acknowledge(assessment.log);
		const ambiguous = ambiguityReply(assessment, options, replies);
		if (ambiguous !== undefined) return ambiguous;

		const body = outputView(received.body);
		const memory = emittedMemory(this, options, body);
		const repeated = repeatReply(memory, body, options, replies);
		if (repeated !== undefined) return repeated;

		let item = assessment.item;
		if (options.confirm) {
			const how = { settings: assessment.signer, credentialData, kind: options.kind, scope: memory.scope, key: memory.key, deadline };
			const step = await confirmStep(this, how, assessment);
			if (step.result !== 'confirmed') {
				const why = `not confirmed with HaiPay: ${step.log}`;
				return step.result === 'retry' ? replies.notYet(503, NOT_YET, why) : replies.acknowledge(why);
			}
			item = step.item;
		}
		if (memory.key !== undefined) {
			const fresh = memory.remember(memory.key);
			if (!fresh && options.deduplicate) {
				return replies.acknowledge(`a repeated callback (same orderNo and status within ${options.windowMinutes} minutes)`);
			}
			// A partial or over-collected result keys on its amount and time; its status is remembered on its own too.
			const mark = finalMark(body);
			if (mark !== undefined) memory.remember(mark);
			await memory.saved(deadline);
		}
		if (!options.verifySignature) {
			this.logger.warn('HaiPay Trigger accepted a callback without checking its signature: verification is turned off', context);
		}
		return { webhookResponse: ACKNOWLEDGEMENT, workflowData: [[{ json: item }]] };
	}
}

/**
 * The answer to a verified callback whose signed string could be read as other fields (a separator in a field, or
 * a field no callback is known to carry), or undefined to go on: only HaiPay's order query can settle it.
 */
function ambiguityReply(assessment: Emitting, options: Options, replies: Replies): IWebhookResponseData | undefined {
	const { ambiguity, unlisted } = assessment;
	if (ambiguity === undefined) return unlisted === undefined ? undefined : unlistedReply(unlisted, options, replies, assessment.order.kind === 'refund');
	const where = `the ${ambiguity.part === 'name' ? 'name' : 'value'} of the field ${shown(ambiguity.field)} holds ${ambiguity.character}, so its signed string could be read as other fields`;
	if (ambiguity.identifying) return replies.notYet(422, AMBIGUOUS, `${where}; a field that names the order must never hold one`);
	if (options.confirm) return undefined;
	return replies.notYet(
		422,
		AMBIGUOUS,
		`${where}; turn on Confirm With HaiPay to accept such a callback once HaiPay's order query confirms it, or query the order`,
	);
}

/** A callback with a field outside the contract's list: its signed text could be another split of known fields. */
function unlistedReply(field: string, options: Options, replies: Replies, refund: boolean): IWebhookResponseData | undefined {
	if (options.confirm) return undefined;
	if (refund) {
		const why = 'it names a refund (refundNo): HaiPay documents no refund callback, so its fields are not known';
		return replies.notYet(422, AMBIGUOUS, `${why}; turn on Confirm With HaiPay to accept it once HaiPay's refund query shows that refund with its status`);
	}
	return replies.notYet(
		422,
		AMBIGUOUS,
		`the field ${shown(field)} is not one HaiPay's callbacks are known to carry, so its signed text could have come from another field split in two; turn on Confirm With HaiPay to accept such a callback once HaiPay's order query confirms it (its fields then come from HaiPay's answer), or query the order`,
	);
}

/** What this trigger has emitted, within the repeat window (memory.ts), and this callback's key in it. */
interface EmittedMemory extends RepeatMemory {
	scope: string;
	key?: string;
}

function emittedMemory(ctx: IWebhookFunctions, options: Options, body: Record<string, unknown>): EmittedMemory {
	const scope = `${ctx.getWorkflow().id ?? ''}/${ctx.getNode().id}`;
	const memory = openMemory({
		scope,
		staticData: ctx.getWorkflowStaticData('node'),
		nowMs: Date.now(),
		windowSeconds: options.windowMinutes * 60,
		warn: (message) => ctx.logger.warn(message),
	});
	return { scope, key: dedupKey(body), recall: memory.recall, remember: memory.remember, saved: memory.saved };
}

/** SUCCESS without a run for an earlier status after a final one, or for a repeat; undefined for a new callback. */
function repeatReply(memory: EmittedMemory, body: Record<string, unknown>, options: Options, replies: Replies): IWebhookResponseData | undefined {
	const final = finalBefore(memory.recall, body);
	if (final !== undefined) {
		return replies.acknowledge(`its status ${shown(body.status)} comes before the final status ${final} already emitted for this order: an old callback sent again`);
	}
	if (options.deduplicate && memory.key !== undefined && memory.recall(memory.key)) {
		return replies.acknowledge(`a repeated callback (same orderNo and status within ${options.windowMinutes} minutes)`);
	}
	return undefined;
}

/** Confirm With HaiPay for one callback: at most one query of the same callback at a time in this process. */
async function confirmStep(
	ctx: IWebhookFunctions,
	how: { settings: HaiPaySettings; credentialData: ICredentialDataDecryptedObject; kind: KindSetting; scope: string; key?: string; deadline: number },
	assessment: Emitting,
): Promise<{ result: 'retry' | 'stale'; log: string } | { result: 'confirmed'; item: IDataObject }> {
	const confirming = confirmingNow(how.scope);
	const inFlight = how.key ?? '';
	if (confirming.has(inFlight)) return { result: 'retry', log: 'the same callback is being confirmed with HaiPay now' };
	confirming.add(inFlight);
	let confirmation;
	try {
		// The credential as read for this request, so that n8n does not decrypt it again for the query.
		const reference = ctx.getNode().credentials?.haiPayApi;
		const credential = { id: reference?.id ?? '', name: reference?.name ?? 'HaiPay API', type: 'haiPayApi', data: how.credentialData };
		confirmation = await confirmWithHaiPay(ctx, how.settings, assessment.order, { setting: how.kind, deadline: how.deadline, credential });
	} finally {
		confirming.delete(inFlight);
	}
	if (confirmation.result !== 'confirmed') return confirmation;
	// An ambiguous callback's own fields cannot be told apart: what HaiPay's query answered stands in for them.
	const split = assessment.ambiguity !== undefined || assessment.unlisted !== undefined;
	const item = split ? confirmedItem(assessment.item, confirmation.data) : assessment.item;
	item.confirmed = true;
	return { result: 'confirmed', item };
}

/** Fields the node itself puts on an item; no answer's field takes their place. */
const NODE_FIELDS = new Set(['statusLabel', 'statusGroup', 'kind', 'verified', 'confirmed', 'rawBody']);

/** The item of an ambiguous callback: every field HaiPay's signed query answer has replaces the callback's. */
function confirmedItem(item: IDataObject, data: IDataObject): IDataObject {
	const confirmed: IDataObject = { ...item };
	for (const name of Object.keys(data)) {
		if (name === 'sign' || isPrototypeOwn(name) || NODE_FIELDS.has(name)) continue;
		const value = data[name];
		confirmed[name] = name === 'status' ? (integerStatus(value) as IDataObject[string]) : value;
	}
	return confirmed;
}
