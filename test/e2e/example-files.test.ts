/**
 * Examples 1, 3 and 6 as saved, their HaiPay nodes and n8n's own nodes (Set, If, Merge, Filter, Extract from File,
 * Convert to File, from the pinned n8n) run in real n8n-core executions against the sandbox; the files they write
 * read back with SheetJS. What a form shows is n8n expressions, evaluated here by a Set node in the form's place.
 * - Example 6: the approval page's totals are the exact decimal sums of the valid rows, its invalid rows named with
 *   field and reason; the rows paid are the rows approved, and a sheet edited between Check and pay is not paid;
 *   the results are amounts as numbers with the exact text beside them; a second upload ends "Nothing new was paid",
 *   each duplicate row naming HaiPay's existing orderNo. Maker-checker: the results name the approver, the time, the
 *   run and the totals approved; an approval by the uploader, or by a person not on the approver list, pays nothing.
 * - Every results file, XLSX or CSV: no cell is a formula, no text cell starts with =, +, -, @, a tab or a CR.
 */
import DecimalJs from 'decimal.js';
import { read, utils, type WorkBook } from '@e965/xlsx';
import type { IConnections, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MONTH_END_COLUMNS, MONTH_END_ROWS, MONTH_END_SHEET } from '../../playground/month-end';
import { CONTROLLER, OWNER } from '../../playground/lib/n8n';
import { sheetFile } from '../../playground/lib/sheet';
import { startSandbox, type Sandbox } from '../../sandbox';
import { binaryBuffer, connect, runWorkflow, type NodeSpec, type RunResult } from '../harness';
import { multiCurrencyCredential } from '../helpers/credentials';
import { baseNodeTypes, HarnessStep, step, STEP_NODE_TYPE } from '../helpers/n8n-base-nodes';
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { readFileSync } from 'fs';
import { join } from 'path';
import { EXAMPLES } from '../../playground/lib/paths';

const Decimal = DecimalJs.clone({ precision: 100 });
const CURRENCIES = ['TZS', 'ZAR', 'NGN', 'EGP', 'BDT'] as const;
const FORMULA_START = /^[=+\-@\t\r]/;

let sandbox: Sandbox;
let types: Awaited<ReturnType<typeof baseNodeTypes>>;
beforeAll(async () => {
	sandbox = await startSandbox({ manual: true });
	types = await baseNodeTypes();
});
afterAll(async () => await sandbox?.close());

/** Every cell of a workbook's first sheet that is a formula, or text a spreadsheet would start one with. */
function formulaCells(book: WorkBook): string[] {
	const sheet = book.Sheets[book.SheetNames[0]];
	return Object.entries(sheet)
		.filter(([address]) => !address.startsWith('!'))
		.filter(([, cell]) => (cell as { f?: string }).f !== undefined || ((cell as { t: string }).t === 's' && FORMULA_START.test(String((cell as { v: unknown }).v))))
		.map(([address, cell]) => `${address}: ${JSON.stringify(cell)}`);
}

async function run(file: string, nodes: NodeSpec[], connections: IConnections, items: Array<{ json?: IDataObject; binary?: Record<string, { data: Buffer; fileName: string }> }>): Promise<RunResult> {
	const result = await runWorkflow({
		nodeTypes: [HaiPay, HarnessStep, ...types],
		credentials: { hpsandboxpayouts: { type: 'haiPayApi', name: 'HaiPay Sandbox payouts', data: multiCurrencyCredential(sandbox.baseUrl, CURRENCIES) } },
		nodes,
		connections,
		items,
		timeoutMs: 120_000,
	});
	if (result.status !== 'success') throw new Error(`${file}: ${JSON.stringify(result.error)}`);
	return result;
}

function sentOrderIds(): string[] {
	return sandbox.requests.filter((request) => request.path.endsWith('/pay/apply')).map((request) => String((request.body as IDataObject).orderId));
}

