/**
 * A `duplicate` names the order that stands in its place: HaiPay refused the create because it already has an order
 * with this orderId, and the node's signed order query gives that order's orderNo and status. That refusal is not
 * signed, so it is `duplicate` only once a proven answer shows the order: a query that proves nothing leaves it
 * `unknown` (one-judge-refusals.cases.ts has HaiPay's signed "no such order" under a refusal). Only proven answers
 * count, the queries are bounded, and nothing is sent again. Real n8n-core executions against the sandbox over HTTP.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { credentialFor, NODE, payoutFromItem, runNode, sandboxPerFile, TZS_FIELDS, tzsRow } from './helpers';

const running = sandboxPerFile({ manual: true, hangMs: 4_000 });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const keepGoing = { onError: 'continueRegularOutput' };
const createTzs = (options: IDataObject = {}): INodeParameters => ({
	...payoutFromItem('TZS', TZS_FIELDS),
	options: { timeout: 2000, ...options },
});

const ordersWith = (orderId: unknown) => sandbox.orders.filter((order) => order.orderId === orderId);
const queriesOf = (orderId: unknown) =>
	sandbox.requests.filter((request) => request.path === '/tzs/pay/query' && request.orderId === orderId);
const appliesOf = (orderId: unknown) =>
	sandbox.requests.filter((request) => request.path === '/tzs/pay/apply' && request.orderId === orderId);

async function pay(
	rows: IDataObject[],
	parameters = createTzs(),
	credential: ICredentialDataDecryptedObject = credentialFor(sandbox, 'TZS'),
) {
	const result = await runNode(sandbox, { parameters, items: rows, settings: keepGoing, credential });
	expect(result.status).toBe('success');
	return result.jsonOf(NODE);
}

describe('a duplicate carries the existing order', () => {
	it("a repeated orderId comes back duplicate with HaiPay's orderNo and status from one signed query, nothing created", async () => {
		const row = tzsRow();
		const [first] = await pay([row]);
		expect(first).toMatchObject({ outcome: 'accepted' });
		sandbox.control.settle({ orderId: String(row.orderId) }, 'success');
		const [again] = await pay([row]);
		const [order] = ordersWith(row.orderId);
		expect(again).toMatchObject({
			outcome: 'duplicate',
			errorType: 'duplicate',
			errorCode: '4006',
			orderId: row.orderId,
			orderNo: order.orderNo,
			status: 2,
			statusLabel: 'success',
			existingAmount: order.amount,
		});
		expect(String(again.error)).toContain(`shows its order ${order.orderNo} (success)`);
		expect(ordersWith(row.orderId)).toHaveLength(1);
		expect(appliesOf(row.orderId)).toHaveLength(2);
		expect(queriesOf(row.orderId)).toHaveLength(1);
	});

	it('another amount under the orderId: still duplicate, the existing order and its own amount shown', async () => {
		const row = tzsRow();
		await pay([row]);
		const [again] = await pay([{ ...row, amount: '20000' }]);
		const [order] = ordersWith(row.orderId);
		expect(again).toMatchObject({
			outcome: 'duplicate',
			orderNo: order.orderNo,
			status: order.status,
			existingAmount: order.amount,
		});
		expect(order.amount).not.toBe('20000');
	});

	it('many duplicates in one run: each gets its own order, one query each, in input order', async () => {
		const rows = Array.from({ length: 6 }, () => tzsRow());
		await pay(rows);
		const again = await pay(rows, createTzs({ concurrency: 2 }));
		expect(again.map((item) => item.outcome)).toEqual(rows.map(() => 'duplicate'));
		expect(again.map((item) => item.orderNo)).toEqual(rows.map((row) => ordersWith(row.orderId)[0].orderNo));
		for (const row of rows) expect(queriesOf(row.orderId)).toHaveLength(1);
	});
});

describe('only a proven answer names the order', () => {
	it('without the HaiPay public key nothing is queried: duplicate, no orderNo', async () => {
		const row = tzsRow();
		await pay([row]);
		const [again] = await pay([row], createTzs(), credentialFor(sandbox, 'TZS', { haipayPublicKey: '' }));
		expect(again).toMatchObject({ outcome: 'duplicate', errorCode: '4006' });
		expect(again).not.toHaveProperty('orderNo');
		expect(queriesOf(row.orderId)).toHaveLength(0);
	});

	it('with Resolve Unknown Outcomes off nothing is queried', async () => {
		const row = tzsRow();
		await pay([row]);
		const [again] = await pay([row], createTzs({ resolveUnknown: false }));
		expect(again).toMatchObject({ outcome: 'duplicate' });
		expect(again).not.toHaveProperty('orderNo');
		expect(queriesOf(row.orderId)).toHaveLength(0);
	});

	it.each([
		[
			'an answer naming another order (signed)',
			{
				type: 'replaceData',
				path: '/tzs/pay/query',
				data: { orderId: 'SOMEONE-ELSE', orderNo: 'HP-OTHER-1', amount: '15000', status: 2 },
			},
		],
		['a bad signature', { type: 'badSignature', path: '/tzs/pay/query' }],
		['HTTP 502', { type: 'httpError', path: '/tzs/pay/query', status: 502 }],
	])(
		'%s: unknown, no orderNo: the unsigned refusal stands unproven, and nothing is sent again',
		async (_what, fault) => {
			const row = tzsRow();
			await pay([row]);
			sandbox.control.addFault(fault as Parameters<Sandbox['control']['addFault']>[0]);
			const [again] = await pay([row], createTzs({ resolveWithin: 2 }));
			expect(again).toMatchObject({ outcome: 'unknown', errorCode: '4006' });
			expect(again).not.toHaveProperty('orderNo');
			expect(again).not.toHaveProperty('status');
			expect(String(again.error)).toContain(
				'that refusal is not signed, and querying it for 2 s did not show what stands under this ID',
			);
			expect(queriesOf(row.orderId).length).toBeGreaterThanOrEqual(1);
			expect(appliesOf(row.orderId)).toHaveLength(2);
			expect(ordersWith(row.orderId)).toHaveLength(1);
		},
	);

	it('a query that hangs is bounded by Resolve Within: the run ends in time, unknown', async () => {
		const row = tzsRow();
		await pay([row]);
		sandbox.control.addFault({ type: 'timeout', path: '/tzs/pay/query', ms: 3_500 });
		const started = Date.now();
		const [again] = await pay([row], createTzs({ timeout: 30_000, resolveWithin: 1 }));
		expect(Date.now() - started).toBeLessThan(3_000);
		expect(again).toMatchObject({ outcome: 'unknown' });
		expect(again).not.toHaveProperty('orderNo');
	});
});
