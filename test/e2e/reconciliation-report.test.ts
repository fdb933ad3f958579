/**
 * Example 8 on a real n8n server, run through its REST API as the editor runs it: the month-end results file of
 * orders the sandbox holds (paid, failed, refused, never sent, one claimed but unknown to HaiPay, one with a HaiPay
 * errorMsg that is a formula), every order queried, and the XLSX report read back with SheetJS and from its own XML:
 * every row of the file accounted for in its order, each status as HaiPay shows it, totals per currency and status
 * equal to an independent decimal sum, no cell a formula, and text a spreadsheet would run a string cell as it is.
 */
import DecimalJs from 'decimal.js';
import { read, utils } from '@e965/xlsx';
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { RECONCILIATION_REPORT, WORKFLOW_IDS } from '../../playground/examples';
import { sheetFile, type SheetRow } from '../../playground/lib/sheet';
import { MONTH_END_RESULTS } from '../../playground/month-end';
import { expectTextAsIs } from './cells';
import { eventually, runByRest, stackPerFile } from './stack';

const Decimal = DecimalJs.clone({ precision: 100 });
const log = (line: string) => process.stdout.write(`${line}\n`);
const HOSTILE = '=HYPERLINK("http://evil.test","click")';

const running = stackPerFile(log);

const COLUMNS = ['orderId', 'currency', 'amount', 'amountText', 'outcome', 'orderNo', 'field', 'error'];

/** A results file as example 6 writes it, from the sandbox's orders and rows that never made one. */
function resultsFile(): SheetRow[] {
	const orders = running().sandbox.orders.filter((order) => order.orderId.startsWith('PAY-2026-05-'));
	const rows: SheetRow[] = orders.map((order) => ({
		orderId: order.orderId,
		currency: order.currency,
		amount: Number(order.amount),
		amountText: order.amount,
		outcome: 'accepted',
		orderNo: order.orderNo,
	}));
	// A plain list entry (no outcome) and a duplicate are queried like an accepted row.
	rows[1] = { ...rows[1], outcome: '' };
	rows[2] = { ...rows[2], outcome: 'duplicate' };
	return [
		...rows,
		{
			orderId: 'PAY-2026-05-0003',
			currency: 'TZS',
			amount: 500,
			amountText: '500',
			outcome: 'invalid',
			field: 'amount',
			error: 'below the minimum',
		},
		{
			orderId: 'PAY-2026-05-0006',
			currency: 'ZAR',
			amount: 900,
			amountText: '900.00',
			outcome: 'rejected',
			error: 'No permission',
		},
		// As example 6 writes an orderId a spreadsheet would run: as it is, in a string cell.
		{
			orderId: '-ME-0042',
			currency: 'TZS',
			amount: 1000,
			amountText: '1000',
			outcome: 'invalid',
			field: 'accountNo',
			error: '=1+2',
		},
		{ orderId: 'PAY-NEVER-SENT', currency: 'NGN', amount: 100, amountText: '100', outcome: 'unknown' },
	];
}

const sum = (values: string[]) => values.reduce((total, value) => total.plus(value === '' ? 0 : value), new Decimal(0));

/** Totals: one row per currency and status, its count and exact sums equal to decimal.js over the order rows. */
function expectExactTotals(
	report: Array<Record<string, unknown>>,
	orders: Array<Record<string, unknown>>,
	rows: SheetRow[],
): void {
	const totals = report.filter((row) => row.section === 'total');
	const groups = new Map<string, Array<Record<string, unknown>>>();
	for (const row of orders)
		groups.set(`${row.currency} ${row.statusLabel}`, [
			...(groups.get(`${row.currency} ${row.statusLabel}`) ?? []),
			row,
		]);
	expect(totals.map((row) => `${row.currency} ${row.statusLabel}`).sort()).toEqual([...groups.keys()].sort());
	expect(totals.reduce((count, row) => count + Number(row.rows), 0)).toBe(rows.length);
	for (const total of totals) {
		const members = groups.get(`${total.currency} ${total.statusLabel}`) ?? [];
		expect(total.rows).toBe(members.length);
		const exact = (field: 'amount' | 'fee') =>
			members.map((row) => {
				const order = running().sandbox.orders.find((candidate) => candidate.orderId === row.orderId);
				if (order !== undefined && total.statusLabel !== 'not sent (rejected)')
					return field === 'amount' ? order.amount : order.fee;
				const source = rows.find((candidate) => candidate.orderId === row.orderId);
				return field === 'amount' ? String(source?.amountText ?? '') : '';
			});
		expect(typeof total.totalAmount).toBe('string');
		expect(new Decimal(String(total.totalAmount)).equals(sum(exact('amount')))).toBe(true);
		expect(new Decimal(String(total.totalFee)).equals(sum(exact('fee')))).toBe(true);
	}
}

