import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testHaiPayCredential } from '../shared/gateway/credentialTest';
import { redactText } from '../shared/gateway/redact';
import { announceNewFields, checkFields } from './ambiguity';
import { scanCallback } from '../shared/callback/body';
import { provenKeys } from './keys';
import { settling } from './unproven';
import { canonicalFields } from '../shared/signing/canonical';
import { ANSWER_DEADLINE_MS, confirmCallback, unaskableWhy } from './confirm';
import { triggerCredential } from './credentialCache';
import { CALLBACK_WEBHOOK, triggerProperties } from './description';
import { filteredOutBy, kindOf } from './filters';
import { emittedItem, markUnconfirmed, markUnproven } from './item';
import { hookMemory, keepMemoryInExecution } from './hooks';
import { openMemory } from './memory';
import { readOptions } from './triggerOptions';
import { repliesFor } from './reply';
import { verifyCallback } from './verify';

/** Where the node remembers the URL it told the user about. */
const URL_KEY = 'notifyUrl';

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
		subtitle:
			'={{ {"payout": "Payout results", "collection": "Collection results", "subscription": "Subscription results", "either": "Payout and collection results"}[$parameter["kind"]] }}',
		description: 'Starts the workflow when HaiPay sends a signed payout or collection result',
		defaults: { name: 'HaiPay Trigger' },
		// A full URL is opened as it is; a codex link would get n8n's "?utm_…" appended after its #anchor.
		documentationUrl: 'https://github.com/haipay-n8n/n8n-nodes-haipay/blob/main/docs/haipay-trigger.md',
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'haiPayApi', required: true, testedBy: 'haiPayApiTest' }],
		webhooks: [CALLBACK_WEBHOOK],
		triggerPanel: {
			header: "Put this URL in the notifyUrl of a HaiPay request, or in HaiPay's merchant portal",
			executionsHelp: {
				inactive:
					'While you build, click "Listen for test event", use the Test URL as notifyUrl, and settle an order: the callback shows here. Activate the workflow and use the Production URL for real callbacks.',
				active:
					'The workflow is active: HaiPay callbacks sent to the Production URL start it. Those executions are listed under Executions.',
			},
			activationHint:
				"Once HaiPay's requests carry the Production URL as notifyUrl, activate the workflow to receive their results.",
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

	/**
	 * The trigger's step in the execution it started: the emitted items pass on unchanged, and the repeat memory is
	 * written into the execution's own static data, which n8n saves at the end of the run (hooks.ts, hook 3).
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		keepMemoryInExecution(this);
		return [items.map((item, index) => ({ ...item, pairedItem: item.pairedItem ?? { item: index } }))];
	}

	/**
	 * One callback, step by step; each step is one module, in the order they run, and none calls back here. The
	 * first answer a step gives is the callback's; a callback that passes every step starts the workflow.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// Every callback is answered by this, on the monotonic clock: Confirm With HaiPay's queries and a copy's wait for
		// its first delivery stop at it (503, HaiPay resends).
		const deadlineAt = performance.now() + ANSWER_DEADLINE_MS;
		// The body's names and places only: its values are decoded once its signature may be HaiPay's (verify.ts).
		const scanned = scanCallback(this.getRequestObject().rawBody, this.getBodyData());
		const reply = repliesFor(this, scanned);
		// Refused by size or shape before the credential is read or any signature work is done.
		if (!scanned.ok) return reply.refuse(scanned.problem, scanned.log);

		const credential = await triggerCredential(this);
		reply.hide(credential.settings.secrets);
		const options = readOptions(this);
		const verdict = await verifyCallback(scanned.body, credential.settings, options.verifySignature);
		if (!verdict.ok) return reply.refuse(verdict.reason, verdict.log);
		const { signer, callback } = verdict;

		const filteredOut = filteredOutBy(callback.output, options, signer.currency);
		if (filteredOut !== undefined) return reply.acknowledge(filteredOut);
		const kind = kindOf(callback.output, options.kind, signer.currency);
		const fields = checkFields(callback, signer, options);
		if (fields.refused !== undefined) return reply.ambiguous(fields.refused);
		announceNewFields(
			fields.unknownFields.map((name) => redactText(name, signer.secrets)),
			(message) => this.logger.warn(message),
		);
		// What settles a doubt, if anything does (unproven.ts); a callback no query can confirm runs flagged (item.ts).
		const { unproven, settle, neverAskable, ownKeys } = settling(callback, fields, kind, signer);
		const unconfirmable = unaskableWhy(kind, callback.order, signer) !== undefined && settle === undefined;
		const confirm = !unconfirmable && (options.confirm || settle !== undefined);
		const split = settle !== undefined || fields.ambiguousText.length > 0 || fields.unknownFields.length > 0;

		const memory = openMemory(this, options, callback, deadlineAt, ownKeys);
		// n8n's end of this request, and the serialisation of an emitted item, enter the memory too (hooks.ts).
		hookMemory(this, memory);
		const repeat = await memory.repeatOf();
		if (repeat !== undefined)
			return repeat.stillStoring === true ? reply.stillStoring(repeat.why) : reply.acknowledge(repeat.why);
		const confirmation = confirm
			? await confirmCallback(this, callback, {
					signer,
					credentialData: credential.data,
					kind,
					deadlineAt,
					why: settle,
				})
			: undefined;
		if (confirmation !== undefined && confirmation.result !== 'confirmed') return reply.unconfirmed(confirmation);
		// A callback in doubt is keyed as HaiPay's answer names its order too: a re-split and its genuine body are one result.
		const proven =
			confirmation !== undefined && settle !== undefined
				? provenKeys(callback.output, callback.order.status, () => canonicalFields(callback.signed), confirmation.data)
				: undefined;
		const provenRepeat = proven === undefined ? undefined : memory.provenRepeat(proven);
		if (provenRepeat !== undefined) return reply.acknowledge(provenRepeat);
		await memory.remember(proven);

		const item = emittedItem(callback, options, {
			kind,
			confirmed: confirmation?.data,
			split,
			doubt: settle !== undefined,
			dedupKey: proven?.dedupKey ?? (unproven === undefined ? undefined : ownKeys.dedupKey),
			fields,
			secrets: signer.secrets,
		});
		if (options.confirm && unconfirmable) markUnconfirmed(item, unaskableWhy(kind, callback.order, signer));
		if (unproven !== undefined) markUnproven(item, unproven, neverAskable);
		return reply.emit(item, options.verifySignature, memory.resaver());
	}
}
