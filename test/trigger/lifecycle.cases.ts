/**
 * The trigger's webhook lifecycle in n8n-core: HaiPay has no API to register a URL, so activation only remembers it
 * and says where to set it; the test URL is another webhook; deactivation forgets the URL and keeps the memory.
 */
import { HookContext } from 'n8n-core';
import type { IHookFunctions, INode, IWebhookData } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { buildAdditionalData } from '../harness/additional-data';
import { harnessEnvironment } from '../harness/environment';
import { workflowWebhooks } from '../harness/webhook-routes';
import type { WebhookServer } from '../harness';
import { credentials, serveTrigger, TRIGGER } from './callbacks';

describe('HaiPay Trigger webhook lifecycle in n8n (no remote registration exists)', () => {
	const { webhookMethods } = new HaiPayTrigger();
	const repeatMemory = { v: 2, stamp: 's', at: 1, entries: '' };
	let server: WebhookServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	/** Lines the activation and deactivation wrote: n8n-core's HookContext logs through the harness's logger. */
	async function hookLines(url: string): Promise<string[]> {
		const { logger } = await harnessEnvironment();
		return logger.lines.map((line) => line.message).filter((message) => message.includes(url));
	}

	/** n8n-core's HookContext on the served workflow, with its stored static data, as activation builds it. */
	function hookContext(served: WebhookServer, isTest = false): IHookFunctions {
		const workflow = served.workflow.instantiate(served.staticData());
		const [webhook] = workflowWebhooks(workflow);
		const additionalData = buildAdditionalData({
			credentialsHelper: served.workflow.credentialsHelper,
			executionId: '',
			workflowId: served.workflow.id,
			baseUrl: served.baseUrl,
		});
		const webhookData: IWebhookData = {
			...webhook,
			workflowId: served.workflow.id,
			workflowExecuteAdditionalData: additionalData,
			isTest,
		};
		return new HookContext(
			workflow,
			workflow.getNode(TRIGGER) as INode,
			additionalData,
			'trigger',
			'activate',
			webhookData,
		);
	}

	it('remembers the URL locally on activation and tells the user where to set it', async () => {
		server = await serveTrigger({ kind: 'payout' });
		const production = server.url(TRIGGER);
		expect(server.activations.map(({ method, result }) => [method, result])).toEqual([
			['checkExists', false],
			['create', true],
		]);
		expect(server.staticData(TRIGGER).notifyUrl).toBe(production);
		const [told] = await hookLines(production);
		expect(told).toMatch(/no API to register/);
		expect(told).toMatch(/notifyUrl/);
		expect(await webhookMethods.default.checkExists.call(hookContext(server))).toBe(true);
	});

	it('treats the test URL as a different webhook', async () => {
		server = await serveTrigger();
		expect(server.url(TRIGGER, 'test')).not.toBe(server.url(TRIGGER));
		expect(await webhookMethods.default.checkExists.call(hookContext(server, true))).toBe(false);
		expect(await webhookMethods.default.checkExists.call(hookContext(server))).toBe(true);
	});

	it('forgets the URL on deactivation and keeps what it has emitted', async () => {
		server = await serveTrigger({}, credentials(), { [`node:${TRIGGER}`]: { repeatMemory } });
		const production = server.url(TRIGGER);
		expect(server.staticData(TRIGGER)).toEqual({ repeatMemory, notifyUrl: production });
		await server.close();
		expect(server.activations.at(-1)).toMatchObject({ method: 'delete', result: true });
		expect(server.staticData(TRIGGER)).toEqual({ repeatMemory });
		const lines = await hookLines(production);
		expect(lines.at(-1)).toMatch(/stopped listening/);
		expect(lines.at(-1)).toMatch(/keeps sending/);
		expect(await webhookMethods.default.checkExists.call(hookContext(server))).toBe(false);
	});
});
