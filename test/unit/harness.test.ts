import { createServer, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { parsePublicKey } from '../../nodes/shared/signing/keys';
import { verifyBody } from '../helpers/signing';
import { binaryBuffer, connect, runWorkflow, webhookServer, type WebhookServer } from '../harness';
import { TEST_KEYS } from '../helpers/keys';

// ---------------------------------------------------------------------------------------------------------------
// A local HTTP server standing in for a gateway: records every request, answers as each test tells it to.

interface Received {
	method: string;
	url: string;
	headers: IncomingMessage['headers'];
	body: Record<string, unknown>;
}

let echo: Server;
let echoUrl: string;
const received: Received[] = [];
/** Status codes to answer with, consumed one per request; 200 when empty. */
let statusPlan: number[] = [];

beforeAll(async () => {
	echo = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
			received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
			const status = statusPlan.shift() ?? 200;
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(status === 200 ? { status: '0', data: { echoed: body } } : { status: 'E', error: 'boom' }));
		});
	});
	await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
	echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => echo.close(() => resolve()));
});

beforeEach(() => {
	received.length = 0;
	statusPlan = [];
});

const SECRET = 'harness-secret-key-value';

function haiPayCredential(): { type: string; data: ICredentialDataDecryptedObject } {
	return {
		type: 'haiPayApi',
		data: {
			environment: 'custom',
			baseUrl: echoUrl,
			appId: 1001,
			currency: 'TZS',
			secretKey: SECRET,
			privateKey: TEST_KEYS.merchantPkcs8,
			haipayPublicKey: TEST_KEYS.platformPublic,
		},
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Test-only node types.

/** Reads the ledger through the credential's authenticate(), one request per item. */
class LedgerProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ledger Probe',
		name: 'ledgerProbe',
		group: ['transform'],
		version: 1,
		description: 'Posts to the ledger endpoint',
		defaults: { name: 'Ledger Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'haiPayApi', required: true }],
		properties: [],
	};

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
class ItemWorker implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Item Worker',
		name: 'itemWorker',
		group: ['transform'],
		version: 1,
		description: 'Works on items',
		defaults: { name: 'Item Worker' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

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
class CredentialFields implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Credential Fields',
		name: 'credentialFields',
		group: ['transform'],
		version: 1,
		description: 'Lists credential fields',
		defaults: { name: 'Credential Fields' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'haiPayApi', required: true }],
		properties: [],
	};

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
class HeaderKeyApi implements ICredentialType {
	name = 'headerKeyApi';
	displayName = 'Header Key API';
	properties = [{ displayName: 'API Key', name: 'apiKey', type: 'string' as const, default: '' }];
	authenticate = {
		type: 'generic' as const,
		properties: { headers: { 'X-Api-Key': '={{$credentials.apiKey}}' }, qs: { app: 'harness' } },
	};
}

class HeaderKeyProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Header Key Probe',
		name: 'headerKeyProbe',
		group: ['transform'],
		version: 1,
		description: 'Calls with a header key',
		defaults: { name: 'Header Key Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'headerKeyApi', required: true }],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'headerKeyApi', {
			method: 'POST',
			url: `${echoUrl}/generic`,
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
class CallbackTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Callback Trigger',
		name: 'callbackTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Receives callbacks',
		defaults: { name: 'Callback Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
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
	};

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

// ---------------------------------------------------------------------------------------------------------------

describe('runWorkflow', () => {
	it('signs through the credential: the gateway receives appId and a sign that verifies', async () => {
		const result = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe' }],
		});

		expect(result.status).toBe('success');
		expect(result.executedNodes).toEqual(['Start', 'Ledger']);
		expect(received).toHaveLength(1);
		expect(received[0]).toMatchObject({ method: 'POST', url: '/tzs/account/ledger' });
		const { sign, ...unsigned } = received[0].body;
		expect(unsigned).toEqual({ appId: 1001 });
		expect(verifyBody(unsigned, sign, SECRET, parsePublicKey(TEST_KEYS.merchantPublic))).toBe(true);
		expect(verifyBody(unsigned, sign, 'another-secret', parsePublicKey(TEST_KEYS.merchantPublic))).toBe(false);
		expect(result.jsonOf('Ledger')).toEqual([{ status: '0', data: { echoed: received[0].body } }]);
	});

	it('captures log lines per run, so a test can show no secret reaches the logs', async () => {
		const result = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe' }],
		});

		expect(result.logs.some((line) => line.message === 'ledger read' && line.level === 'info')).toBe(true);
		expect(result.logs.some((line) => line.message.includes('Workflow execution started'))).toBe(true);
		const everything = result.logs.map((line) => line.text).join('\n');
		expect(everything).not.toContain(SECRET);
		expect(everything).not.toContain(TEST_KEYS.merchantPkcs8.split('\n')[1]);
	});

	it('keeps the log lines of concurrent runs apart', async () => {
		const run = async (marker: string) =>
			await runWorkflow({
				nodeTypes: [LedgerProbe],
				credentials: { hp: haiPayCredential() },
				nodes: [{ name: marker, type: 'ledgerProbe' }],
			});
		const [a, b] = await Promise.all([run('Run A'), run('Run B')]);

		expect(a.logs.some((line) => line.text.includes('Run A'))).toBe(true);
		expect(a.logs.some((line) => line.text.includes('Run B'))).toBe(false);
		expect(b.logs.some((line) => line.text.includes('Run A'))).toBe(false);
	});

	it('applies credential property defaults and resolves expressions in fields, like n8n', async () => {
		const credential = haiPayCredential();
		credential.data.currency = '={{ "TZ" + "S" }}';
		const result = await runWorkflow({
			nodeTypes: [CredentialFields],
			credentials: { hp: credential },
			nodes: [{ name: 'Fields', type: 'credentialFields' }],
		});

		expect(result.jsonOf('Fields')[0]).toEqual({
			fields: ['appId', 'arrayStyle', 'baseUrl', 'currency', 'defaultNotifyUrl', 'environment', 'haipayPublicKey', 'otherCurrencies', 'privateKey', 'secretKey'],
			arrayStyle: 'json',
			currency: 'TZS',
		});
	});

	it('applies a generic (declarative) authenticate: headers and query from $credentials', async () => {
		const result = await runWorkflow({
			nodeTypes: [HeaderKeyProbe],
			credentialTypes: [HeaderKeyApi],
			credentials: { key: { type: 'headerKeyApi', data: { apiKey: 'k-123' } } },
			nodes: [{ name: 'Probe', type: 'headerKeyProbe' }],
		});

		expect(result.status).toBe('success');
		expect(received[0].headers['x-api-key']).toBe('k-123');
		expect(received[0].url).toBe('/generic?app=harness');
	});

	it('fails like n8n when a node names a credential id that does not exist', async () => {
		const result = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe', credentials: { haiPayApi: 'missing' } }],
		});

		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('Credential with ID "missing" does not exist');
		expect(received).toHaveLength(0);
	});

	it('surfaces a NodeApiError on the node and the execution; continueOnFail turns it into an item', async () => {
		statusPlan = [200, 500];
		const failed = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe' }],
			items: [{ json: {} }, { json: {} }],
		});

		expect(failed.status).toBe('error');
		expect(failed.error).toMatchObject({ name: 'NodeApiError', node: 'Ledger', itemIndex: 1, httpCode: '500' });
		expect(failed.nodeError('Ledger')).toMatchObject({ name: 'NodeApiError', httpCode: '500' });
		expect(failed.executionError?.message).toBe(failed.nodeError('Ledger')?.message);
		expect(failed.run.data.resultData.lastNodeExecuted).toBe('Ledger');

		statusPlan = [200, 500];
		const continued = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe', continueOnFail: true }],
			items: [{ json: {} }, { json: {} }],
		});

		expect(continued.status).toBe('success');
		expect(continued.executionError).toBeUndefined();
		const [ok, error] = continued.jsonOf('Ledger');
		expect(ok.status).toBe('0');
		expect(error).toEqual({ error: 'The service was not able to process your request' });
		expect(continued.outputOf('Ledger')[1].pairedItem).toEqual({ item: 1 });
	});

	it('surfaces a thrown NodeOperationError with its item index and description', async () => {
		const result = await runWorkflow({
			nodeTypes: [ItemWorker],
			nodes: [
				{ name: 'Worker', type: 'itemWorker' },
				{ name: 'After', type: 'harness.noOp' },
			],
			items: [{ json: {} }, { json: { bad: true } }],
		});

		expect(result.status).toBe('error');
		expect(result.error).toEqual({
			name: 'NodeOperationError',
			message: 'Item 1 is bad',
			description: 'The item was marked bad',
			node: 'Worker',
			itemIndex: 1,
		});
		expect(result.nodeError('Worker')?.message).toBe('Item 1 is bad');
		expect(result.executedNodes).toEqual(['Start', 'Worker']);
		expect(() => result.outputOf('After')).toThrow(/has no run 0/);
	});

	it('routes failed items to the error output with onError: continueErrorOutput', async () => {
		const result = await runWorkflow({
			nodeTypes: [ItemWorker],
			nodes: [
				{ name: 'Worker', type: 'itemWorker', onError: 'continueErrorOutput' },
				{ name: 'Good', type: 'harness.noOp' },
				{ name: 'Bad', type: 'harness.noOp' },
			],
			connections: connect(connect(connect({}, 'Start', 'Worker'), 'Worker', 'Good', 0), 'Worker', 'Bad', 1),
			items: [{ json: {} }, { json: { bad: true } }, { json: {} }],
		});

		expect(result.status).toBe('success');
		expect(result.jsonOf('Good')).toEqual([{ index: 0 }, { index: 2 }]);
		// n8n keeps the failed item's own fields next to the error.
		expect(result.jsonOf('Bad')).toEqual([{ bad: true, error: 'Item 1 is bad' }]);
	});

	it('retries a failing node with retryOnFail, as WorkflowExecute does', async () => {
		statusPlan = [503];
		const result = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe', retryOnFail: true, maxTries: 3, waitBetweenTries: 1 }],
		});

		expect(result.status).toBe('success');
		expect(received).toHaveLength(2);
	});

	it('round-trips binary data through the BinaryDataService', async () => {
		const result = await runWorkflow({
			nodeTypes: [ItemWorker],
			nodes: [{ name: 'Worker', type: 'itemWorker' }],
			items: [{ json: {}, binary: { data: { data: Buffer.from('voucher text'), fileName: 'v.txt' } } }],
		});

		expect(result.status).toBe('success');
		const [item] = result.outputOf('Worker');
		expect(item.binary?.data).toMatchObject({ fileName: 'upper.txt', mimeType: 'text/plain', bytes: 12 });
		expect(item.binary?.data.id).toMatch(/^filesystem-v2:/);
		expect((await binaryBuffer(result, 'Worker', 0, 'data')).toString('utf8')).toBe('VOUCHER TEXT');
		expect((await binaryBuffer(result, 'Start', 0, 'data')).toString('utf8')).toBe('voucher text');
	});

	it('passes the execution mode and static data through', async () => {
		const result = await runWorkflow({
			nodes: [{ name: 'Pass', type: 'harness.noOp' }],
			executionMode: 'trigger',
			staticData: { global: { counter: 1 } },
		});

		expect(result.run.mode).toBe('trigger');
		expect(result.staticData).toEqual({ global: { counter: 1 } });
	});
});

