/**
 * Example 6 as saved, its HaiPay nodes and n8n's own nodes (Set, If, Merge, Extract from File, Convert to File, from
 * the pinned n8n) run in real n8n-core executions against the sandbox; the file it writes read back with SheetJS and
 * from its own XML.
 * What a form shows is n8n expressions, evaluated here by a Set node in the form's place. The approval page's totals
 * are the exact decimal sums of the valid rows, its invalid rows named with field and reason; the rows paid are the
 * rows approved, and a sheet edited between Check and pay is not paid; the results are amounts as numbers with the
 * exact text beside them, text a spreadsheet would run written as it is in a string cell, no cell a formula and none
 * with an added apostrophe (CSV's guard, examples 1 and 3); a second upload warns first, naming every row HaiPay already has, shows
 * 0 to pay in each currency, and ends "Nothing new was paid", each duplicate row naming HaiPay's existing orderNo.
 * Maker-checker: the results name the approver, the time, the run and the totals approved; an approval by the
 * uploader, or by a person not on the approver list, pays nothing. Examples 1 and 3: example-csv-files.test.ts.
 */
import DecimalJs from 'decimal.js';
import { read, utils } from '@e965/xlsx';
import type { IConnections, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MONTH_END_COLUMNS, MONTH_END_ROWS, MONTH_END_SHEET } from '../../playground/month-end';
import { CONTROLLER, OWNER } from '../../playground/lib/n8n';
import { sheetFile } from '../../playground/lib/sheet';
import { binaryBuffer, connect, type NodeSpec, type RunResult } from '../harness';
import { step, STEP_NODE_TYPE } from '../helpers/n8n-base-nodes';
import { expectTextAsIs } from './cells';
import { CURRENCIES, exampleRuns, readExample } from './example-runs';

const Decimal = DecimalJs.clone({ precision: 100 });
const examples = exampleRuns();
const run = examples.run;

function sentOrderIds(): string[] {
	return examples
		.sandbox()
		.requests.filter((request) => request.path.endsWith('/pay/apply'))
		.map((request) => String((request.body as IDataObject).orderId));
}

// ---- example 6 -------------------------------------------------------------------------------------------

const HOSTILE = '=HYPERLINK("http://evil.example/","Open")';
/** The sample sheet, and rows whose text a spreadsheet would run: they are paid or refused, and written as text. */
const SHEET_ROWS: IDataObject[] = [
	...MONTH_END_ROWS,
	{ ...MONTH_END_ROWS[1], orderId: '@ME-2026-06-0013', amount: 0.1 + 1 },
	{ ...MONTH_END_ROWS[0], orderId: '-ME-2026-06-0014', amount: '1000.10', currency: '\tTZS' },
	{ ...MONTH_END_ROWS[3], orderId: '+ME-2026-06-0015', amount: HOSTILE },
];
const INVALID = new Set(['ME-2026-06-0007', 'ME-2026-06-0009', '+ME-2026-06-0015']);

const monthEnd = readExample('6-month-end-payouts.json');
const PAID_PATH = [
	'Rows',
	'Check',
	'Approve',
	'Approved?',
	'Approver allowed?',
	'Approved rows',
	'Pay',
	'Result row',
	'To XLSX',
];

/** n8n users as n8n's form names them (`user`): the uploader, an approver on the list, and a clerk who is not on it. */
const OWNER_USER = { id: 'u-owner', email: OWNER.email, firstName: OWNER.firstName, lastName: OWNER.lastName };
const CONTROLLER_USER = {
	id: 'u-controller',
	email: CONTROLLER.email,
	firstName: CONTROLLER.firstName,
	lastName: CONTROLLER.lastName,
};
const CLERK_USER = { id: 'u-clerk', email: 'clerk@haipay-playground.test', firstName: 'Sam', lastName: 'Clerk' };
/** An hour ago, in the form n8n's Form gives `submittedAt`: example 6's policy counts an approval for 72 hours. */
const APPROVED_AT = new Date(Date.now() - 3_600_000).toISOString().replace('Z', '+00:00');

/**
 * Example 6 from the upload to the results file; the form trigger a step that names the uploader, the approval page,
 * the refusal and the last page Set nodes of their expressions, the approval submitted by `approver`.
 */