describe('example 8: reconciliation report', () => {
	test(
		'every row of the results file in the report, each order as HaiPay shows it, exact totals, no formula',
		async () => {
			await running().execute(WORKFLOW_IDS.bulkPayouts);
			await eventually('the orders to be final', () =>
				running().sandbox.orders.every((order) => order.status === 2 || order.status === 3) ? true : undefined,
			);
			const rows = resultsFile();
			writeFileSync(join(running().files, MONTH_END_RESULTS), sheetFile(rows, COLUMNS, 'Results'));
			const bdt = running().sandbox.orders.find((order) => order.currency === 'BDT');
			if (bdt === undefined) throw new Error('example 1 made no BDT order');
			// HaiPay's own text is no safer than a sheet's: a signed answer whose errorMsg is a formula.
			running().sandbox.control.addFault({
				type: 'replaceData',
				path: '/bdt/pay/query',
				data: {
					orderId: bdt.orderId,
					orderNo: bdt.orderNo,
					amount: bdt.amount,
					fee: bdt.fee,
					status: 3,
					errorMsg: HOSTILE,
				},
			});
			const queriesBefore = running().sandbox.requests.filter((request) => request.path.endsWith('/pay/query')).length;
			const appliesBefore = running().sandbox.appliesReceived();

			const execution = await runByRest(running(), WORKFLOW_IDS.reconciliationReport);
			expect(execution.status).toBe('success');

			const bytes = readFileSync(join(running().files, RECONCILIATION_REPORT));
			const book = read(bytes, { type: 'buffer', cellFormula: true });
			expect(book.SheetNames).toEqual(['Reconciliation']);
			await expectTextAsIs(bytes, [HOSTILE, '-ME-0042', '=1+2']);
			const report = utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Reconciliation, { defval: '' });
			const orders = report.filter((row) => row.section === 'order');
			expect(orders.map((row) => row.orderId)).toEqual(rows.map((row) => row.orderId));
			expect(report.filter((row) => row.section !== 'order' && row.section !== 'total')).toEqual([]);

			const queried = rows.filter((row) => ['accepted', 'duplicate', 'unknown', ''].includes(String(row.outcome)));
			expect(
				running().sandbox.requests.filter((request) => request.path.endsWith('/pay/query')).length - queriesBefore,
			).toBe(queried.length);
			expect(running().sandbox.appliesReceived()).toBe(appliesBefore);

			for (const row of orders) {
				const order = running().sandbox.orders.find((candidate) => candidate.orderId === row.orderId);
				if (row.orderId === bdt.orderId) {
					expect(row).toMatchObject({
						status: 3,
						statusLabel: 'failed',
						errorMsg: HOSTILE,
						orderNo: bdt.orderNo,
					});
				} else if (order !== undefined) {
					expect(row).toMatchObject({
						orderNo: order.orderNo,
						status: order.status,
						statusLabel: order.status === 2 ? 'success' : 'failed',
						amount: Number(order.amount),
						fee: Number(order.fee),
					});
					expect(typeof row.amount).toBe('number');
					if (order.status === 2) expect(String(row.payTime)).not.toBe('');
					else expect(String(row.errorMsg)).toMatch(/bank return/i);
				}
			}
			expect(orders.find((row) => row.orderId === 'PAY-NEVER-SENT')).toMatchObject({
				statusLabel: 'not found',
				sentOutcome: 'unknown',
			});
			expect(orders.find((row) => row.orderId === 'PAY-2026-05-0003')).toMatchObject({
				statusLabel: 'not sent (invalid)',
				amount: 500,
			});
			expect(orders.find((row) => row.orderId === 'PAY-2026-05-0006')).toMatchObject({
				statusLabel: 'not sent (rejected)',
			});
			expect(orders.find((row) => row.orderId === '-ME-0042')).toMatchObject({
				statusLabel: 'not sent (invalid)',
				currency: 'TZS',
			});

			expectExactTotals(report, orders, rows);
		},
		10 * 60_000,
	);
});
