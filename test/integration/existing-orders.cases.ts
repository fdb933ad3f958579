/**
 * Payout → Check, Options → Look Up Existing Orders: before approval, HaiPay's signed order query is asked about every
 * valid row, and the approval summary lists the rows HaiPay already has apart from the totals to pay. The truth table
 * on both sides of each line: an order HaiPay has, proven (signed, named by the row's orderId, with HaiPay's orderNo),
 * is "already at HaiPay"; HaiPay's signed "no such order", where the currency's query publishes one, is to pay;
 * anything else (a failure, an unsigned or echoed answer, another order's, a status without an order, a currency
 * whose query publishes no absence) is "could not check": listed, and counted to pay. Real n8n-core executions
 * against the sandbox over HTTP; no payout is ever sent by the check.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import type { Sandbox } from '../../sandbox';
import { PAYOUTS } from '../fixtures/bodies';
import {
	credentialFor,
	NODE,
	payoutFromItem,
	runNode,
	sandboxPerFile,
	TZS_FIELDS,
	tzsRow,
	uniqueOrderId,
} from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

type Currency = 'TZS' | 'USDT';
type Fault = Parameters<Sandbox['control']['addFault']>[0];

function fieldsOf(currency: Currency): string[] {
	return currency === 'TZS'
		? TZS_FIELDS
		: PAYOUT_RULES[currency].fields.filter((field) => field.required).map((field) => field.name);
}

function node(currency: Currency, operation: 'check' | 'create', options: IDataObject): INodeParameters {
	return { ...payoutFromItem(currency, fieldsOf(currency)), operation, options: options as INodeParameters };
}

async function pay(rows: IDataObject[], currency: Currency = 'TZS'): Promise<void> {
	const result = await runNode(sandbox, {
		currency,
		parameters: node(currency, 'create', { timeout: 2000 }),
		items: rows,
		settings: { onError: 'continueRegularOutput' },
	});
	expect(result.jsonOf(NODE).map((item) => item.outcome)).toEqual(rows.map(() => 'accepted'));
}

/** Runs the check over `rows` and gives its output: the summary item, or one item per row. */
async function check(
	rows: IDataObject[],
	options: IDataObject = {},
	currency: Currency = 'TZS',
): Promise<IDataObject[]> {
	const result = await runNode(sandbox, {
		currency,
		parameters: node(currency, 'check', {
			output: 'summary',
			lookUpExisting: true,
			timeout: 2000,
			retries: 0,
			...options,
		}),
		items: rows,
	});
	expect(result.status).toBe('success');
	return result.jsonOf(NODE);
}

async function summaryOf(
	rows: IDataObject[],
	options: IDataObject = {},
	currency: Currency = 'TZS',
): Promise<IDataObject> {
	const [summary] = await check(rows, options, currency);
	return summary;
}

const queriesOf = (rows: IDataObject[], path = '/tzs/pay/query') =>
	sandbox.requests.filter((request) => request.path === path && rows.some((row) => row.orderId === request.orderId));
const appliesOf = (rows: IDataObject[]) =>
	sandbox.requests.filter(
		(request) => request.path.endsWith('/pay/apply') && rows.some((row) => row.orderId === request.orderId),
	);
const orderOf = (row: IDataObject) => sandbox.orders.find((order) => order.orderId === row.orderId);

describe('the option', () => {
	it('off (the default), the check asks HaiPay nothing and its summary is as it was', async () => {
		const rows = [tzsRow({ amount: '1000.10' })];
		await pay(rows);
		const result = await runNode(sandbox, { parameters: node('TZS', 'check', { output: 'summary' }), items: rows });
		const [summary] = result.jsonOf(NODE);
		expect(queriesOf(rows)).toHaveLength(0);
		expect(Object.keys(summary).sort()).toEqual([
			'currencies',
			'fingerprint',
			'invalid',
			'invalidRows',
			'outcome',
			'rows',
			'sheet',
			'validRows',
		]);
		expect(summary.currencies).toEqual([{ currency: 'TZS', rows: 1, total: '1000.10', decimals: 2, invalidRows: 0 }]);
	});
});