function monthEndWorkflow(
	edit?: string,
	approver: IDataObject = CONTROLLER_USER,
): { nodes: NodeSpec[]; connections: IConnections } {
	const approvePage = monthEnd.node('Approve').parameters as { formFields: { values: Array<{ html?: string }> } };
	const html = approvePage.formFields.values[0].html as string;
	const ending = monthEnd.node('Download the results').parameters as {
		completionTitle: string;
		completionMessage: string;
	};
	const refusal = monthEnd.node('Refused').parameters as { completionMessage: string };
	const signedIn = step('the uploader signed in', (items: INodeExecutionData[]) =>
		items.map((item, index) => ({ ...item, json: { ...item.json, user: OWNER_USER }, pairedItem: { item: index } })),
	);
	const nodes: NodeSpec[] = [
		...['Rows', 'Check', 'Approved?', 'Approver allowed?', 'Approved rows', 'Pay', 'Result row', 'To XLSX'].map(
			(name) => monthEnd.spec(name),
		),
		{ name: 'Upload the sheet', type: STEP_NODE_TYPE, parameters: { step: signedIn } },
		{
			name: 'Approve',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: setParameters([
				['html', html],
				['Decision', 'Approve'],
				['user', JSON.stringify(approver), 'object'],
				['submittedAt', APPROVED_AT],
			]),
		},
		// Present, not run: the results ask whether a second approval was given (one approver sufficed here).
		{ name: 'Second approval', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: setParameters([]) },
		{
			name: 'Refused page',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: setParameters([['message', refusal.completionMessage]]),
		},
		{
			name: 'Last page',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: setParameters([
				['title', ending.completionTitle],
				['message', ending.completionMessage],
			]),
		},
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
	for (const [from, to] of [
		['Pay', 'Result row'],
		['Result row', 'To XLSX'],
		['To XLSX', 'Last page'],
	])
		connect(connections, from, to);
	return { nodes, connections };
}

function setParameters(fields: Array<[string, string, string?]>): IDataObject {
	return {
		mode: 'manual',
		assignments: {
			assignments: fields.map(([name, value, type], index) => ({
				id: String(index),
				name,
				value,
				type: type ?? 'string',
			})),
		},
		includeOtherFields: false,
		options: {},
	};
}

async function upload(edit?: string, approver?: IDataObject): Promise<RunResult> {
	const { nodes, connections } = monthEndWorkflow(edit, approver);
	const sheet = sheetFile(SHEET_ROWS, MONTH_END_COLUMNS, 'June');
	return await run('6-month-end-payouts.json', nodes, connections, [
		{ json: {}, binary: { Payout_sheet: { data: sheet, fileName: MONTH_END_SHEET } } },
	]);
}

const asText = (amount: unknown) => (typeof amount === 'number' ? String(amount) : String(amount).trim());
/** An exact amount as the approval page writes it: in the currency's places, the whole part grouped in thousands. */
const shownAmount = (amount: InstanceType<typeof Decimal>, currency: string) =>
	amount.toFixed(currency === 'BDT' ? 0 : 2).replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','));

