/**
 * The test harness's webhookServer: a workflow whose trigger is a webhook node, served over real HTTP as n8n does.
 */
import type { INodeParameters } from 'n8n-workflow';

import { webhookServer, type WebhookServer } from '../harness';

import { CallbackTrigger } from './harness-nodes';

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
		expect(server.calls[0]).toMatchObject({
			statusCode: 401,
			responseBody: 'invalid signature',
			executionId: undefined,
		});
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
		// node that keeps its memory only there runs the repeat again (the HaiPay Trigger writes it again: hooks.ts `carrying`).
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
