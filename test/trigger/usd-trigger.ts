import type { INodeParameters } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { NO_OP_NODE_TYPE, webhookServer, type WebhookServer } from '../harness';
import { sandboxCredential } from '../helpers/credentials';

export const TRIGGER = 'HaiPay Trigger';

/**
 * For a describe of USD callbacks (refund-shaped bodies, subscription charges): a sandbox that sends no callbacks of
 * its own, started before the describe's tests and closed after them, and `serve`, a HaiPay Trigger with the
 * sandbox's USD credential before a NoOp node, closed after each test.
 */
export function usdTriggerPerDescribe(): {
	sandbox: () => Sandbox;
	serve: (parameters: INodeParameters) => Promise<WebhookServer>;
} {
	let sandbox: Sandbox | undefined;
	let served: WebhookServer | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ manual: true, callbackSchedule: [] });
	});
	afterEach(async () => {
		await served?.close();
		served = undefined;
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	const running = (): Sandbox => {
		if (sandbox === undefined) throw new Error('the sandbox is not running yet');
		return sandbox;
	};
	return {
		sandbox: running,
		async serve(parameters) {
			served = await webhookServer({
				nodeTypes: [HaiPayTrigger],
				credentials: { hp: { type: 'haiPayApi', data: sandboxCredential(running(), APP_IDS.USD) } },
				nodes: [
					{ name: TRIGGER, type: 'haiPayTrigger', parameters },
					{ name: 'Next', type: NO_OP_NODE_TYPE },
				],
			});
			return served;
		},
	};
}
