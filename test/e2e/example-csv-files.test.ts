/**
 * Examples 1 and 3 as saved, their HaiPay nodes and n8n's own nodes (Extract from File, Set, Filter, Convert to File,
 * from the pinned n8n) run in real n8n-core executions against the sandbox; the CSV files they write read back with
 * SheetJS: no cell is a formula, no text cell starts with =, +, -, @, a tab or a CR (CSV keeps the apostrophe guard;
 * XLSX needs none, example-files.test.ts), whether the text came from a row or from HaiPay, and example 3 reads
 * example 1's file back.
 */
import { read, utils } from '@e965/xlsx';
import type { IConnections, IDataObject } from 'n8n-workflow';

import { MONTH_END_ROWS } from '../../playground/month-end';
import { binaryBuffer, connect, type NodeSpec } from '../harness';
import { csvFormulaCells } from './cells';
import { exampleRuns, readExample } from './example-runs';

const examples = exampleRuns();

const bulk = readExample('1-bulk-payouts.json');
const reconciliation = readExample('3-reconciliation.json');
const CSV_COLUMNS = [
	'orderId',
	'currency',
	'amount',
	'accountType',
	'bankCode',
	'accountNo',
	'name',
	'phone',
	'email',
	'partnerUserId',
];
const HOSTILE = '=HYPERLINK("http://evil.example/","Open")';

function csvOf(rows: IDataObject[]): Buffer {
	const lines = rows.map((row) =>
		CSV_COLUMNS.map((column) => `"${String(row[column] ?? '').replace(/"/g, '""')}"`).join(','),
	);
	return Buffer.from([CSV_COLUMNS.join(','), ...lines].join('\n'));
}

/** Nodes of an example in a line from Start, as saved; the bulk example's callback URL left out (no n8n listens here). */
function line(
	example: ReturnType<typeof readExample>,
	names: string[],
): { nodes: NodeSpec[]; connections: IConnections } {
	const nodes = names.map((name) => example.spec(name));
	const numbered = nodes.find((node) => node.name === 'Number rows');
	if (numbered !== undefined) {
		const assignments = (numbered.parameters as { assignments: { assignments: Array<{ name: string }> } }).assignments;
		assignments.assignments = assignments.assignments.filter((assignment) => assignment.name !== 'notifyUrl');
	}
	const connections: IConnections = {};
	['Start', ...names].forEach((name, index, all) => index > 0 && connect(connections, all[index - 1], name));
	return { nodes, connections };
}

describe('examples 1 and 3: the results CSVs', () => {
	it("hold no formula, whether the text came from a row or from HaiPay (errorMsg), and example 3 reads example 1's file back", async () => {
		const tzs = MONTH_END_ROWS[0];
		const rows: IDataObject[] = [
			{ ...tzs, orderId: '-BULK-0001' },
			{ ...MONTH_END_ROWS[1], orderId: '@BULK-0002' },
			{ ...tzs, orderId: 'BULK-0003', amount: '=1+2' },
			{ ...tzs, orderId: "'BULK-0004", name: 'Neema Said' },
		];
		const paid = await examples.run(
			'1-bulk-payouts.json',
			...(Object.values(line(bulk, ['Rows', 'Number rows', 'Pay', 'Result row', 'To CSV'])) as [
				NodeSpec[],
				IConnections,
			]),
			[{ binary: { data: { data: csvOf(rows), fileName: 'payouts.csv' } } }],
		);
		const results = await binaryBuffer(paid, 'To CSV');
		const book = read(results, { type: 'buffer' });
		expect(csvFormulaCells(book)).toEqual([]);
		const written = utils.sheet_to_json<IDataObject>(book.Sheets[book.SheetNames[0]], { defval: '', raw: false });
		expect(written.map((row) => [row.orderId, row.outcome])).toEqual([
			["'-BULK-0001", 'accepted'],
			["'@BULK-0002", 'accepted'],
			['BULK-0003', 'invalid'],
			["''BULK-0004", 'accepted'],
		]);

		examples.sandbox().control.settle({ orderId: '-BULK-0001' }, 'failed', { errorMsg: HOSTILE });
		const states = await examples.run(
			'3-reconciliation.json',
			...(Object.values(line(reconciliation, ['Rows', 'Sent, result not known', 'Query', 'Order state', 'To CSV'])) as [
				NodeSpec[],
				IConnections,
			]),
			[{ binary: { data: { data: results, fileName: 'payout-results.csv' } } }],
		);
		const reportBytes = await binaryBuffer(states, 'To CSV');
		// The text a spreadsheet opens: HaiPay's formula behind the apostrophe, in one quoted field.
		expect(reportBytes.toString('utf8')).toContain(`,"'${HOSTILE.replace(/"/g, '""')}"`);
		const report = read(reportBytes, { type: 'buffer' });
		expect(csvFormulaCells(report)).toEqual([]);
		const reconciled = utils.sheet_to_json<IDataObject>(report.Sheets[report.SheetNames[0]], {
			defval: '',
			raw: false,
		});
		expect(reconciled.map((row) => [row.orderId, row.status, row.errorMsg])).toEqual([
			["'-BULK-0001", '3', `'${HOSTILE}`],
			["'@BULK-0002", '1', ''],
			["''BULK-0004", '1', ''],
		]);
		// Found by the orderId as it was paid: the file's apostrophe is not part of it.
		for (const row of reconciled) expect(row.orderNo).toMatch(/^HP\d+$/);
	});
});
