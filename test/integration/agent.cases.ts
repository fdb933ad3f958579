/**
 * The HaiPay node called by an AI agent: n8n runs it then as the generated `haiPayTool` node type. A model's guess
 * must not move money, so creates are refused there unless the node allows it; reads work as usual.
 */
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { runWorkflow } from '../harness';
import { credentialFor, payoutFromItem, TZS_FIELDS, tzsRow } from './helpers';

/** The node as n8n's tool generation registers it: the same class under the name with "Tool" appended. */
class HaiPayTool extends HaiPay {
	constructor() {
		super();
		this.description = { ...this.description, name: 'haiPayTool', displayName: 'HaiPay Tool' };
	}
}

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ manual: true });
});

afterAll(async () => {
	await sandbox.close();
});

async function runAsTool(parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}]) {
	return await runWorkflow({
		nodeTypes: [HaiPayTool],
		credentials: { hp: { type: 'haiPayApi', data: credentialFor(sandbox, 'TZS') } },
		nodes: [{ name: 'HaiPay Tool', type: 'haiPayTool', parameters: parameters as never }],
		items: items.map((json) => ({ json: json as never })),
		timeoutMs: 60_000,
	});
}

describe('called by an AI agent', () => {
	it('refuses a payout unless the node allows agents, and sends nothing', async () => {
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const result = await runAsTool(payoutFromItem('TZS', TZS_FIELDS), [tzsRow()]);
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('An AI agent may not send money');
		expect(result.error?.description).toContain('Allow Use by AI Agents');
		expect(sandbox.appliesReceived(APP_IDS.TZS)).toBe(before);
	});

	it('sends a payout when the node allows agents', async () => {
		const row = tzsRow();
		const result = await runAsTool({ ...payoutFromItem('TZS', TZS_FIELDS), options: { allowAgents: true } }, [row]);
		expect(result.status).toBe('success');
		expect(result.jsonOf('HaiPay Tool')[0]).toMatchObject({ outcome: 'accepted', orderId: row.orderId });
	});

	it('reads as usual', async () => {
		const result = await runAsTool({ resource: 'account', operation: 'getBalance', currency: 'TZS' });
		expect(result.status).toBe('success');
		expect(result.jsonOf('HaiPay Tool')[0]).toHaveProperty('availableBal');
	});
});