describe('an order HaiPay has, and one it has not', () => {
	it('signed and proven: the paid rows are listed at HaiPay with orderNo, status and amount, out of To pay; the unpaid row is to pay', async () => {
		const [paid, processing, unpaid] = [
			tzsRow({ amount: '1500.25' }),
			tzsRow({ amount: '2000' }),
			tzsRow({ amount: '3000.5' }),
		];
		const invalid = tzsRow({ amount: '500' });
		await pay([paid, processing]);
		sandbox.control.settle({ orderId: String(paid.orderId) }, 'success');
		const rows = [paid, processing, unpaid, invalid];
		const summary = await summaryOf(rows);
		expect(summary).toMatchObject({
			rows: 4,
			validRows: 3,
			invalidRows: 1,
			toPayRows: 1,
			existingRows: 2,
			uncheckedRows: 0,
			unchecked: [],
		});
		expect(summary.currencies).toEqual([
			{
				currency: 'TZS',
				rows: 1,
				total: '3000.50',
				decimals: 2,
				invalidRows: 1,
				existingRows: 2,
				existingTotal: '3500.25',
				uncheckedRows: 0,
				uncheckedTotal: '0.00',
			},
		]);
		expect(summary.existing).toEqual([
			{
				itemIndex: 0,
				orderId: paid.orderId,
				currency: 'TZS',
				amount: '1500.25',
				orderNo: orderOf(paid)?.orderNo,
				status: 2,
				statusLabel: 'success',
				existingAmount: orderOf(paid)?.amount,
			},
			{
				itemIndex: 1,
				orderId: processing.orderId,
				currency: 'TZS',
				amount: '2000',
				orderNo: orderOf(processing)?.orderNo,
				status: 1,
				statusLabel: 'processing',
				existingAmount: orderOf(processing)?.amount,
			},
		]);
		// One query per valid row, none for the invalid one, and no payout sent by the check.
		expect(queriesOf(rows).map((request) => request.orderId)).toEqual(
			expect.arrayContaining([paid.orderId, processing.orderId, unpaid.orderId]),
		);
		expect(queriesOf(rows)).toHaveLength(3);
		expect(appliesOf(rows)).toHaveLength(2);
	});

	it("one item per row: each valid row says whether HaiPay has it, with the existing order under a duplicate's names", async () => {
		const [paid, unpaid] = [tzsRow(), tzsRow()];
		await pay([paid]);
		const [first, second] = await check([paid, unpaid], { output: 'rows' });
		expect(first).toMatchObject({
			outcome: 'valid',
			atHaiPay: 'exists',
			orderNo: orderOf(paid)?.orderNo,
			status: 1,
			statusLabel: 'processing',
			existingAmount: orderOf(paid)?.amount,
		});
		expect(second).toMatchObject({ outcome: 'valid', atHaiPay: 'absent' });
		expect(second).not.toHaveProperty('orderNo');
	});

	it.each([
		['an unknown status word', { status: 'paid' }, { status: null, statusLabel: null }],
		[
			'status 3 with "order does not exist" beside an order number and an amount',
			{ status: 3, errorMsg: 'order does not exist' },
			{ status: 3, statusLabel: 'failed' },
		],
	])(
		'a lying status (%s): HaiPay signed its order number under the orderId, so the row is at HaiPay, never to pay',
		async (_what, lie, shown) => {
			const row = tzsRow();
			sandbox.control.addFault({
				type: 'replaceData',
				path: '/tzs/pay/query',
				data: { orderId: String(row.orderId), orderNo: 'HP-LIE-1', amount: String(row.amount), ...lie },
			});
			const summary = await summaryOf([row]);
			expect(summary).toMatchObject({ toPayRows: 0, existingRows: 1, uncheckedRows: 0 });
			expect(summary.existing).toEqual([
				expect.objectContaining({ orderId: row.orderId, orderNo: 'HP-LIE-1', ...shown }),
			]);
			expect((summary.currencies as IDataObject[])[0]).toMatchObject({ rows: 0, total: '0.00' });
		},
	);
});