/** An example file's nodes, by name, as the harness takes them. */
function readExample(file: string): { node(name: string): IDataObject; spec(name: string): NodeSpec } {
	const saved = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: Array<NodeSpec & IDataObject> };
	const node = (name: string) => {
		const found = saved.nodes.find((candidate) => candidate.name === name);
		if (found === undefined) throw new Error(`${file} has no node "${name}"`);
		return found;
	};
	return { node, spec: (name) => structuredClone(node(name)) as NodeSpec };
}

// ---- example 6 -------------------------------------------------------------------------------------------

/** The sample sheet, and rows whose text a spreadsheet would run: they are paid or refused, and written safely. */
const SHEET_ROWS: IDataObject[] = [
	...MONTH_END_ROWS,
	{ ...MONTH_END_ROWS[1], orderId: '@ME-2026-06-0013', amount: 0.1 + 1 },
	{ ...MONTH_END_ROWS[0], orderId: '-ME-2026-06-0014', amount: '1000.10', currency: '\tTZS' },
	{ ...MONTH_END_ROWS[3], orderId: '+ME-2026-06-0015', amount: '=1+2' },
];
const INVALID = new Set(['ME-2026-06-0007', 'ME-2026-06-0009', '+ME-2026-06-0015']);

const monthEnd = readExample('6-month-end-payouts.json');
const PAID_PATH = ['Rows', 'Check', 'Approve', 'Approved?', 'Approver allowed?', 'Approved rows', 'Pay', 'Result row', 'To XLSX'];

/** n8n users as n8n's form names them (`user`): the uploader, an approver on the list, and a clerk who is not on it. */
const OWNER_USER = { id: 'u-owner', email: OWNER.email, firstName: OWNER.firstName, lastName: OWNER.lastName };
const CONTROLLER_USER = { id: 'u-controller', email: CONTROLLER.email, firstName: CONTROLLER.firstName, lastName: CONTROLLER.lastName };
const CLERK_USER = { id: 'u-clerk', email: 'clerk@haipay-playground.test', firstName: 'Sam', lastName: 'Clerk' };
const APPROVED_AT = '2026-06-30T17:45:00.000+00:00';

/**
 * Example 6 from the upload to the results file; the form trigger a step that names the uploader, the approval page,
 * the refusal and the last page Set nodes of their expressions, the approval submitted by `approver`.
 */
function monthEndWorkflow(edit?: string, approver: IDataObject = CONTROLLER_USER): { nodes: NodeSpec[]; connections: IConnections } {
	const approvePage = monthEnd.node('Approve').parameters as { formFields: { values: Array<{ html?: string }> } };
	const html = approvePage.formFields.values[0].html as string;
	const ending = monthEnd.node('Download the results').parameters as { completionTitle: string; completionMessage: string };
	const refusal = monthEnd.node('Refused').parameters as { completionMessage: string };
	const signedIn = step('the uploader signed in', (items: INodeExecutionData[]) => items.map((item, index) => ({ ...item, json: { ...item.json, user: OWNER_USER }, pairedItem: { item: index } })));
	const nodes: NodeSpec[] = [
		...['Rows', 'Check', 'Approved?', 'Approver allowed?', 'Approved rows', 'Pay', 'Result row', 'To XLSX'].map((name) => monthEnd.spec(name)),
		{ name: 'Upload the sheet', type: STEP_NODE_TYPE, parameters: { step: signedIn } },
		{ name: 'Approve', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: setParameters([['html', html], ['Decision', 'Approve'], ['user', JSON.stringify(approver), 'object'], ['submittedAt', APPROVED_AT]]) },
		{ name: 'Refused page', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: setParameters([['message', refusal.completionMessage]]) },
		{ name: 'Last page', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: setParameters([['title', ending.completionTitle], ['message', ending.completionMessage]]) },
	];
	const connections: IConnections = {};
	connect(connections, 'Start', 'Upload the sheet');
	connect(connections, 'Upload the sheet', 'Rows');
	connect(connections, 'Rows', 'Check');
	connect(connections, 'Rows', 'Approved rows', 0, 0);
	connect(connections, 'Check', 'Approve');
	connect(connections, 'Approve', 'Approved?');
	connect(connections, 'Approved?', 'Approver allowed?');
	connect(connections, 'Approver allowed?', 'Approved rows', 0, 1);
	connect(connections, 'Approver allowed?', 'Refused page', 1);
	if (edit === undefined) connect(connections, 'Approved rows', 'Pay');
	else {
		nodes.push({ name: 'Edit the sheet', type: STEP_NODE_TYPE, parameters: { step: edit } });
		connect(connections, 'Approved rows', 'Edit the sheet');
		connect(connections, 'Edit the sheet', 'Pay');
	}
	for (const [from, to] of [['Pay', 'Result row'], ['Result row', 'To XLSX'], ['To XLSX', 'Last page']]) connect(connections, from, to);
	return { nodes, connections };
}

