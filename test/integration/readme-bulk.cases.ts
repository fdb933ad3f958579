/**
 * The README's promises in docs/haipay-node.md, "Bulk payouts, unknown outcomes and retries", as written there, in
 * real n8n-core executions against the sandbox over HTTP:
 * - "An error from the gateway stops the run after the items in flight have finished; the error says how many
 *   were accepted before it."
 * - "With On Error → Continue (using error output) ... every failed row out of the error output, as n8n shapes
 *   error items: the input row's own fields, `error` (the message), and `details` holding `outcome`, `errorType`,
 *   `orderId`, `currency`, `advice`, `errorCode`, `gatewayMessage`, `field`, `rule`."
 * - "`not_sent` | the connection was never made (refused, DNS); nothing reached HaiPay".
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { credentialFor, NODE, payoutFromItem, runNode, sandboxPerFile, TZS_FIELDS, tzsRow } from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

/** One item at a time, so "before it" is exactly the items ahead of it; a refusal is confirmed after 1 s. */
const oneAtATime = { ...payoutFromItem('TZS', TZS_FIELDS), options: { concurrency: 1, notFoundAfter: 1 } };

function sentWith(orderId: unknown) {
	return sandbox.requests.filter((request) => request.path === '/tzs/pay/apply' && request.orderId === orderId);
}

function ordersWith(orderId: unknown) {
	return sandbox.orders.filter((order) => order.orderId === orderId);
}

describe('without On Error → Continue, a gateway error stops the run', () => {
	it('and says how many items were accepted before it; the items after it are not sent', async () => {
		const rows = [tzsRow(), tzsRow(), tzsRow({ name: 'No Channel' }), tzsRow()];
		const result = await runNode(sandbox, { parameters: oneAtATime, items: rows });
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ node: NODE, itemIndex: 2 });
		expect(result.error?.message).toContain('channel code does not exist');
		expect(result.error?.description).toContain('2 other item(s) of this run were accepted before it stopped');
		expect(result.error?.description).toContain(`Order ID: ${String(rows[2].orderId)}`);
		expect([rows[0], rows[1]].map((row) => ordersWith(row.orderId).length)).toEqual([1, 1]);
		expect(ordersWith(rows[2].orderId)).toHaveLength(0);
		expect(sentWith(rows[3].orderId)).toHaveLength(0);
	});

	it('and says nothing of accepted items when none was', async () => {
		const rows = [tzsRow({ name: 'No Channel' }), tzsRow()];
		const result = await runNode(sandbox, { parameters: oneAtATime, items: rows });
		expect(result.error).toMatchObject({ node: NODE, itemIndex: 0 });
		expect(result.error?.description).toContain(`Order ID: ${String(rows[0].orderId)}`);
		expect(result.error?.description).not.toContain('accepted before');
		expect(sentWith(rows[1].orderId)).toHaveLength(0);
	});
});

describe('On Error → Continue (using error output)', () => {
	it("puts each failed row on the error output with the row's own fields, error, and details", async () => {
		// Fields the HaiPay node does not know, as a spreadsheet row carries them.
		const own = (invoice: string) => ({ invoice, sheetRow: Number(invoice.slice(4)), approvedBy: 'finance' });
		const rows = [
			tzsRow(own('INV-1')),
			tzsRow({ name: 'No Channel', ...own('INV-2') }),
			tzsRow({ amount: '5', ...own('INV-3') }),
		];
		const result = await runNode(sandbox, {
			parameters: oneAtATime,
			items: rows,
			settings: { onError: 'continueErrorOutput' },
		});
		expect(result.status).toBe('success');
		expect(result.jsonOf(NODE, 0, 0).map((item) => [item.orderId, item.outcome])).toEqual([
			[rows[0].orderId, 'accepted'],
		]);
		const failed = result.jsonOf(NODE, 0, 1);
		expect(failed).toHaveLength(2);
		for (const [index, row] of [rows[1], rows[2]].entries()) {
			const item = failed[index];
			expect(Object.keys(item).sort()).toEqual([...Object.keys(row), 'details', 'error'].sort());
			expect(item).toMatchObject(row);
			expect(typeof item.error).toBe('string');
			expect(item.details).toMatchObject({ orderId: row.orderId, currency: 'TZS', advice: expect.any(String) });
		}
		expect(failed[0].details).toMatchObject({
			outcome: 'rejected',
			errorType: 'rejected',
			errorCode: '4002',
			gatewayMessage: 'channel code does not exist',
		});
		expect(failed[1].details).toMatchObject({
			outcome: 'invalid',
			errorType: 'invalid',
			field: 'amount',
			rule: 'amount',
		});
	});
});

describe('not_sent: the connection was never made', () => {
	it('when the gateway host name does not resolve (DNS): not_sent, and nothing reached HaiPay', async () => {
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const row: IDataObject = tzsRow();
		const credential = credentialFor(sandbox, 'TZS', { baseUrl: 'http://haipay-gateway.invalid' });
		const result = await runNode(sandbox, {
			parameters: oneAtATime,
			items: [row],
			credential,
			settings: { onError: 'continueRegularOutput' },
		});
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'not_sent', errorType: 'not_sent', orderId: row.orderId, currency: 'TZS' });
		// .invalid never resolves (RFC 6761); without a resolver at all the lookup fails with EAI_AGAIN instead.
		expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(item.cause);
		expect(String(item.error)).toContain('nothing was sent');
		expect(String(item.advice)).toContain('safe to send this item again, with the same orderId');
		expect(sandbox.appliesReceived(APP_IDS.TZS)).toBe(before);
	});
});