describe('could not check: listed, counted to pay, never taken for absent', () => {
	it.each<[string, Fault, RegExp]>([
		['HTTP 502', { type: 'httpError', path: '/tzs/pay/query' }, /HTTP 502/],
		[
			'a refusal of the query (status "0")',
			{ type: 'statusZero', path: '/tzs/pay/query' },
			/HaiPay (refused|reported a problem)/,
		],
		[
			"HaiPay's answer for the order with a bad signature",
			{ type: 'badSignature', path: '/tzs/pay/query' },
			/signature does not verify/,
		],
		[
			"an echo of the request: its orderId, the merchant's own sign",
			{ type: 'echo', path: '/tzs/pay/query' },
			/signature does not verify/,
		],
		[
			'a signed answer about another order',
			{
				type: 'replaceData',
				path: '/tzs/pay/query',
				data: { orderId: 'SOMEONE-ELSE', orderNo: 'HP-OTHER-1', amount: '15000', status: 2 },
			},
			/not "TZS-/,
		],
	])('%s: the row HaiPay has is not listed at HaiPay; it is to pay and flagged', async (_what, fault, reason) => {
		const row = tzsRow({ amount: '1234.5' });
		await pay([row]);
		sandbox.control.addFault(fault);
		const summary = await summaryOf([row]);
		expect(summary).toMatchObject({ toPayRows: 1, existingRows: 0, uncheckedRows: 1, existing: [] });
		expect(summary.unchecked).toEqual([
			{ itemIndex: 0, orderId: row.orderId, currency: 'TZS', amount: '1234.5', reason: expect.stringMatching(reason) },
		]);
		expect((summary.currencies as IDataObject[])[0]).toMatchObject({
			rows: 1,
			total: '1234.50',
			existingRows: 0,
			uncheckedRows: 1,
			uncheckedTotal: '1234.50',
		});
	});

	it("a signed answer that names the orderId and claims success without HaiPay's order number proves nothing", async () => {
		const row = tzsRow();
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/query',
			data: { orderId: String(row.orderId), amount: String(row.amount), status: 2 },
		});
		const summary = await summaryOf([row]);
		expect(summary).toMatchObject({ toPayRows: 1, existingRows: 0, uncheckedRows: 1 });
		expect(String((summary.unchecked as IDataObject[])[0].reason)).toContain('names no HaiPay order number');
	});

	it('USDT, whose query publishes no "no such order": a paid row is at HaiPay; the unpaid ones are one line for the currency, not a row each', async () => {
		const row = (amount: string) => ({ orderId: uniqueOrderId('USDT'), ...PAYOUTS.USDT, amount });
		const [paid, unpaid, other] = [row('10.5'), row('20'), row('1.25')];
		await pay([paid], 'USDT');
		const summary = await summaryOf([paid, unpaid, other], {}, 'USDT');
		expect(summary).toMatchObject({
			toPayRows: 2,
			existingRows: 1,
			uncheckedRows: 0,
			unprovableRows: 2,
			unchecked: [],
		});
		expect(summary.existing).toEqual([
			expect.objectContaining({ orderId: paid.orderId, orderNo: orderOf(paid)?.orderNo }),
		]);
		expect(summary.unprovable).toEqual([
			{
				currency: 'USDT',
				rows: 2,
				total: '21.2500',
				meaning: expect.stringContaining('HaiPay publishes no "no such order" answer for USDT'),
			},
		]);
		const [line] = summary.unprovable as IDataObject[];
		expect(String(line.meaning)).toContain('it refuses that orderId when Pay sends it (the row comes back duplicate)');
		expect(queriesOf([paid, unpaid, other], '/usdt/pay/query')).toHaveLength(3);
		const [item] = await check([unpaid], { output: 'rows' }, 'USDT');
		expect(item).toMatchObject({ outcome: 'valid', atHaiPay: 'unprovable' });
	});

	it("without HaiPay's public key nothing is asked: every valid row could not be checked", async () => {
		const row = tzsRow();
		await pay([row]);
		const result = await runNode(sandbox, {
			parameters: node('TZS', 'check', { output: 'summary', lookUpExisting: true }),
			items: [row],
			credential: credentialFor(sandbox, 'TZS', { haipayPublicKey: '' }),
		});
		const [summary] = result.jsonOf(NODE);
		expect(summary).toMatchObject({ toPayRows: 1, existingRows: 0, uncheckedRows: 1 });
		expect(String((summary.unchecked as IDataObject[])[0].reason)).toContain('no HaiPay public key');
		expect(queriesOf([row])).toHaveLength(0);
	});
});

describe('reads may retry', () => {
	it.each([
		[0, 'could not check', { uncheckedRows: 1, existingRows: 0 }],
		[2, 'at HaiPay', { uncheckedRows: 0, existingRows: 1 }],
	])('a 502 on the first query, with %d retries: %s', async (retries, _what, counts) => {
		const row = tzsRow();
		await pay([row]);
		sandbox.control.addFault({ type: 'httpError', path: '/tzs/pay/query', times: 1 });
		expect(await summaryOf([row], { retries })).toMatchObject(counts);
		expect(queriesOf([row])).toHaveLength(retries === 0 ? 1 : 2);
	});
});
