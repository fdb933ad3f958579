/**
 * Payout → Check's Look Up Existing Orders is bounded: a gateway that never answers ends the look-up at Look Up
 * Within, retries included, and the rows it left are "could not check", counted to pay; a sheet of 1,000 rows has at
 * most Concurrent Requests queries in flight and one query per row. Real n8n-core executions against the sandbox.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { NODE, payoutFromItem, runNode, sandboxPerFile, TZS_FIELDS, tzsRow } from './helpers';

const running = sandboxPerFile({ manual: true, requestLogLimit: 10_000 });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const parameters = (operation: 'check' | 'create', options: IDataObject): INodeParameters => ({
	...payoutFromItem('TZS', TZS_FIELDS),
	operation,
	options: options as INodeParameters,
});

async function summaryOf(rows: IDataObject[], options: IDataObject): Promise<IDataObject> {
	const result = await runNode(sandbox, {
		parameters: parameters('check', { output: 'summary', lookUpExisting: true, ...options }),
		items: rows,
	});
	expect(result.status).toBe('success');
	return result.jsonOf(NODE)[0];
}

const queriesOf = (rows: IDataObject[]) =>
	sandbox.requests.filter(
		(request) => request.path === '/tzs/pay/query' && rows.some((row) => row.orderId === request.orderId),
	);
const reasons = (summary: IDataObject) => (summary.unchecked as IDataObject[]).map((row) => String(row.reason));

/** A gateway that holds every order query's connection far longer than any test runs. */
const NEVER_ANSWERS = { type: 'timeout', path: '/tzs/pay/query', ms: 600_000 } as const;

describe('a slow gateway', () => {
	it('never answering: each query is cut at Look Up Within, its retries too, though Timeout and Retries allow far more', async () => {
		const rows = [tzsRow(), tzsRow(), tzsRow()];
		sandbox.control.addFault(NEVER_ANSWERS);
		// Unbounded, 11 attempts of 60 s each: the test's own time-out ends long before.
		const summary = await summaryOf(rows, { lookUpWithin: 2, timeout: 60_000, retries: 10 });
		expect(summary).toMatchObject({ toPayRows: 3, existingRows: 0, uncheckedRows: 3 });
		for (const reason of reasons(summary))
			expect(reason).toMatch(/HaiPay did not answer: no complete answer within \d+ ms/);
		expect((summary.currencies as IDataObject[])[0]).toMatchObject({ rows: 3, uncheckedRows: 3 });
	}, 20_000);

	it('rows whose turn never came before Look Up Within ran out are not asked, and could not be checked', async () => {
		const rows = Array.from({ length: 5 }, () => tzsRow());
		sandbox.control.addFault(NEVER_ANSWERS);
		const summary = await summaryOf(rows, { lookUpWithin: 2, timeout: 60_000, retries: 0, concurrency: 1 });
		expect(summary).toMatchObject({ toPayRows: 5, uncheckedRows: 5 });
		expect(queriesOf(rows)).toHaveLength(1);
		const [first, ...others] = reasons(summary);
		expect(first).toMatch(/no complete answer within/);
		for (const reason of others)
			expect(reason).toBe("HaiPay was not asked: Look Up Within (2 s) ran out before this row's turn");
	}, 20_000);
});

describe('1,000 rows', () => {
	it('at most Concurrent Requests queries in flight, one query per row, and exact totals of what is to pay and what HaiPay has', async () => {
		const rows = Array.from({ length: 1000 }, (_, index) => tzsRow({ amount: `${1000 + index}.01` }));
		const paid = rows.slice(0, 10);
		const result = await runNode(sandbox, {
			parameters: parameters('create', { timeout: 5000 }),
			items: paid,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE).map((item) => item.outcome)).toEqual(paid.map(() => 'accepted'));
		// A little latency on each query, so that the workers overlap as they would over the internet.
		sandbox.control.addFault({ type: 'latency', path: '/tzs/pay/query', ms: 5 });
		sandbox.control.resetInFlightPeak();
		const summary = await summaryOf(rows, { concurrency: 4, timeout: 10_000, lookUpWithin: 300 });
		const peak = sandbox.control.inFlight().max;
		expect(peak).toBeLessThanOrEqual(4);
		expect(peak).toBeGreaterThan(1);
		expect(queriesOf(rows)).toHaveLength(1000);
		expect(new Set(queriesOf(rows).map((request) => request.orderId)).size).toBe(1000);
		expect(summary).toMatchObject({ rows: 1000, validRows: 1000, toPayRows: 990, existingRows: 10, uncheckedRows: 0 });
		// 1000.01 + ... + 1999.01 is 1,499,510; the ten paid (1000.01 .. 1009.01) are 10,045.10 of it.
		expect((summary.currencies as IDataObject[])[0]).toMatchObject({
			rows: 990,
			total: '1489464.90',
			existingRows: 10,
			existingTotal: '10045.10',
		});
		expect((summary.existing as IDataObject[]).map((row) => row.itemIndex)).toEqual(paid.map((_, index) => index));
	}, 120_000);
});