function setParameters(fields: Array<[string, string, string?]>): IDataObject {
	return { mode: 'manual', assignments: { assignments: fields.map(([name, value, type], index) => ({ id: String(index), name, value, type: type ?? 'string' })) }, includeOtherFields: false, options: {} };
}

async function upload(edit?: string, approver?: IDataObject): Promise<RunResult> {
	const { nodes, connections } = monthEndWorkflow(edit, approver);
	const sheet = sheetFile(SHEET_ROWS, MONTH_END_COLUMNS, 'June');
	return await run('6-month-end-payouts.json', nodes, connections, [{ json: {}, binary: { Payout_sheet: { data: sheet, fileName: MONTH_END_SHEET } } }]);
}

const asText = (amount: unknown) => (typeof amount === 'number' ? String(amount) : String(amount).trim());

describe('example 6, month-end payouts', () => {
	it('shows exact totals and the invalid rows, pays the approved rows once, and writes a results file safe to open', async () => {
		const result = await upload();
		expect(PAID_PATH.every((name) => result.executedNodes.includes(name))).toBe(true);
		const valid = SHEET_ROWS.filter((row) => !INVALID.has(String(row.orderId)));
		const html = String(result.jsonOf('Approve')[0].html);
		for (const currency of CURRENCIES) {
			const rows = valid.filter((row) => String(row.currency).trim() === currency);
			const total = rows.reduce((sum, row) => sum.plus(asText(row.amount)), new Decimal(0)).toFixed(currency === 'BDT' ? 0 : 2);
			const grouped = total.replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','));
			expect(html).toContain(`<tr><td>${currency}</td><td>${rows.length}</td><td>${grouped}</td></tr>`);
		}
		expect(html).toContain('Rows that break a rule, not paid: <strong>3</strong>');
		expect(html).toMatch(/<td>8<\/td><td>ME-2026-06-0007<\/td><td>accountNo<\/td><td>[^<]+<\/td>/);
		expect(html).toMatch(/<td>10<\/td><td>ME-2026-06-0009<\/td><td>amount<\/td><td>[^<]*1,000[^<]*<\/td>/);
		expect(html).toContain('<td>+ME-2026-06-0015</td><td>amount</td>');

		expect(sentOrderIds().sort()).toEqual(valid.map((row) => String(row.orderId)).sort());
		const book = read(await binaryBuffer(result, 'To XLSX'), { type: 'buffer' });
		expect(formulaCells(book)).toEqual([]);
		const written = utils.sheet_to_json<IDataObject>(book.Sheets.Results, { defval: '' });
		expect(written.map((row) => String(row.orderId).replace(/^'/, ''))).toEqual(SHEET_ROWS.map((row) => row.orderId));
		expect(written[13]).toMatchObject({ orderId: "'-ME-2026-06-0014", currency: "'\tTZS", amount: 1000.1, amountText: '1000.10', outcome: 'accepted' });
		expect(written[12]).toMatchObject({ orderId: "'@ME-2026-06-0013", amount: 1.1, amountText: '1.10', outcome: 'accepted' });
		expect(written[14]).toMatchObject({ orderId: "'+ME-2026-06-0015", amount: '', amountText: "'=1+2", outcome: 'invalid', field: 'amount' });
		expect(written[1]).toMatchObject({ amount: 2500.5, amountText: '2500.50', outcome: 'accepted', orderNo: expect.stringMatching(/^HP\d+$/) });
		expect(written[4]).toMatchObject({ currency: 'BDT', amount: 500, amountText: '500' });
		expect(result.jsonOf('Last page')[0]).toEqual({ title: 'Payouts sent', message: expect.stringContaining('Rows by outcome: accepted: 12, invalid: 3.') });
		expect(String(result.jsonOf('Last page')[0].message)).toMatch(/^Approved by Pat Controller \(controller@haipay-playground\.test\) at 2026-06-30T17:45:00\.000\+00:00, execution \S+\. /);
		const fingerprint = String(result.jsonOf('Check')[0].fingerprint);
		for (const row of written) {
			const currency = String(row.currency).replace(/^'/, '').trim();
			const approved = valid.filter((entry) => String(entry.currency).trim() === currency);
			const total = approved.reduce((sum, entry) => sum.plus(asText(entry.amount)), new Decimal(0)).toFixed(currency === 'BDT' ? 0 : 2);
			expect(row).toMatchObject({
				approvedBy: 'Pat Controller (controller@haipay-playground.test)',
				approvedAt: APPROVED_AT,
				uploadedBy: 'Playground Owner (owner@haipay-playground.test)',
				approvedRows: approved.length,
				approvedTotal: total,
				fingerprint,
			});
			expect(String(row.executionId)).not.toBe('');
		}
	});

	it('an approval by the uploader, or by a person not on the approver list, is refused and pays nothing', async () => {
		const before = sentOrderIds().length;
		for (const [approver, reason] of [
			[OWNER_USER, 'owner@haipay-playground.test uploaded this sheet; the uploader cannot approve it.'],
			[CLERK_USER, 'clerk@haipay-playground.test is not on the list of month-end approvers'],
			[{}, 'a person not signed in to n8n is not on the list'],
		] as const) {
			const result = await upload(undefined, approver);
			expect(result.executedNodes).not.toContain('Pay');
			expect(String(result.jsonOf('Refused page')[0].message)).toContain(reason);
			expect(String(result.jsonOf('Refused page')[0].message)).toContain('Nothing was paid.');
		}
		expect(sentOrderIds().length).toBe(before);
	});

	it('a sheet edited between Check and pay is not paid: every row comes out invalid, nothing is sent', async () => {
		const before = sentOrderIds().length;
		const edit = step('raise one amount', (items: INodeExecutionData[]) =>
			items.map((item, index) => ({ json: index === 2 ? { ...item.json, amount: 50000 } : item.json, pairedItem: { item: index } })),
		);
		const result = await upload(edit);
		expect(sentOrderIds().length).toBe(before);
		const outcomes = result.jsonOf('Result row').map((row) => [row.outcome, row.field]);
		expect(outcomes.filter(([, field]) => field === 'approvedFingerprint')).toHaveLength(12);
		expect(outcomes.every(([outcome]) => outcome === 'invalid')).toBe(true);
		expect(result.jsonOf('Last page')[0]).toEqual({ title: 'Nothing new was paid', message: expect.stringContaining('The sheet changed after it was approved: nothing was sent.') });
	});

	it('the same sheet uploaded again pays nothing new: every valid row is a duplicate', async () => {
		const result = await upload();
		const outcomes = result.jsonOf('Result row').map((row) => row.outcome);
		expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(12);
		// Each duplicate names the order HaiPay already has, from the node's signed query.
		for (const row of result.jsonOf('Result row').filter((entry) => entry.outcome === 'duplicate')) {
			const orderId = String(row.orderId).replace(/^'/, '');
			expect(row.orderNo).toBe(sandbox.orders.find((order) => order.orderId === orderId)?.orderNo);
		}
		expect(result.jsonOf('Last page')[0]).toEqual({ title: 'Nothing new was paid', message: expect.stringContaining('duplicate: 12, invalid: 3.') });
	});
});

// ---- examples 1 and 3 --------------------------------------------------------------------------------------

const bulk = readExample('1-bulk-payouts.json');
const reconciliation = readExample('3-reconciliation.json');
const CSV_COLUMNS = ['orderId', 'currency', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'phone', 'email', 'partnerUserId'];
const HOSTILE = '=HYPERLINK("http://evil.example/","Open")';

function csvOf(rows: IDataObject[]): Buffer {
	const lines = rows.map((row) => CSV_COLUMNS.map((column) => `"${String(row[column] ?? '').replace(/"/g, '""')}"`).join(','));
	return Buffer.from([CSV_COLUMNS.join(','), ...lines].join('\n'));
}

/** Nodes of an example in a line from Start, as saved; the bulk example's callback URL left out (no n8n listens here). */
function line(example: ReturnType<typeof readExample>, names: string[]): { nodes: NodeSpec[]; connections: IConnections } {
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
	it('hold no formula, whether the text came from a row or from HaiPay (errorMsg), and example 3 reads example 1\'s file back', async () => {
		const tzs = MONTH_END_ROWS[0];
		const rows: IDataObject[] = [
			{ ...tzs, orderId: '-BULK-0001' },
			{ ...MONTH_END_ROWS[1], orderId: '@BULK-0002' },
			{ ...tzs, orderId: 'BULK-0003', amount: '=1+2' },
			{ ...tzs, orderId: "'BULK-0004", name: 'Neema Said' },
		];
		const paid = await run('1-bulk-payouts.json', ...Object.values(line(bulk, ['Rows', 'Number rows', 'Pay', 'Result row', 'To CSV'])) as [NodeSpec[], IConnections], [
			{ binary: { data: { data: csvOf(rows), fileName: 'payouts.csv' } } },
		]);
		const results = await binaryBuffer(paid, 'To CSV');
		const book = read(results, { type: 'buffer' });
		expect(formulaCells(book)).toEqual([]);
		const written = utils.sheet_to_json<IDataObject>(book.Sheets[book.SheetNames[0]], { defval: '', raw: false });
		expect(written.map((row) => [row.orderId, row.outcome])).toEqual([
			["'-BULK-0001", 'accepted'],
			["'@BULK-0002", 'accepted'],
			['BULK-0003', 'invalid'],
			["''BULK-0004", 'accepted'],
		]);

		sandbox.control.settle({ orderId: '-BULK-0001' }, 'failed', { errorMsg: HOSTILE });
		const states = await run('3-reconciliation.json', ...Object.values(line(reconciliation, ['Rows', 'Sent, result not known', 'Query', 'Order state', 'To CSV'])) as [NodeSpec[], IConnections], [
			{ binary: { data: { data: results, fileName: 'payout-results.csv' } } },
		]);
		const report = read(await binaryBuffer(states, 'To CSV'), { type: 'buffer' });
		expect(formulaCells(report)).toEqual([]);
		const reconciled = utils.sheet_to_json<IDataObject>(report.Sheets[report.SheetNames[0]], { defval: '', raw: false });
		expect(reconciled.map((row) => [row.orderId, row.status, row.errorMsg])).toEqual([
			["'-BULK-0001", '3', `'${HOSTILE}`],
			["'@BULK-0002", '1', ''],
			["''BULK-0004", '1', ''],
		]);
		// Found by the orderId as it was paid: the file's apostrophe is not part of it.
		for (const row of reconciled) expect(row.orderNo).toMatch(/^HP\d+$/);
	});
});
