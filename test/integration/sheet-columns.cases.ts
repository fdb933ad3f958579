/**
 * Payout → Check names what is wrong with a sheet's columns, once for the sheet: the columns it reads and did not
 * find, each with the column of the sheet to rename into it ("Order ID" → orderId), the columns it does not read,
 * and two columns that read as one field, which refuse the sheet. A column is read only by its exact name, by Check
 * and Create alike. Real n8n-core executions against the sandbox; nothing is sent by a check.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { APP_IDS, PAYOUTS, type PayoutCurrency } from '../fixtures/bodies';
import { credentialFor, NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

/** The sandbox's TZS App ID, with ZAR's beside it. */
function credential(): ICredentialDataDecryptedObject {
	return credentialFor(sandbox, 'TZS', {
		otherCurrencies: ['ZAR'],
		appIdZar: APP_IDS.ZAR,
		secretKeyZar: 'test-only-secret-zar',
	});
}

function row(currency: PayoutCurrency, overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId(`COL-${currency}`), currency, ...PAYOUTS[currency], ...overrides };
}

/** A finance team's headers for the same row: "Order ID", "Currency", "Account Number" ... */
const FINANCE: Record<string, string> = {
	orderId: 'Order ID',
	currency: 'Currency',
	amount: 'Amount',
	accountType: 'Account Type',
	bankCode: 'Bank Code',
	accountNo: 'Account Number',
	name: 'Account Name',
	phone: 'Phone Number',
	email: 'Email',
	partnerUserId: 'partner_user_id',
};

function renamed(json: IDataObject, names: Record<string, string>): IDataObject {
	return Object.fromEntries(Object.entries(json).map(([key, value]) => [names[key] ?? key, value]));
}

async function check(items: IDataObject[], options: IDataObject = { output: 'summary' }): Promise<IDataObject[]> {
	const before = sandbox.requests.length;
	const result = await runNode(sandbox, {
		parameters: {
			resource: 'payout',
			operation: 'check',
			currency: '={{ $json.currency }}',
			fieldsFrom: 'input',
			options: options as INodeParameters,
		},
		items,
		credential: credential(),
	});
	expect(result.status).toBe('success');
	expect(sandbox.requests.slice(before).filter((request) => request.path.endsWith('/pay/apply'))).toEqual([]);
	return result.jsonOf(NODE);
}

interface Problem {
	kind: string;
	field: string | null;
	columns: string[];
	renameTo: string | null;
	refuses: string;
	text: string;
}

const problemsOf = (summary: IDataObject) => (summary.sheet as { problems: Problem[] }).problems;

describe("Payout → Check: the sheet's columns", () => {
	it('a sheet with finance headers: each missing column named once with the column to rename, and nothing to pay', async () => {
		const rows = [row('TZS'), row('ZAR', { amount: '150.50' }), row('TZS')].map((json) => renamed(json, FINANCE));
		const [summary] = await check(rows);
		expect(summary).toMatchObject({ rows: 3, validRows: 0, invalidRows: 3, invalid: [] });
		expect(summary.sheet).toMatchObject({ refusedRows: 3, refuses: false });
		const problems = problemsOf(summary);
		const renames = Object.fromEntries(
			problems.filter((p) => p.kind === 'missing').map((p) => [p.renameTo, p.columns]),
		);
		expect(renames).toEqual({
			currency: ['Currency'],
			orderId: ['Order ID'],
			amount: ['Amount'],
			accountType: ['Account Type'],
			bankCode: ['Bank Code'],
			accountNo: ['Account Number'],
			name: ['Account Name'],
			phone: ['Phone Number'],
			email: ['Email'],
			partnerUserId: ['partner_user_id'],
		});
		const currency = problems.find((p) => p.field === 'currency');
		expect(currency?.text).toBe(
			'The sheet has no column "currency" (Currency reads {{ $json.currency }}); its column "Currency" reads as currency but is not read under that name: rename column "Currency" to "currency"',
		);
		// Each finding once, however many rows the sheet has.
		expect(new Set(problems.map((p) => p.text)).size).toBe(problems.length);
	});

	it('one item per row: a row refused for a missing column names the column, not the empty value', async () => {
		const out = await check([renamed(row('TZS'), { currency: 'Currency' })], {});
		expect(out[0]).toMatchObject({ outcome: 'invalid', field: 'currency', rule: 'column' });
		expect(String(out[0].error)).toContain('rename column "Currency" to "currency"');
	});

	it('columns it does not read are named, and the rows stay valid', async () => {
		const rows = [row('TZS', { Notes: 'June', Subject: 'salary' }), row('ZAR', { amount: '10.00', Notes: '' })];
		const [summary] = await check(rows);
		expect(summary).toMatchObject({ validRows: 2, invalidRows: 0 });
		expect(problemsOf(summary)).toEqual([
			expect.objectContaining({ kind: 'notRead', columns: ['Subject'], renameTo: 'subject', refuses: 'none' }),
			expect.objectContaining({ kind: 'notRead', columns: ['Notes'], field: null, refuses: 'none' }),
		]);
	});

	it.each([
		['orderId', 'Order ID'],
		['accountNo', 'Account Number'],
	])('two columns that read as %s ("%s" beside it) refuse the sheet, naming both', async (field, other) => {
		const rows = [row('TZS', { [other]: 'something else' }), row('ZAR', { amount: '10.00' })];
		const out = await check(rows, {});
		for (const item of out) {
			expect(item).toMatchObject({ outcome: 'invalid', field, rule: 'column' });
			expect(String(item.error)).toContain(`Columns "${field}" and "${other}" all read as ${field}`);
		}
		const [summary] = await check(rows);
		expect(summary).toMatchObject({ validRows: 0, invalidRows: 2, sheet: { refuses: true, refusedRows: 2 } });
	});

	it('two spellings of a missing column ("Order ID" and "order_id") refuse the sheet, naming both', async () => {
		const json = renamed(row('TZS'), { orderId: 'Order ID' });
		const [summary] = await check([{ ...json, order_id: 'X-1' }]);
		expect(problemsOf(summary)[0]).toMatchObject({
			kind: 'ambiguous',
			field: 'orderId',
			columns: ['Order ID', 'order_id'],
			refuses: 'sheet',
		});
	});

	it('with a fixed Currency, a column spelled "Currency" refuses the sheet: the row\'s own currency is not read', async () => {
		const json = renamed(row('ZAR', { amount: '10.00' }), { currency: 'Currency' });
		const result = await runNode(sandbox, {
			parameters: { resource: 'payout', operation: 'check', currency: 'TZS', fieldsFrom: 'input', options: {} },
			items: [json],
			credential: credential(),
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field: 'currency', rule: 'column' });
	});
});
