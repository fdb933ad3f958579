/**
 * Payout → Check's approval summary and Payout → Create's Approved Fingerprint, "approved is what is paid": real
 * n8n-core executions against the sandbox, whose request log shows what reached HaiPay. The sheet is checked, its
 * summary approved, then edited (a row added, removed, or another amount, currency or payee) before the pay step:
 * nothing is sent. Unedited, or only reordered, it is paid.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import type { PayoutCurrency } from '../fixtures/bodies';
import { NODE, sandboxPerFile } from './helpers';
import { requestsFor, runSheet, sheetRow } from './payout-sheets';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const CURRENCIES = ['TZS', 'ZAR', 'NGN', 'EGP', 'BDT'] as const;

const row = (currency: PayoutCurrency, overrides: IDataObject = {}) => sheetRow('APR', currency, overrides);

async function summarise(items: IDataObject[]): Promise<IDataObject> {
	const result = await runSheet(sandbox, 'check', items, { output: 'summary' }, { currencies: CURRENCIES });
	expect(result.status).toBe('success');
	const out = result.jsonOf(NODE);
	expect(out).toHaveLength(1);
	return out[0];
}

async function pay(
	items: IDataObject[],
	approvedFingerprint: unknown,
	settings: Record<string, unknown> = { onError: 'continueRegularOutput' },
) {
	const options = approvedFingerprint === undefined ? {} : { approvedFingerprint };
	return await runSheet(sandbox, 'create', items, options, { currencies: CURRENCIES, settings });
}

const received = (items: IDataObject[]) => requestsFor(sandbox, items);

describe('Payout → Check, Output: Approval Summary', () => {
	it('gives exact totals and row counts per currency, every invalid row with its field and reason, and sends nothing', async () => {
		const rows = [
			row('ZAR', { amount: '0.10' }),
			row('ZAR', { amount: 2500.5 }),
			row('TZS', { amount: '1000.10' }),
			row('ZAR', { amount: '9999999.99' }),
			row('NGN', { accountNo: '12345' }),
			row('BDT', { amount: '1250' }),
			row('TZS', { amount: '500' }),
			row('ZAR', { amount: '1.10' }),
		];
		const summary = await summarise(rows);
		expect(summary).toMatchObject({ outcome: 'summary', rows: 8, validRows: 5, invalidRows: 3 });
		expect(summary.currencies).toEqual([
			{ currency: 'ZAR', rows: 3, total: '10002501.59', decimals: 2, invalidRows: 1 },
			{ currency: 'TZS', rows: 1, total: '1000.10', decimals: 2, invalidRows: 1 },
			{ currency: 'NGN', rows: 0, total: '0.00', decimals: 2, invalidRows: 1 },
			{ currency: 'BDT', rows: 1, total: '1250', decimals: 0, invalidRows: 0 },
		]);
		expect(summary.invalid).toEqual([
			expect.objectContaining({
				itemIndex: 0,
				orderId: rows[0].orderId,
				currency: 'ZAR',
				field: 'amount',
				rule: 'amount',
				error: expect.stringContaining('at least 1 ZAR'),
			}),
			expect.objectContaining({ itemIndex: 4, orderId: rows[4].orderId, currency: 'NGN', field: 'accountNo' }),
			expect.objectContaining({
				itemIndex: 6,
				orderId: rows[6].orderId,
				currency: 'TZS',
				field: 'amount',
				error: expect.stringContaining('1,000'),
			}),
		]);
		expect(summary.fingerprint).toMatch(/^v1:[0-9a-f]{64}$/);
		expect(received(rows)).toBe(0);
	});
});

describe('Payout → Create, Approved Fingerprint', () => {
	it('pays the approved rows, in any order; invalid rows stay invalid and do not count', async () => {
		const rows = [row('TZS'), row('ZAR', { amount: '150.50' }), row('NGN', { accountNo: '12345' }), row('BDT')];
		const { fingerprint } = await summarise(rows);
		const paid = await pay([rows[3], rows[1], rows[2], rows[0]], fingerprint);
		expect(paid.jsonOf(NODE).map((item) => item.outcome)).toEqual(['accepted', 'accepted', 'invalid', 'accepted']);
		expect(received(rows)).toBe(3);
	});

	const edits: Array<[string, (rows: IDataObject[]) => IDataObject[]]> = [
		['an amount changed', (rows) => rows.map((entry, index) => (index === 1 ? { ...entry, amount: '150.51' } : entry))],
		[
			'the same amount written otherwise (150.5 for 150.50): another text is sent',
			(rows) => rows.map((entry, index) => (index === 1 ? { ...entry, amount: '150.5' } : entry)),
		],
		['a row added', (rows) => [...rows, row('TZS')]],
		['a row removed', (rows) => rows.slice(1)],
		[
			'a row of another currency in its place',
			(rows) => rows.map((entry, index) => (index === 0 ? { ...row('ZAR'), orderId: entry.orderId } : entry)),
		],
		[
			'the payee changed (accountNo)',
			(rows) => rows.map((entry, index) => (index === 0 ? { ...entry, accountNo: '255712345679' } : entry)),
		],
		[
			'an invalid row fixed',
			(rows) => rows.map((entry, index) => (index === 2 ? { ...entry, accountNo: '0123456789' } : entry)),
		],
	];

	it.each(edits)(
		'refuses to pay a sheet edited after the check (%s): every row comes out invalid, nothing is sent',
		async (_, edit) => {
			const rows = [row('TZS'), row('ZAR', { amount: '150.50' }), row('NGN', { accountNo: '12345' })];
			const { fingerprint } = await summarise(rows);
			const edited = edit(rows);
			const result = await pay(edited, fingerprint);
			expect(result.status).toBe('success');
			const out = result.jsonOf(NODE);
			expect(out).toHaveLength(edited.length);
			for (const item of out) expect(item).toMatchObject({ outcome: 'invalid', errorType: 'invalid' });
			const refused = out.filter((item) => item.field === 'approvedFingerprint');
			expect(refused.length).toBeGreaterThan(0);
			expect(String(refused[0].error)).toContain('are not the rows that were approved');
			expect(String(refused[0].error)).toContain('nothing was sent');
			expect(received(edited)).toBe(0);
		},
	);

	it('without On Error → Continue, the node stops before sending anything', async () => {
		const rows = [row('TZS'), row('ZAR')];
		const { fingerprint } = await summarise(rows);
		const result = await pay([...rows, row('EGP')], fingerprint, {});
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('are not the rows that were approved');
		expect(received(rows)).toBe(0);
	});

	it.each([
		['empty', ''],
		['not a fingerprint', 'approved by Anna'],
		['an expression that gives nothing', '={{ $json.noSuchField }}'],
	])('refuses when the option is there but %s', async (_, value) => {
		const rows = [row('TZS')];
		const result = await pay(rows, value);
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'invalid', field: 'approvedFingerprint' });
		expect(received(rows)).toBe(0);
	});

	it('sends nothing when the expression cannot be resolved: the node fails as a whole', async () => {
		const rows = [row('TZS')];
		const stopped = await pay(rows, "={{ $('No such node').first().json.fingerprint }}", {});
		expect(stopped.status).toBe('error');
		expect(received(rows)).toBe(0);
	});
});