describe('webhookServer', () => {
	let server: WebhookServer;

	afterEach(async () => {
		await server?.close();
	});

	async function startServer(parameters: INodeParameters = {}): Promise<WebhookServer> {
		server = await webhookServer({
			nodeTypes: [CallbackTrigger],
			nodes: [
				{ name: 'Callback', type: 'callbackTrigger', parameters },
				{ name: 'After', type: 'harness.noOp' },
			],
		});
		return server;
	}

	it('registers on start and deregisters on close through webhookMethods', async () => {
		await startServer();
		expect(server.activations.map((call) => call.method)).toEqual(['checkExists', 'create']);
		expect(server.staticData('Callback')).toEqual({ registeredAt: server.url('Callback') });
		expect(server.url('Callback')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/webhook$/);

		await server.close();
		expect(server.activations.map((call) => call.method)).toEqual(['checkExists', 'create', 'delete']);
		expect(server.staticData('Callback')).toEqual({});
	});

	it('answers 401 itself for a rejected call and records no execution', async () => {
		await startServer();
		const reply = await server.send('Callback', { token: 'forged', orderNo: 'A1' });

		expect(reply.status).toBe(401);
		expect(reply.text).toBe('invalid signature');
		expect(server.executions).toHaveLength(0);
		expect(server.calls).toHaveLength(1);
		expect(server.calls[0]).toMatchObject({ statusCode: 401, responseBody: 'invalid signature', executionId: undefined });
	});

	it('acknowledges with SUCCESS text, runs the workflow, and drops what the request wrote to static data, as n8n 2.x does', async () => {
		await startServer();
		const raw = '{ "token": "good",  "orderNo": "A1" }';
		const first = await server.send('Callback', raw, { headers: { 'Content-Type': 'application/json' } });

		expect(first.status).toBe(200);
		expect(first.text).toBe('SUCCESS');
		expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(server.executions).toHaveLength(1);
		const [execution] = server.executions;
		expect(execution.items).toEqual([{ json: { orderNo: 'A1', raw, mode: 'webhook' } }]);
		expect(execution.result.status).toBe('success');
		expect(execution.result.executedNodes).toEqual(['Callback', 'After']);
		expect(execution.result.jsonOf('After')).toEqual([{ orderNo: 'A1', raw, mode: 'webhook' }]);

		// n8n 2.x marks the static data unchanged again while it starts the execution: `seen` is not saved, and a
		// node that keeps its memory only there runs the repeat again (the HaiPay Trigger writes it again: memory.ts `carrying`).
		expect(server.staticData('Callback').seen).toBeUndefined();
		const repeat = await server.send('Callback', { token: 'good', orderNo: 'A1' });
		expect(repeat.text).toBe('SUCCESS');
		expect(server.executions).toHaveLength(2);

		// What is stored is loaded for the next call: a request that starts nothing is answered from it.
		server.setStaticData({ 'node:Callback': { seen: ['A1'] } });
		expect((await server.send('Callback', { token: 'good', orderNo: 'A1' })).text).toBe('SUCCESS');
		expect(server.executions).toHaveLength(2);
	});

	it('lets a test wait for executions started by another client', async () => {
		await startServer();
		const posting = fetch(server.url('Callback'), {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ token: 'good', orderNo: 'X1' }),
		});

		const [execution] = await server.waitForExecutions(1);
		expect(execution.items[0].json.orderNo).toBe('X1');
		expect(await (await posting).text()).toBe('SUCCESS');
		await expect(server.waitForExecutions(2, 50)).rejects.toThrow(/Waited 50 ms for 2 executions, got 1/);
	});

	it('tolerates bodies that are not JSON, and refuses malformed JSON as n8n does (422)', async () => {
		await startServer();
		const text = await server.send('Callback', 'token=good', { headers: { 'Content-Type': 'text/plain' } });
		const binary = await server.send('Callback', Buffer.from([0xff, 0x00]), {
			headers: { 'Content-Type': 'application/octet-stream' },
		});
		const broken = await server.send('Callback', '{"token":', { headers: { 'Content-Type': 'application/json' } });

		expect(text.status).toBe(401);
		expect(binary.status).toBe(401);
		expect(broken.status).toBe(422);
		expect(broken.json()).toMatchObject({ message: 'Failed to parse request body' });
		expect(server.calls[1].rawBody).toEqual(Buffer.from([0xff, 0x00]));
		expect(server.executions).toHaveLength(0);
	});

	it('serves test URLs in manual mode and answers 404 for unknown paths', async () => {
		await startServer();
		const test = await server.send('Callback', { token: 'good', orderNo: 'T1' }, { kind: 'test' });
		expect(test.text).toBe('SUCCESS');
		expect(server.executions[0].result.run.mode).toBe('manual');

		const missing = await server.send('no/such/path', {});
		expect(missing.status).toBe(404);
	});

	it('answers with the last node’s items in lastNode mode', async () => {
		await startServer({ responseMode: 'lastNode' });
		const reply = await server.send('Callback', { token: 'good', orderNo: 'L1' });

		expect(reply.status).toBe(200);
		expect(reply.json()).toEqual([{ orderNo: 'L1', raw: '{"token":"good","orderNo":"L1"}', mode: 'webhook' }]);
	});

	it('answers 500 when the trigger throws, and records the failed execution', async () => {
		await startServer({ fail: true });
		const reply = await server.send('Callback', { token: 'good', orderNo: 'F1' });

		expect(reply.status).toBe(500);
		expect(reply.json()).toMatchObject({ message: 'Workflow Webhook Error: Workflow could not be started!' });
		expect(server.executions).toHaveLength(1);
		expect(server.executions[0].result.status).toBe('error');
		expect(server.executions[0].result.error?.message).toBe('Trigger broke');
	});
});