describe('example 6, month-end payouts', () => {
	it('shows exact totals and the invalid rows, pays the approved rows once, and writes a results file safe to open', async () => {
		const result = await upload();
		expect(PAID_PATH.every((name) => result.executedNodes.includes(name))).toBe(true);
		const valid = SHEET_ROWS.filter((row) => !INVALID.has(String(row.orderId)));
		const html = String(result.jsonOf('Approve')[0].html);
		// HaiPay has none of the rows yet, and said so, signed: no warning comes before the totals.
		expect(html.startsWith('<h3>To pay</h3>')).toBe(true);
		for (const currency of CURRENCIES) {
			const rows = valid.filter((row) => String(row.currency).trim() === currency);
			const total = rows.reduce((sum, row) => sum.plus(asText(row.amount)), new Decimal(0));
			expect(html).toContain(
				`<tr><td>${currency}</td><td>${rows.length}</td><td>${shownAmount(total, currency)}</td></tr>`,
			);
		}
		expect(html).toContain('Rows that break a rule, not paid: <strong>3</strong>');
		expect(html).toMatch(/<td>8<\/td><td>ME-2026-06-0007<\/td><td>accountNo<\/td><td>[^<]+<\/td>/);
		expect(html).toMatch(/<td>10<\/td><td>ME-2026-06-0009<\/td><td>amount<\/td><td>[^<]*1,000[^<]*<\/td>/);
		expect(html).toContain('<td>+ME-2026-06-0015</td><td>amount</td>');

		expect(sentOrderIds().sort()).toEqual(valid.map((row) => String(row.orderId)).sort());
		const bytes = await binaryBuffer(result, 'To XLSX');
		const book = read(bytes, { type: 'buffer' });
		// XLSX marks a formula (<f>) apart from text: text a spreadsheet would run is a string cell, as it is.
		await expectTextAsIs(bytes, [HOSTILE, '@ME-2026-06-0013', '-ME-2026-06-0014', '\tTZS', '+ME-2026-06-0015']);
		const written = utils.sheet_to_json<IDataObject>(book.Sheets.Results, { defval: '' });
		expect(written.map((row) => row.orderId)).toEqual(SHEET_ROWS.map((row) => row.orderId));
		expect(written[13]).toMatchObject({
			orderId: '-ME-2026-06-0014',
			currency: '\tTZS',
			amount: 1000.1,
			amountText: '1000.10',
			outcome: 'accepted',
		});
		expect(written[12]).toMatchObject({
			orderId: '@ME-2026-06-0013',
			amount: 1.1,
			amountText: '1.10',
			outcome: 'accepted',
		});
		expect(written[14]).toMatchObject({
			orderId: '+ME-2026-06-0015',
			amount: '',
			amountText: HOSTILE,
			outcome: 'invalid',
			field: 'amount',
		});
		expect(written[1]).toMatchObject({
			amount: 2500.5,
			amountText: '2500.50',
			outcome: 'accepted',
			orderNo: expect.stringMatching(/^HP\d+$/),
		});
		expect(written[4]).toMatchObject({ currency: 'BDT', amount: 500, amountText: '500' });
		expect(result.jsonOf('Last page')[0]).toEqual({
			title: 'Payouts sent',
			message: expect.stringContaining('Rows by outcome: accepted: 12, invalid: 3.'),
		});
		expect(String(result.jsonOf('Last page')[0].message)).toMatch(
			new RegExp(
				`^Approved by Pat Controller \\(controller@haipay-playground\\.test\\) at ${APPROVED_AT.replace(/[.+]/g, '\\$&')}, execution \\S+\\. `,
			),
		);
		const fingerprint = String(result.jsonOf('Check')[0].fingerprint);
		for (const row of written) {
			const currency = String(row.currency).trim();
			const approved = valid.filter((entry) => String(entry.currency).trim() === currency);
			const total = approved
				.reduce((sum, entry) => sum.plus(asText(entry.amount)), new Decimal(0))
				.toFixed(currency === 'BDT' ? 0 : 2);
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
			items.map((item, index) => ({
				json: index === 2 ? { ...item.json, amount: 50000 } : item.json,
				pairedItem: { item: index },
			})),
		);
		const result = await upload(edit);
		expect(sentOrderIds().length).toBe(before);
		const outcomes = result.jsonOf('Result row').map((row) => [row.outcome, row.field]);
		expect(outcomes.filter(([, field]) => field === 'approvedFingerprint')).toHaveLength(12);
		expect(outcomes.every(([outcome]) => outcome === 'invalid')).toBe(true);
		expect(result.jsonOf('Last page')[0]).toEqual({
			title: 'Nothing new was paid',
			message: expect.stringContaining('The sheet changed after it was approved: nothing was sent.'),
		});
	});

	it('the same sheet uploaded again warns first, naming each row HaiPay has and each it could not be asked about; 0 to pay for the rows it has; nothing new paid', async () => {
		// BDT's order query fails while Check asks it, then mends before Pay.
		examples.sandbox().control.addFault({ type: 'httpError', path: '/bdt/pay/query' });
		const mended = step('the gateway mends', (items: INodeExecutionData[]) => {
			examples.sandbox().control.clearFaults();
			return items.map((item, index) => ({ json: item.json, pairedItem: { item: index } }));
		});
		const result = await upload(mended);
		const html = String(result.jsonOf('Approve')[0].html);
		expect(html.startsWith('<h2>Warning: HaiPay already has 10 rows of this sheet</h2>')).toBe(true);
		expect(html.indexOf('<h2>Warning: 2 rows could not be checked with HaiPay</h2>')).toBeLessThan(
			html.indexOf('<h3>To pay</h3>'),
		);
		SHEET_ROWS.forEach((row, index) => {
			const order = examples.sandbox().orders.find((entry) => entry.orderId === row.orderId);
			if (INVALID.has(String(row.orderId))) return expect(order).toBeUndefined();
			const currency = String(row.currency).trim();
			const listed = `<tr><td>${index + 2}</td><td>${row.orderId}</td><td>${shownAmount(new Decimal(asText(row.amount)), currency)} ${currency}</td><td>`;
			expect(html).toContain(
				currency === 'BDT'
					? `${listed}HaiPay answered HTTP 502 instead of 200</td></tr>`
					: `${listed}${order?.orderNo}</td><td>processing</td></tr>`,
			);
		});
		for (const currency of CURRENCIES)
			expect(html).toContain(
				`<tr><td>${currency}</td><td>${currency === 'BDT' ? '2</td><td>1,750' : '0</td><td>0.00'}</td></tr>`,
			);
		const outcomes = result.jsonOf('Result row').map((row) => row.outcome);
		expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(12);
		// Each duplicate names the order HaiPay already has, from the node's signed query.
		for (const row of result.jsonOf('Result row').filter((entry) => entry.outcome === 'duplicate')) {
			const orderId = String(row.orderId);
			expect(row.orderNo).toBe(examples.sandbox().orders.find((order) => order.orderId === orderId)?.orderNo);
		}
		expect(result.jsonOf('Last page')[0]).toEqual({
			title: 'Nothing new was paid',
			message: expect.stringContaining('duplicate: 12, invalid: 3.'),
		});
	});
});
