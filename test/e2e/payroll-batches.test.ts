/**
 * Example 9 on a real n8n server, run through its REST API as the editor runs it: a payroll of 2,500 rows in three
 * currencies, paid 1,000 rows at a time by the workflow calling itself as a sub-workflow. Every orderId reaches the
 * sandbox once and every row of the sheet has one line in the results file, in the sheet's order, none a formula;
 * a second run pays nothing; and a run after a crash that cut the results file short (the batches after the first
 * sent but never written) sends only the rows the file lacks, which HaiPay refuses as duplicates naming its orders:
 * still one order per orderId, and one line per row. A results file n8n cannot parse stops a run before it sends.
 */
import { read, utils } from '@e965/xlsx';
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { PAYROLL_RESULT_COLUMNS, WORKFLOW_IDS } from '../../playground/examples';
import {
	PAYROLL_BATCH,
	PAYROLL_RESULTS,
	PAYROLL_SHEET,
	payrollCsv,
	payrollRows,
	type PayrollRow,
} from '../../playground/payroll';
import { csvFormulaCells } from './cells';
import { runByRest, stackPerFile } from './stack';

const log = (line: string) => process.stdout.write(`${line}\n`);
const ROWS = 2_500;
const PREFIX = 'PAYROLL-E2E';

const running = stackPerFile(log);

/**
 * The sheet: 2,500 valid rows, four of whose orderIds a spreadsheet would run as a formula or read without its
 * apostrophe. None starts with "=": the node refuses "=" in any field (HaiPay's signed text joins fields with it), so
 * such a row is `invalid`, never paid.
 */
function sheet(): PayrollRow[] {
	const rows = payrollRows(ROWS, PREFIX);
	for (const [index, start] of [
		[3, '-'],
		[999, '@'],
		[1000, "'"],
		[2499, '-'],
	] as const)
		rows[index].orderId = `${start}${rows[index].orderId}`;
	return rows;
}

/** The results file as text lines, and its rows keyed by its header, every cell as the text written. */
function results(): { lines: string[]; rows: Array<Record<string, string>>; formulas: string[] } {
	const text = readFileSync(join(running().files, PAYROLL_RESULTS), 'utf8');
	const book = read(text, { type: 'string', raw: true, cellFormula: true });
	const rows = utils.sheet_to_json<Record<string, string>>(book.Sheets[book.SheetNames[0]], { defval: '', raw: false });
	return { lines: text.split('\n').filter((line) => line !== ''), rows, formulas: csvFormulaCells(book) };
}

