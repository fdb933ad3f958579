import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	COUNT_RUNS_NODE_TYPE,
	NO_OP_NODE_TYPE,
	webhookServer,
	type StaticDataSaveOrder,
	type WebhookServer,
} from '../harness';

/**
 * The webhook server's static data, as n8n 2.40 handles it for a request that starts an execution: the request works
 * on its own copy, the execution on a fresh one loaded as it starts, and each copy is saved whole when changed.
 */

/**
 * Remembers each order it emits in its node's static data. `rewrite` writes it again while n8n stores the emitted
 * item (what keeps a request's change marked after n8n starts the run); `answerItself` writes the answer itself.
 */
class MemoTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Memo Trigger',
		name: 'memoTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Remembers what it emits',
		defaults: { name: 'Memo' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'memo' }],
		properties: [
			{ displayName: 'Rewrite', name: 'rewrite', type: 'boolean', default: false },
			{ displayName: 'Answer Itself', name: 'answerItself', type: 'boolean', default: false },
		],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const order = String((this.getBodyData() as IDataObject).order);
		const memo = this.getWorkflowStaticData('node');
		const seen = [...((memo.seen as string[] | undefined) ?? []), order];
		memo.seen = seen;
		const item: INodeExecutionData = { json: { order } };
		if (this.getNodeParameter('rewrite') === true) {
			Object.defineProperty(item, 'toJSON', {
				enumerable: false,
				value(this: INodeExecutionData) {
					memo.seen = seen;
					return { ...this };
				},
			});
		}
		if (this.getNodeParameter('answerItself') === true) {
			this.getResponseObject().status(200).end('OK');
			return { noWebhookResponse: true, workflowData: [[item]] };
		}
		return { webhookResponse: 'OK', workflowData: [[item]] };
	}
}

describe('webhookServer: static data as n8n 2.40 keeps it', () => {
	let server: WebhookServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	async function serve(
		memo: IDataObject,
		next: string,
		options: { staticData?: IDataObject; staticDataSaveOrder?: StaticDataSaveOrder } = {},
	) {
		server = await webhookServer({
			nodeTypes: [MemoTrigger],
			nodes: [
				{ name: 'Memo', type: 'memoTrigger', parameters: memo },
				{ name: 'Next', type: next },
			],
			...options,
		});
		return server;
	}

	it('runs the execution on the static data stored when it starts, and saves that copy whole when a node changed it', async () => {
		const served = await serve({}, COUNT_RUNS_NODE_TYPE, { staticData: { global: { count: 5 } } });
		expect((await served.send('Memo', { order: 'A' })).text).toBe('OK');

		const [execution] = served.executions;
		// What the request wrote is not in the execution's copy, and the start of the run unmarked the request's.
		expect(execution.result.staticData).toEqual({ global: { count: 6 } });
		expect(served.staticData()).toEqual({ global: { count: 6 } });
	});

	it.each([
		// The request's copy, saved as it is answered, is overwritten by the run's at its end...
		['request-first' as const, { global: { count: 1 } }],
		// ...or, when the run ended first, the request's copy overwrites the run's.
		['execution-first' as const, { 'node:Memo': { seen: ['A'] } }],
	])(
		'saves a request whose change is still marked, and the run that changed static data, each whole (%s)',
		async (order, stored) => {
			const served = await serve({ rewrite: true }, COUNT_RUNS_NODE_TYPE, { staticDataSaveOrder: order });
			await served.send('Memo', { order: 'A' });
			expect(served.staticData()).toEqual(stored);
		},
	);

	it('keeps the request’s save when the run changed nothing', async () => {
		const served = await serve({ rewrite: true }, NO_OP_NODE_TYPE);
		await served.send('Memo', { order: 'A' });
		expect(served.executions[0].result.staticData).toEqual({});
		expect(served.staticData()).toEqual({ 'node:Memo': { seen: ['A'] } });
	});

	it('saves the copy of a node that answered itself before the run starts: the run loads what it wrote', async () => {
		const served = await serve({ answerItself: true }, COUNT_RUNS_NODE_TYPE);
		expect((await served.send('Memo', { order: 'A' })).text).toBe('OK');
		expect(served.executions[0].result.staticData).toEqual({ 'node:Memo': { seen: ['A'] }, global: { count: 1 } });
		expect(served.staticData()).toEqual({ 'node:Memo': { seen: ['A'] }, global: { count: 1 } });
	});

	it('saves nothing of a call to a test URL: its run is manual', async () => {
		const served = await serve({ rewrite: true }, COUNT_RUNS_NODE_TYPE);
		await served.send('Memo', { order: 'A' }, { kind: 'test' });
		expect(served.executions[0].result.run.mode).toBe('manual');
		expect(served.executions[0].result.staticData).toEqual({ global: { count: 1 } });
		expect(served.staticData()).toEqual({});
	});
});
