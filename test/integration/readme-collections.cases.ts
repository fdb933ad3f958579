/**
 * The README's promises about Collection → Create (USD card, MIT), in docs/haipay-node.md, in real n8n-core
 * executions against the sandbox:
 * - the create outcomes of "What `outcome` means on a create" hold for collections too: `unknown` when the answer
 *   is lost after the request left (resolved by the collection query when Resolve is on), `duplicate` when HaiPay
 *   refuses the orderId, or when its signed query shows the orderId for another amount;
 * - "Using the node from an AI agent": "Payout → Create and Collection → Create refuse to run when an agent calls
 *   them ("An AI agent may not send money through this node"), and send nothing, unless Options → Allow Use by AI
 *   Agents is switched on".
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import type { Sandbox } from '../../sandbox';
import { APP_IDS, MIT_COLLECTION } from '../fixtures/bodies';
import { runWorkflow } from '../harness';
import { credentialFor, named, NODE, payoutFromItem, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const MIT_FIELDS = [
	'orderId',
	'amount',
	'payType',
	'inBankCode',
	'name',
	'phone',
	'email',
	'clientIp',
	'partnerUserId',
];

function collect(options: INodeParameters = {}): INodeParameters {
	return named({ ...payoutFromItem('USD', MIT_FIELDS), resource: 'collection', options });
}

function mitRow(overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId('MIT'), ...MIT_COLLECTION, ...overrides };
}

function ordersWith(orderId: unknown) {
	return sandbox.orders.filter((order) => order.orderId === orderId);
}

function requestsOf(path: string, orderId: unknown) {
	return sandbox.requests.filter((request) => request.path === path && request.orderId === orderId);
}

async function createOne(row: IDataObject, parameters: INodeParameters): Promise<IDataObject> {
	const result = await runNode(sandbox, {
		currency: 'USD',
		parameters,
		items: [row],
		settings: { onError: 'continueRegularOutput' },
	});
	return result.jsonOf(NODE)[0];
}

describe('Collection → Create outcomes', () => {
	it('unknown when the connection is reset after HaiPay took the order (Resolve off), sent once', async () => {
		const row = mitRow({ name: 'Reset Connection' });
		const item = await createOne(row, collect({ resolveUnknown: false }));
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId, currency: 'USD' });
		expect(String(item.advice)).toContain('Query it by its orderId');
		expect(ordersWith(row.orderId)).toHaveLength(1);
		expect(requestsOf('/usd/mit/apply', row.orderId)).toHaveLength(1);
	});

	it('the same, with Resolve on: settled by the collection query as accepted, sent once', async () => {
		const row = mitRow({ name: 'Reset Connection' });
		const item = await createOne(row, collect({ notFoundAfter: 1 }));
		const [order] = ordersWith(row.orderId);
		expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderNo: order.orderNo, verified: true });
		expect(requestsOf('/usd/collect/query', row.orderId).length).toBeGreaterThanOrEqual(1);
		expect(requestsOf('/usd/mit/apply', row.orderId)).toHaveLength(1);
	});

	it('duplicate when the orderId was used before: HaiPay refuses it and nothing new is created', async () => {
		const row = mitRow();
		expect(await createOne(row, collect())).toMatchObject({ outcome: 'accepted' });
		const again = await createOne(row, collect({ notFoundAfter: 1 }));
		expect(again).toMatchObject({
			outcome: 'duplicate',
			errorType: 'duplicate',
			errorCode: '4006',
			orderId: row.orderId,
		});
		expect(ordersWith(row.orderId)).toHaveLength(1);
	});

	it('duplicate when a lost create is queried and HaiPay shows the orderId for another amount', async () => {
		const row = mitRow();
		expect(await createOne(row, collect())).toMatchObject({ outcome: 'accepted' });
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/usd/mit/apply', times: 1 });
		const item = await createOne({ ...row, amount: '30.00' }, collect({ notFoundAfter: 1 }));
		expect(item).toMatchObject({ outcome: 'duplicate', orderId: row.orderId });
		expect(String(item.error)).toContain('for the amount 25.00, not 30.00');
		expect(ordersWith(row.orderId)).toHaveLength(1);
	});
});

/** The node as n8n's tool generation registers it for an AI agent: the same class under the name with "Tool". */
class HaiPayTool extends HaiPay {
	constructor() {
		super();
		this.description = { ...this.description, name: 'haiPayTool', displayName: 'HaiPay Tool' };
	}
}

async function runAsTool(parameters: INodeParameters, row: IDataObject) {
	return await runWorkflow({
		nodeTypes: [HaiPayTool],
		credentials: { hp: { type: 'haiPayApi', data: credentialFor(sandbox, 'USD') } },
		nodes: [{ name: 'HaiPay Tool', type: 'haiPayTool', parameters }],
		items: [{ json: row }],
		timeoutMs: 60_000,
	});
}

describe('Collection → Create called by an AI agent', () => {
	it('is refused, and sends nothing, unless the node allows agents', async () => {
		const before = sandbox.appliesReceived(APP_IDS.USD);
		const row = mitRow();
		const result = await runAsTool(collect(), row);
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('An AI agent may not send money through this node');
		expect(result.error?.description).toContain('Allow Use by AI Agents');
		expect(sandbox.appliesReceived(APP_IDS.USD)).toBe(before);
		expect(requestsOf('/usd/mit/apply', row.orderId)).toHaveLength(0);
	});

	it('runs when the node allows agents with a fixed switch', async () => {
		const row = mitRow();
		const result = await runAsTool(collect({ allowAgents: true }), row);
		expect(result.status).toBe('success');
		expect(result.jsonOf('HaiPay Tool')[0]).toMatchObject({ outcome: 'accepted', orderId: row.orderId });
	});
});
