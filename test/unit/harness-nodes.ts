/**
 * Node and credential types that exist only to test the harness (harness.cases.ts, harness-webhook.cases.ts).
 */
import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { testNodeDescription } from '../harness';
import { echo } from './harness-gateway';

/** Reads the ledger through the credential's authenticate(), one request per item. */
export class LedgerProbe implements INodeType {
	description = testNodeDescription('Ledger Probe', 'ledgerProbe', 'Posts to the ledger endpoint', {
		credentials: [{ name: 'haiPayApi', required: true }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'haiPayApi', {
					method: 'POST',
					url: '/tzs/account/ledger',
					body: {},
				})) as IDataObject;
				this.logger.info('ledger read', { itemIndex, status: response.status as string });
				out.push({ json: response, pairedItem: { item: itemIndex } });
			} catch (error) {
				// The request helper already throws a NodeApiError, and wrapping one hands back the original
				// without the new options: the item index has to be put on it.
				const apiError = new NodeApiError(this.getNode(), error as JsonObject, { itemIndex });
				apiError.context.itemIndex = itemIndex;
				if (this.continueOnFail()) {
					out.push({ json: { error: apiError.message }, pairedItem: { item: itemIndex } });
					continue;
				}
				throw apiError;
			}
		}
		return [out];
	}
}

/** Fails the items marked `bad` with a NodeOperationError; upper-cases the `data` binary of the others. */
export class ItemWorker implements INodeType {
	description = testNodeDescription('Item Worker', 'itemWorker', 'Works on items');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				if (items[itemIndex].json.bad === true) {
					throw new NodeOperationError(this.getNode(), `Item ${itemIndex} is bad`, {
						itemIndex,
						description: 'The item was marked bad',
					});
				}
				const item: INodeExecutionData = { json: { index: itemIndex }, pairedItem: { item: itemIndex } };
				if (items[itemIndex].binary?.data) {
					const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, 'data');
					const upper = Buffer.from(bytes.toString('utf8').toUpperCase(), 'utf8');
					item.binary = { data: await this.helpers.prepareBinaryData(upper, 'upper.txt', 'text/plain') };
				}
				out.push(item);
			} catch (error) {
				if (this.continueOnFail()) {
					out.push({ json: { error: (error as Error).message }, pairedItem: { item: itemIndex } });
					continue;
				}
				throw error;
			}
		}
		return [out];
	}
}

/** Lists the credential's field names (never values): proves defaults are applied like n8n's getDecrypted. */
export class CredentialFields implements INodeType {
	description = testNodeDescription('Credential Fields', 'credentialFields', 'Lists credential fields', {
		credentials: [{ name: 'haiPayApi', required: true }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials('haiPayApi');
		return [
			[
				{
					json: {
						fields: Object.keys(credentials).sort(),
						arrayStyle: credentials.arrayStyle as string,
						currency: credentials.currency as string,
					},
				},
			],
		];
	}
}

/** A credential type with n8n's declarative (generic) authenticate. */
export class HeaderKeyApi implements ICredentialType {
	name = 'headerKeyApi';
	displayName = 'Header Key API';
	properties = [{ displayName: 'API Key', name: 'apiKey', type: 'string' as const, default: '' }];
	authenticate = {
		type: 'generic' as const,
		properties: { headers: { 'X-Api-Key': '={{$credentials.apiKey}}' }, qs: { app: 'harness' } },
	};
}

export class HeaderKeyProbe implements INodeType {
	description = testNodeDescription('Header Key Probe', 'headerKeyProbe', 'Calls with a header key', {
		credentials: [{ name: 'headerKeyApi', required: true }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'headerKeyApi', {
			method: 'POST',
			url: `${echo.url}/generic`,
			body: { hello: 'world' },
			json: true,
		})) as IDataObject;
		return [[{ json: response }]];
	}
}

/**
 * A callback trigger in the shape of a payment gateway's notify endpoint: refuses a bad token with 401 (answering
 * itself), acknowledges with the text SUCCESS, emits each order once (deduplicated in static data) and registers
 * itself through webhookMethods.
 */
export class CallbackTrigger implements INodeType {
	description = testNodeDescription('Callback Trigger', 'callbackTrigger', 'Receives callbacks', {
		group: ['trigger'],
		inputs: [],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: '={{$parameter["responseMode"]}}',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName: 'Response Mode',
				name: 'responseMode',
				type: 'options',
				options: [
					{ name: 'On Received', value: 'onReceived' },
					{ name: 'Last Node', value: 'lastNode' },
				],
				default: 'onReceived',
			},
			{ displayName: 'Fail', name: 'fail', type: 'boolean', default: false },
		],
	});

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return this.getWorkflowStaticData('node').registeredAt === this.getNodeWebhookUrl('default');
			},
			async create(this: IHookFunctions): Promise<boolean> {
				this.getWorkflowStaticData('node').registeredAt = this.getNodeWebhookUrl('default');
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				delete this.getWorkflowStaticData('node').registeredAt;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		if (this.getNodeParameter('fail') === true) throw new NodeOperationError(this.getNode(), 'Trigger broke');
		const req = this.getRequestObject() as unknown as { rawBody: Buffer };
		const body = (this.getBodyData() ?? {}) as IDataObject;
		if (body.token !== 'good') {
			this.getResponseObject().status(401).send('invalid signature');
			return { noWebhookResponse: true };
		}
		const staticData = this.getWorkflowStaticData('node');
		const seen = ((staticData.seen as string[] | undefined) ??= []);
		if (seen.includes(body.orderNo as string)) return { webhookResponse: 'SUCCESS' };
		seen.push(body.orderNo as string);
		return {
			webhookResponse: 'SUCCESS',
			workflowData: [[{ json: { orderNo: body.orderNo, raw: req.rawBody.toString('utf8'), mode: this.getMode() } }]],
		};
	}
}
