/**
 * An error nobody planned for, after a create was sent, must leave the item's outcome `unknown` (failures.ts
 * `failureOf`): the order may exist, so the item is queried or reported for a query, never taken for "nothing was
 * sent". Today every step after a send throws only the gateway's own failures, so the test plants the kind of
 * error a future bug would throw (a TypeError) in the create's last step, `present`, which runs after HaiPay's
 * answer. Everything else is the real node in a real n8n-core execution against the sandbox over HTTP.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { runOperation } from '../../nodes/HaiPay/execute/runner';
import { createPayout } from '../../nodes/HaiPay/resources/payout/create';
import type { Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { runWorkflow } from '../harness';
import { credentialFor, NODE, payoutFromItem, sandboxPerFile, TZS_FIELDS, tzsRow } from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const BUG = "Cannot read properties of undefined (reading 'orderNo')";

/** Payout → Create whose last step fails with a TypeError once HaiPay has taken the order. */
const faultyCreate = {
	...createPayout,
	async present(): Promise<INodeExecutionData> {
		throw new TypeError(BUG);
	},
};

/** The HaiPay node, under its own type name, running the faulty create for any parameters. */
class HaiPayWithABug extends HaiPay {
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [await runOperation(this, faultyCreate)];
	}
}

async function run(
	row: IDataObject,
	options: IDataObject,
	settings: IDataObject = { onError: 'continueRegularOutput' },
) {
	return await runWorkflow({
		nodeTypes: [HaiPayWithABug],
		credentials: { hp: { type: 'haiPayApi', data: credentialFor(sandbox, 'TZS') } },
		nodes: [{ name: NODE, type: 'haiPay', parameters: { ...payoutFromItem('TZS', TZS_FIELDS), options }, ...settings }],
		items: [{ json: row }],
		timeoutMs: 60_000,
	});
}

function ordersWith(orderId: unknown) {
	return sandbox.orders.filter((order) => order.orderId === orderId);
}

describe('an unexpected error after a create was sent', () => {
	it('is an unknown outcome, with the orderId and the advice to query first, when Resolve is off', async () => {
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const row = tzsRow();
		const [item] = (await run(row, { resolveUnknown: false })).jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId, currency: 'TZS' });
		expect(String(item.error)).toContain(BUG);
		expect(String(item.advice)).toMatch(/query it by its orderId.*before sending it again/i);
		// The order exists: "nothing was sent" would have been a lie that pays twice on a resend.
		expect(ordersWith(row.orderId)).toHaveLength(1);
		expect(sandbox.appliesReceived(APP_IDS.TZS) - before).toBe(1);
	});

	it('is queried like any unknown outcome when Resolve is on, and settles as accepted, sent once', async () => {
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const row = tzsRow();
		const [item] = (await run(row, { resolveWithin: 20, notFoundAfter: 1 })).jsonOf(NODE);
		const [order] = ordersWith(row.orderId);
		expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderNo: order.orderNo, verified: true });
		expect(sandbox.appliesReceived(APP_IDS.TZS) - before).toBe(1);
	});

	it('without On Error → Continue, stops the run with an error that says the outcome is unknown', async () => {
		const row = tzsRow();
		const result = await run(row, { resolveUnknown: false }, {});
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ name: 'NodeApiError', message: BUG, itemIndex: 0 });
		expect(result.error?.description).toContain(`Order ID: ${row.orderId}`);
		expect(result.error?.description).toMatch(/outcome is unknown/i);
		expect(ordersWith(row.orderId)).toHaveLength(1);
	});
});
