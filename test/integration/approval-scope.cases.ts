/**
 * Where the approval policy acts, in real n8n-core executions against the sandbox. Payout → Check with Output "One
 * Item per Row" applies it: every row item carries the run's approvalsRequired and why, as the summary does, and a
 * policy that cannot be read stops the check. Another create than Payout → Create is not held to it: its Options do
 * not show the policy, the approvals or the uploader, n8n drops such a saved value as the workflow loads, and the
 * collection or refund is sent as without them (approvals that would refuse a payout refuse nothing there).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { LOCAL_COLLECTIONS, type PayoutCurrency } from '../fixtures/bodies';
import { multiCurrencyCredential } from '../helpers/credentials';
import { credentialFor, NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';
import { runSheet, sheetRow } from './payout-sheets';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const POLICY = JSON.stringify({
	ZAR: { oneApproverUpToTotal: '1000.00', oneApproverUpToRow: '600.00' },
	'*': { oneApproverUpToTotal: '100000', oneApproverUpToRow: '100000' },
});
/** Options that refuse any payout: a policy, and one approval by the uploader for rows that are not these. */
const REFUSING = {
	approvalPolicy: POLICY,
	approvals: JSON.stringify([{ userId: 'user-uploader', fingerprint: `v1:${'0'.repeat(64)}` }]),
	uploadedBy: 'user-uploader',
};

const row = (currency: PayoutCurrency, amount: string, overrides: IDataObject = {}) =>
	sheetRow('SCP', currency, { amount, ...overrides });

async function checkRows(items: IDataObject[], options: IDataObject) {
	return await runSheet(sandbox, 'check', items, options, { currencies: ['TZS', 'ZAR'] });
}

const sentWith = (orderId: unknown) =>
	sandbox.requests.filter((request) => (request.body as IDataObject | undefined)?.orderId === orderId);

describe('Payout → Check, One Item per Row, applies the policy on every row', () => {
	it('within the limits: every row, valid or not, says one approver and why', async () => {
		const items = [row('ZAR', '600.00'), row('ZAR', '400'), row('TZS', '1500'), row('TZS', '5')];
		const result = await checkRows(items, { approvalPolicy: POLICY });
		const out = result.jsonOf(NODE);
		expect(out.map((item) => item.outcome)).toEqual(['valid', 'valid', 'valid', 'invalid']);
		for (const item of out)
			expect(item).toMatchObject({
				approvalsRequired: 1,
				approvalWhy: "every currency is within one approver's limits",
			});
	});

	it('one cent above the total: every row says two approvers, naming the total, the same as the summary', async () => {
		const items = [row('ZAR', '600.00'), row('ZAR', '400.01'), row('TZS', '1500')];
		const out = (await checkRows(items, { approvalPolicy: POLICY })).jsonOf(NODE);
		const why = 'the ZAR total 1000.01 is above 1000.00, the most one approver may approve: two approvers';
		expect(out.map((item) => [item.approvalsRequired, item.approvalWhy])).toEqual([
			[2, why],
			[2, why],
			[2, why],
		]);
		const summary = (await checkRows(items, { approvalPolicy: POLICY, output: 'summary' })).jsonOf(NODE)[0];
		expect([summary.approvalsRequired, summary.approvalWhy]).toEqual([2, why]);
	});

	it('without the policy the rows carry no approval figure', async () => {
		const out = (await checkRows([row('ZAR', '5000.00')], {})).jsonOf(NODE);
		expect(out[0].outcome).toBe('valid');
		expect(out[0]).not.toHaveProperty('approvalsRequired');
		expect(out[0]).not.toHaveProperty('approvalWhy');
	});

	it('a policy that cannot be read stops the check, naming it', async () => {
		const result = await checkRows([row('ZAR', '1.00')], {
			approvalPolicy: '{"ZAR": {"oneApproverUpToTotal": "1e6"}}',
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('"Approval Policy" (approvalPolicy) "ZAR".oneApproverUpToTotal');
		expect(result.error?.message).toContain('nothing was checked');
	});
});

describe('another create is not held to the payout approval policy', () => {
	it('Collection → Create with the policy, a refusing approval and the uploader saved: collected as without them', async () => {
		const item = { orderId: uniqueOrderId('SCP-BRL'), ...LOCAL_COLLECTIONS.BRL };
		const result = await runNode(sandbox, {
			currency: 'BRL',
			parameters: {
				resource: 'collection',
				operation: 'create',
				currency: 'BRL',
				fieldsFrom: 'input',
				options: REFUSING,
			},
			items: [item],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted', orderId: item.orderId });
		expect(sentWith(item.orderId)).toHaveLength(1);
	});

	it('Collection → Refund with them saved: sent as without them (it was refused for naming no amount)', async () => {
		const refundId = uniqueOrderId('SCP-RF');
		const result = await runNode(sandbox, {
			parameters: {
				resource: 'collection',
				operation: 'refund',
				currency: 'USD',
				orderId: '={{ $json.refundId }}',
				orderNo: '={{ $json.orderNo }}',
				// The sandbox knows no such payment: what it answers is beside the point, and is not waited on.
				options: { ...REFUSING, resolveUnknown: false },
			},
			items: [{ refundId, orderNo: 'HP123' }],
			credential: credentialFor(sandbox, 'USD'),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0].rule).not.toBe('approvalPolicy');
		expect(sentWith(refundId)).toHaveLength(1);
	});

	it('Payout → Create with the same options is refused, nothing sent', async () => {
		const item = row('TZS', '1500');
		const result = await runNode(sandbox, {
			parameters: {
				resource: 'payout',
				operation: 'create',
				currency: '={{ $json.currency }}',
				fieldsFrom: 'input',
				options: REFUSING,
			},
			items: [item],
			credential: multiCurrencyCredential(sandbox.baseUrl, ['TZS']),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', rule: 'approvalPolicy' });
		expect(sentWith(item.orderId)).toHaveLength(0);
	});
});
