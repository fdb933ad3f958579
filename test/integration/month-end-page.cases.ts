/**
 * Example 6's pages over a real Payout → Check summary (n8n-core in process, against the sandbox): a sheet with a
 * finance team's headers routes to "Nothing to pay", which names each column to rename once, and no page offers
 * Approve; a USDT row HaiPay's query cannot show to be new is one line for the currency, not a row "not checked".
 * The pages are n8n expressions; here they are evaluated as n8n would, with `$('Check')` giving the summary.
 * test/e2e/month-end.test.ts shows the same in Chromium on the pinned n8n.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MONTH_END_ROWS, monthEndPayouts } from '../../playground/month-end';
import { ANYTHING_TO_PAY, APPROVAL_HTML, NOTHING_TO_PAY, NOTHING_TO_PAY_HTML } from '../../playground/month-end-pages';
import type { Sandbox } from '../../sandbox';
import { PAYOUTS } from '../fixtures/bodies';
import { NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

/** A row of the sample sheet under a finance team's headers. */
const FINANCE: Record<string, string> = {
	orderId: 'Order ID',
	currency: 'Currency',
	amount: 'Amount',
	accountNo: 'Account Number',
	bankCode: 'Bank Code',
};

async function summaryOf(items: IDataObject[], currency: 'TZS' | 'USDT' = 'TZS'): Promise<IDataObject> {
	const result = await runNode(sandbox, {
		currency,
		parameters: {
			resource: 'payout',
			operation: 'check',
			currency: '={{ $json.currency }}',
			fieldsFrom: 'input',
			options: { output: 'summary', lookUpExisting: true, timeout: 2000, retries: 0 } as INodeParameters,
		},
		items,
	});
	expect(result.status).toBe('success');
	return result.jsonOf(NODE)[0];
}

/** An n8n expression of the pages, evaluated with `$('Check').first().json` the summary. */
function evaluate(expression: string, summary: IDataObject): unknown {
	const body = expression.replace(/^=\{\{/, '').replace(/\}\}$/, '');
	const $ = () => ({ first: () => ({ json: summary }) });
	return new Function('$', `return (${body});`)($) as unknown;
}

const text = (html: unknown) =>
	String(html)
		.replace(/<style>.*?<\/style>/g, '')
		.replace(/<[^>]+>/g, ' ')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/\s+/g, ' ');

describe("example 6's pages", () => {
	it('a sheet with finance headers: nothing to pay, the columns named once each, and no Approve anywhere', async () => {
		const rows = MONTH_END_ROWS.map((row) =>
			Object.fromEntries(Object.entries(row).map(([key, value]) => [FINANCE[key] ?? key, value])),
		);
		const summary = await summaryOf(rows);
		expect(evaluate(ANYTHING_TO_PAY, summary)).toBe(false);
		const page = text(evaluate(NOTHING_TO_PAY_HTML, summary));
		expect(page).toContain(`${NOTHING_TO_PAY} No row of this sheet can be paid, so there is nothing to approve`);
		for (const [field, column] of Object.entries(FINANCE)) {
			const rename = `rename column "${column}" to "${field}"`;
			expect({ rename, times: page.split(rename).length - 1 }).toEqual({ rename, times: 1 });
		}
		expect(page).toContain(`${rows.length} rows are not paid for these columns`);
		expect(page).toContain(
			`Rows that break a rule, not paid: ${rows.length} (${rows.length} for the sheet's columns, above)`,
		);
		expect(page).not.toContain('"currency" must be one of');
		expect(page).not.toMatch(/Approv/);

		// The workflow: Check goes to "Anything to pay?", whose false branch ends at "Nothing to pay"; only its true
		// branch reaches the page that offers Approve.
		const { connections } = monthEndPayouts() as unknown as {
			connections: Record<string, { main: Array<Array<{ node: string }>> }>;
		};
		expect(connections.Check.main[0].map((next) => next.node)).toEqual(['Anything to pay?']);
		expect(connections['Anything to pay?'].main.map((branch) => branch.map((next) => next.node))).toEqual([
			['Approve'],
			[NOTHING_TO_PAY],
		]);
	});

	it('USDT rows HaiPay cannot show to be new: one line for the currency saying what that means, no row "not checked"', async () => {
		const rows = ['5', '7.5'].map((amount) => ({
			orderId: uniqueOrderId('ME-USDT'),
			currency: 'USDT',
			...PAYOUTS.USDT,
			amount,
		}));
		const summary = await summaryOf(rows, 'USDT');
		expect(evaluate(ANYTHING_TO_PAY, summary)).toBe(true);
		const page = text(evaluate(APPROVAL_HTML, summary));
		expect(page).toContain('USDT: 2 rows HaiPay cannot show to be new');
		expect(page).toContain('HaiPay publishes no "no such order" answer for USDT');
		expect(page).toContain('it refuses that orderId when Pay sends it');
		expect(page).not.toContain('could not be checked');
	});
});