const plain = (cell: string) => cell.replace(/^'/, '');

/** The sandbox's orders of this sheet, by orderId; fails on an orderId it holds twice. */
function ordersById(): Map<string, { orderNo: string }> {
	const orders = running().sandbox.orders.filter((order) => order.orderId.includes(PREFIX));
	const byId = new Map(orders.map((order) => [order.orderId, order]));
	expect(byId.size).toBe(orders.length);
	return byId;
}

describe('example 9: a payroll-sized sheet in batches', () => {
	const rows = sheet();

	test(
		'every row paid once, in batches of 1,000, every row in the results file once and safe to open',
		async () => {
			writeFileSync(join(running().files, PAYROLL_SHEET), payrollCsv(rows));
			const appliesBefore = running().sandbox.appliesReceived();

			const execution = await runByRest(running(), WORKFLOW_IDS.payrollBatches, 10 * 60_000);
			expect(execution.status).toBe('success');

			const orders = ordersById();
			expect([...orders.keys()].sort()).toEqual(rows.map((row) => row.orderId).sort());
			expect(running().sandbox.appliesReceived() - appliesBefore).toBe(ROWS);
			const written = results();
			expect(written.formulas).toEqual([]);
			expect(written.lines[0]).toBe(PAYROLL_RESULT_COLUMNS.join(','));
			expect(written.lines).toHaveLength(ROWS + 1);
			expect(written.rows.map((row) => Number(row.row))).toEqual(rows.map((_, index) => index + 1));
			expect(written.rows.map((row) => plain(row.orderId))).toEqual(rows.map((row) => row.orderId));
			expect(written.rows.filter((row) => row.outcome !== 'accepted')).toEqual([]);
			for (const row of written.rows) expect(row.orderNo).toBe(orders.get(plain(row.orderId))?.orderNo);
			expect(written.rows[3].orderId).toBe(`'${rows[3].orderId}`);

			// One execution for the sheet and one per batch, every one successful.
			const executions = await running().rest.executions(WORKFLOW_IDS.payrollBatches);
			expect(executions.map((run) => run.status)).toEqual(Array(1 + Math.ceil(ROWS / PAYROLL_BATCH)).fill('success'));
		},
		12 * 60_000,
	);

	test(
		'a second run sends nothing and writes nothing',
		async () => {
			const before = readFileSync(join(running().files, PAYROLL_RESULTS), 'utf8');
			const appliesBefore = running().sandbox.appliesReceived();
			const execution = await runByRest(running(), WORKFLOW_IDS.payrollBatches, 5 * 60_000);
			expect(execution.status).toBe('success');
			expect(running().sandbox.appliesReceived()).toBe(appliesBefore);
			expect(readFileSync(join(running().files, PAYROLL_RESULTS), 'utf8')).toBe(before);
		},
		6 * 60_000,
	);

	test(
		'after a crash that left only the first batch written, a rerun writes the rest once and pays nothing twice',
		async () => {
			// n8n died after appending the first batch: the later batches reached HaiPay, their results never the file.
			const { lines } = results();
			writeFileSync(join(running().files, PAYROLL_RESULTS), `${lines.slice(0, 1 + PAYROLL_BATCH).join('\n')}\n`);
			const appliesBefore = running().sandbox.appliesReceived();
			const ordersBefore = ordersById();

			const execution = await runByRest(running(), WORKFLOW_IDS.payrollBatches, 10 * 60_000);
			expect(execution.status).toBe('success');

			expect(running().sandbox.appliesReceived() - appliesBefore).toBe(ROWS - PAYROLL_BATCH);
			const orders = ordersById();
			expect(orders.size).toBe(ROWS);
			const written = results();
			expect(written.formulas).toEqual([]);
			expect(written.rows.map((row) => Number(row.row))).toEqual(rows.map((_, index) => index + 1));
			expect(written.rows.slice(0, PAYROLL_BATCH).every((row) => row.outcome === 'accepted')).toBe(true);
			const resent = written.rows.slice(PAYROLL_BATCH);
			expect(resent.filter((row) => row.outcome !== 'duplicate')).toEqual([]);
			// Each duplicate names the order HaiPay made the first time.
			for (const row of resent) expect(row.orderNo).toBe(ordersBefore.get(plain(row.orderId))?.orderNo);
		},
		12 * 60_000,
	);

	test(
		'a results file whose last line a crash cut short stops the rerun before anything is sent, and names the line',
		async () => {
			// Read as "nothing written", a file n8n cannot parse would send the whole sheet again.
			const path = join(running().files, PAYROLL_RESULTS);
			const whole = readFileSync(path, 'utf8');
			const cut = whole.slice(0, whole.lastIndexOf(',', whole.length - 2));
			writeFileSync(path, cut);
			const appliesBefore = running().sandbox.appliesReceived();

			const execution = await runByRest(running(), WORKFLOW_IDS.payrollBatches, 5 * 60_000);
			expect(execution.status).toBe('error');
			const message = JSON.stringify(execution).match(/Invalid Record Length[^"\\]*/)?.[0];
			log(`  the rerun stopped with: ${message}`);
			expect(message).toMatch(new RegExp(`on line ${ROWS + 1}$`));
			expect(running().sandbox.appliesReceived()).toBe(appliesBefore);
			expect(readFileSync(path, 'utf8')).toBe(cut);
		},
		6 * 60_000,
	);
});
