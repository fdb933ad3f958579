import DecimalJs from 'decimal.js';
import { parse } from 'flatted';
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import type { Page } from 'playwright-core';

import { CONTROLLER, OWNER } from '../../playground/lib/n8n';
import { ROOT } from '../../playground/lib/paths';
import { sheetFile, sheetRows, type SheetRow } from '../../playground/lib/sheet';
import {
	DECISION,
	MONTH_END_COLUMNS,
	MONTH_END_FORM_PATH,
	MONTH_END_RESULTS,
	MONTH_END_ROWS,
	MONTH_END_SHEET,
	MONTH_END_WORKFLOW_ID,
} from '../../playground/month-end';
import { NOTHING_TO_PAY } from '../../playground/month-end-pages';
import { APP_IDS, type PayoutCurrency } from '../fixtures/bodies';
import { openBrowser, signIn, type Browser } from './browser';
import { xlsxFormulaCells } from './cells';
import { expectNoApprove, OUTPUT, screenshot, shownTotals } from './month-end-page';
import { eventually, startStack, type Stack } from './stack';

/**
 * Example 6 on a real n8n server, as the finance people use it: the workflow published, its form opened in
 * Chromium by the uploader signed in to n8n (the owner), the sample XLSX uploaded, the totals read off the approval
 * page, and the page's address opened by the approver signed in as themselves (a member, in a second Chromium)
 * who clicks Approve; or the uploader clicks Approve on their own sheet and is refused. The results file the
 * browser downloads is read as XLSX. The sandbox says what HaiPay received.
 */

const log = (line: string) => process.stdout.write(`${line}\n`);
const Decimal = DecimalJs.clone({ precision: 100 });
type Decimal = InstanceType<typeof Decimal>;
const SHEET = join(ROOT, 'examples', 'data', MONTH_END_SHEET);

/** The rows of the sample sheet that break a rule, and the field each one breaks. */
const INVALID: Record<string, string> = { 'ME-2026-06-0007': 'accountNo', 'ME-2026-06-0009': 'amount' };

let stack: Stack;
/** The uploader's browser (signed in as the owner) and the approver's (signed in as the controller). */
let browser: Browser;
let approverBrowser: Browser;
const sheet = sheetRows(readFileSync(SHEET)).rows;
const validRows = sheet.filter((row) => !(String(row.orderId) in INVALID));

beforeAll(async () => {
	stack = await startStack(log);
	await publish(MONTH_END_WORKFLOW_ID);
	// Signed out, the published form sends the browser to n8n's sign-in page instead of showing itself.
	await eventually(
		'the published form',
		async () => ((await fetch(formUrl(), { redirect: 'manual' })).status === 302 ? true : undefined),
		60_000,
	);
	await stack.rest.ensureMember(CONTROLLER);
	browser = await openBrowser();
	await signIn(browser.page, stack.server.url, OWNER);
	approverBrowser = await openBrowser();
	await signIn(approverBrowser.page, stack.server.url, CONTROLLER);
}, 20 * 60_000);

afterAll(async () => {
	await browser?.close();
	await approverBrowser?.close();
	await stack?.stop();
}, 60_000);

function formUrl(): string {
	return `${stack.server.url}/form/${MONTH_END_FORM_PATH}`;
}

/** Publishes the workflow through n8n's REST API, as the editor's Publish button does, unless it is published. */
async function publish(workflowId: string): Promise<void> {
	const workflow = await stack.rest.call('GET', `/workflows/${workflowId}`);
	const { versionId, active } = (workflow.json as { data: { versionId: string; active: boolean } }).data;
	if (active) return;
	const answer = await stack.rest.call('POST', `/workflows/${workflowId}/activate`, { versionId });
	if (answer.status !== 200)
		throw new Error(`publishing ${workflowId} failed: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
}

/** Every pay/apply request the sandbox received, by orderId, in order. */
function payoutRequests(): string[] {
	return stack.sandbox.requests
		.filter((request) => request.path.endsWith('/pay/apply'))
		.map((request) => String((request.body as SheetRow).orderId));
}

/**
 * Uploads a sheet (the sample one unless given) in the form and waits for the approval page, or, with `nothingToPay`,
 * for the page that ends a run with nothing to pay.
 */
async function uploadSheet(page: Page, file = SHEET, nothingToPay = false): Promise<void> {
	await page.goto(formUrl());
	// n8n asks a signed-in person once whether the form may run with their n8n login (n8n User Auth).
	const allow = page.getByRole('button', { name: 'Allow access' });
	await page.locator('input[type="file"]').or(allow).first().waitFor();
	if (await allow.isVisible()) await allow.click();
	await page.locator('input[type="file"]').setInputFiles(file);
	await page.locator('#submit-btn').click();
	if (nothingToPay) {
		await page.locator('h1', { hasText: NOTHING_TO_PAY }).waitFor({ timeout: 120_000 });
		return;
	}
	await page
		.locator('.multiselect-option label', { hasText: new RegExp(`^${DECISION.approve}$`) })
		.waitFor({ timeout: 120_000 });
}

/** The totals the sheet itself gives: valid rows per currency, counted and summed in decimal, in the currency's places. */
function sheetTotals(): Array<{ currency: string; rows: number; total: string }> {
	const byCurrency = new Map<string, { rows: number; total: Decimal }>();
	for (const row of validRows) {
		const entry = byCurrency.get(String(row.currency)) ?? { rows: 0, total: new Decimal(0) };
		byCurrency.set(String(row.currency), { rows: entry.rows + 1, total: entry.total.plus(String(row.amount)) });
	}
	return [...byCurrency].map(([currency, { rows, total }]) => ({
		currency,
		rows,
		total: total.toFixed(currency === 'BDT' ? 0 : 2),
	}));
}

/** The approval page's address as the page gives it for the approver, opened in the approver's own browser. */
async function openAsApprover(uploaderPage: Page): Promise<Page> {
	const link = await uploaderPage.locator('a[href*="/form-waiting/"]').first().getAttribute('href');
	expect(link).toMatch(/\/form-waiting\/\d+\?signature=/);
	// Signed out, the page neither shows nor takes an answer: n8n sends the GET to its sign-in page, refuses the POST.
	expect((await fetch(String(link), { redirect: 'manual' })).status).toBe(302);
	const answer = new FormData();
	answer.append('field-2', DECISION.approve);
	expect((await fetch(String(link), { method: 'POST', body: answer })).status).toBe(401);
	const { page } = approverBrowser;
	await page.goto(String(link));
	await page
		.locator('.multiselect-option label', { hasText: new RegExp(`^${DECISION.approve}$`) })
		.waitFor({ timeout: 60_000 });
	return page;
}

async function decide(page: Page, decision: string): Promise<void> {
	await page.locator('.multiselect-option label', { hasText: new RegExp(`^${decision}$`) }).click();
	await page.locator('#submit-btn').click();
}

/** The execution of the workflow that finished last, once every one listed has finished, and its run data. */
async function finishedRun(count: number): Promise<{ id: string; status: string; runData: Record<string, unknown> }> {
	const listed = await eventually(
		`${count} finished month-end executions`,
		async () => {
			const executions = await stack.rest.executions(MONTH_END_WORKFLOW_ID);
			return executions.length >= count &&
				executions.every((execution) => !['new', 'running', 'waiting'].includes(execution.status))
				? executions
				: undefined;
		},
		120_000,
	);
	expect(listed).toHaveLength(count);
	const latest = listed.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));
	const execution = (await stack.rest.execution(latest.id)) as { data: string };
	const data = parse(execution.data) as { resultData: { runData: Record<string, unknown> } };
	return { id: latest.id, status: latest.status, runData: data.resultData.runData };
}

/**
 * Every results row names the approval: the controller, the time they submitted (between their click and now), the
 * owner as uploader, this run's execution id, the currency's rows and exact total as approved, the fingerprint.
 */
function expectApproval(rows: SheetRow[], executionId: string, clicked: Date): void {
	const totals = new Map(sheetTotals().map((line) => [line.currency, line]));
	const fingerprints = new Set(rows.map((row) => row.fingerprint));
	expect(fingerprints.size).toBe(1);
	expect(String([...fingerprints][0])).toMatch(/^v1:[0-9a-f]{64}$/);
	for (const row of rows) {
		expect({
			orderId: row.orderId,
			approvedBy: row.approvedBy,
			uploadedBy: row.uploadedBy,
			executionId: String(row.executionId),
		}).toEqual({
			orderId: row.orderId,
			approvedBy: `${CONTROLLER.firstName} ${CONTROLLER.lastName} (${CONTROLLER.email})`,
			uploadedBy: `${OWNER.firstName} ${OWNER.lastName} (${OWNER.email})`,
			executionId,
		});
		const at = Date.parse(String(row.approvedAt));
		expect(at).toBeGreaterThanOrEqual(clicked.getTime() - 1000);
		expect(at).toBeLessThanOrEqual(Date.now());
		const line = totals.get(String(row.currency));
		expect({ orderId: row.orderId, rows: row.approvedRows, total: row.approvedTotal }).toEqual({
			orderId: row.orderId,
			rows: line?.rows,
			total: line?.total,
		});
	}
}

describe('example 6: month-end payouts, approved in the browser', () => {
	test('the approval page shows the totals per currency and who uploaded; a rejection pays nothing and returns no file', async () => {
		const { page } = browser;
		const downloads: string[] = [];
		page.on('download', (download) => downloads.push(download.suggestedFilename()));
		await uploadSheet(page);

		expect(await shownTotals(page)).toEqual(sheetTotals());
		const shown = await page.locator('body').innerText();
		expect(shown).toContain(`Rows that break a rule, not paid: ${Object.keys(INVALID).length}`);
		// Each invalid row by its sheet row, orderId, field and reason.
		expect(shown).toMatch(/8\s+ME-2026-06-0007\s+accountNo\s+"accountNo" must be exactly 10 digits/);
		expect(shown).toMatch(/10\s+ME-2026-06-0009\s+amount\s+"amount" must be at least 1,000 TZS/);
		expect(shown).toMatch(/Fingerprint: v1:[0-9a-f]{16}…/);
		expect(new Set(sheetTotals().map((line) => line.currency))).toEqual(new Set(['TZS', 'ZAR', 'NGN', 'EGP', 'BDT']));
		await screenshot(page, 'month-end-approval.png');

		await decide(page, DECISION.reject);
		await page.getByText('Nothing was paid').waitFor({ timeout: 60_000 });
		const run = await finishedRun(1);
		expect(run.status).toBe('success');
		expect(Object.keys(run.runData)).toEqual(expect.arrayContaining(['Check', 'Approve', 'Rejected']));
		for (const node of ['Approved rows', 'Pay', 'To XLSX', 'Download the results'])
			expect({ node, ran: node in run.runData }).toEqual({ node, ran: false });
		await page.waitForLoadState('load');
		expect(downloads).toEqual([]);
		expect(payoutRequests()).toEqual([]);
		expect(stack.sandbox.orders).toEqual([]);
	});

	test('the uploader approving their own sheet is refused: nothing is paid and the page says why', async () => {
		const { page } = browser;
		const downloads: string[] = [];
		page.on('download', (download) => downloads.push(download.suggestedFilename()));
		await uploadSheet(page);
		const shown = await page.locator('body').innerText();
		expect(shown).toContain(`Uploaded by ${OWNER.firstName} ${OWNER.lastName} (${OWNER.email})`);

		await decide(page, DECISION.approve);
		await page.getByText('Approval refused: nothing was paid').waitFor({ timeout: 60_000 });
		expect(await page.locator('body').innerText()).toContain(
			`${OWNER.email} uploaded this sheet; the uploader cannot approve it.`,
		);
		const run = await finishedRun(2);
		expect(run.status).toBe('success');
		expect(Object.keys(run.runData)).toEqual(expect.arrayContaining(['Approve', 'Approver allowed?', 'Refused']));
		for (const node of ['Approved rows', 'Pay', 'To XLSX', 'Download the results'])
			expect({ node, ran: node in run.runData }).toEqual({ node, ran: false });
		await page.waitForLoadState('load');
		expect(downloads).toEqual([]);
		expect(payoutRequests()).toEqual([]);
		expect(stack.sandbox.orders).toEqual([]);
	});

	test("approved by another approver, one HaiPay node pays every valid row once; the download holds every row in the sheet's order and names the approval", async () => {
		await uploadSheet(browser.page);
		const page = await openAsApprover(browser.page);
		expect(await shownTotals(page)).toEqual(sheetTotals());

		const download = page.waitForEvent('download', { timeout: 120_000 });
		const clicked = new Date();
		await decide(page, DECISION.approve);
		const file = await download;
		expect(file.suggestedFilename()).toBe(MONTH_END_RESULTS);
		const bytes = readFileSync(await file.path());
		expect(await xlsxFormulaCells(bytes)).toEqual([]);
		const results = sheetRows(bytes);
		expect(results.sheetName).toBe('Results');
		expect(results.rows.map((row) => row.orderId)).toEqual(sheet.map((row) => row.orderId));

		for (const [index, row] of results.rows.entries()) {
			const source = sheet[index];
			expect({ orderId: row.orderId, currency: row.currency, amount: row.amount }).toEqual({
				orderId: source.orderId,
				currency: source.currency,
				amount: source.amount,
			});
			expect(row.amountText).toBe(new Decimal(source.amount as number).toFixed(source.currency === 'BDT' ? 0 : 2));
			const field = INVALID[String(row.orderId)];
			if (field === undefined) {
				expect({ orderId: row.orderId, outcome: row.outcome, error: row.error }).toEqual({
					orderId: row.orderId,
					outcome: 'accepted',
					error: '',
				});
				expect(String(row.orderNo)).toMatch(/^HP\d+$/);
				expect(stack.sandbox.control.order(String(row.orderNo))?.orderId).toBe(row.orderId);
			} else {
				expect({ orderId: row.orderId, outcome: row.outcome, orderNo: row.orderNo }).toEqual({
					orderId: row.orderId,
					outcome: 'invalid',
					orderNo: '',
				});
				expect(String(row.error)).toContain(`"${field}"`);
			}
		}
		// HaiPay received exactly the valid rows, each once, each under its own currency's App ID.
		const paid = validRows.map((row) => String(row.orderId)).sort();
		expect([...payoutRequests()].sort()).toEqual(paid);
		expect(stack.sandbox.orders.map((order) => order.orderId).sort()).toEqual(paid);
		for (const row of validRows)
			expect(stack.sandbox.control.order({ orderId: String(row.orderId) })?.appId).toBe(
				APP_IDS[row.currency as PayoutCurrency],
			);
		const run = await finishedRun(3);
		expect(run.status).toBe('success');
		expect(Object.keys(run.runData)).toEqual(expect.arrayContaining(['Pay', 'To XLSX', 'Download the results']));
		expectApproval(results.rows, run.id, clicked);
		await page
			.getByText(`Approved by ${CONTROLLER.firstName} ${CONTROLLER.lastName} (${CONTROLLER.email}) at `)
			.waitFor({ timeout: 60_000 });
	});

	test('the same sheet again: nothing is left to pay, so no page offers Approve; the page names each row HaiPay has', async () => {
		const before = payoutRequests().length;
		await uploadSheet(browser.page, SHEET, true);
		const { page } = browser;
		const shown = await page.locator('body').innerText();
		expect(shown).toContain('HaiPay already has every valid row of this sheet: nothing is left to pay');
		const warning = shown.indexOf(`Warning: HaiPay already has ${validRows.length} rows of this sheet`);
		expect(warning).toBeGreaterThanOrEqual(0);
		expect(warning).toBeLessThan(shown.indexOf('To pay'));
		for (const row of validRows) {
			const orderNo = stack.sandbox.control.order({ orderId: String(row.orderId) })?.orderNo;
			expect(shown).toMatch(
				new RegExp(`${row.orderId}\\s+[\\d,.]+ ${row.currency}\\s+${orderNo}\\s+(processing|success)`),
			);
		}
		expect(await shownTotals(page)).toEqual(
			sheetTotals().map(({ currency }) => ({ currency, rows: 0, total: currency === 'BDT' ? '0' : '0.00' })),
		);
		await expectNoApprove(page);
		await screenshot(page, 'month-end-existing.png');
		const run = await finishedRun(4);
		expect(run.status).toBe('success');
		expect(Object.keys(run.runData)).toEqual(expect.arrayContaining(['Check', 'Anything to pay?', NOTHING_TO_PAY]));
		for (const node of ['Approve', 'Approved rows', 'Pay'])
			expect({ node, ran: node in run.runData }).toEqual({ node, ran: false });
		expect(payoutRequests().length - before).toBe(0);
		expect(stack.sandbox.orders).toHaveLength(validRows.length);
	});

	test("a sheet with a finance team's headers: the page names each column to rename once, and offers no Approve", async () => {
		const before = payoutRequests().length;
		const headers: Record<string, string> = { orderId: 'Order ID', currency: 'Currency', accountNo: 'Account Number' };
		const rows = MONTH_END_ROWS.map((row) =>
			Object.fromEntries(Object.entries(row).map(([key, value]) => [headers[key] ?? key, value])),
		);
		mkdirSync(OUTPUT, { recursive: true });
		const file = join(OUTPUT, 'finance-headers.xlsx');
		writeFileSync(
			file,
			sheetFile(
				rows,
				MONTH_END_COLUMNS.map((column) => headers[column] ?? column),
				'Payouts',
			),
		);
		await uploadSheet(browser.page, file, true);
		const { page } = browser;
		const shown = await page.locator('body').innerText();
		expect(shown).toContain('No row of this sheet can be paid, so there is nothing to approve');
		expect(shown).toContain("Warning: the sheet's columns");
		for (const [field, column] of Object.entries(headers)) {
			const rename = `rename column "${column}" to "${field}"`;
			expect({ rename, times: shown.split(rename).length - 1 }).toEqual({ rename, times: 1 });
		}
		expect(shown).toContain(
			`Rows that break a rule, not paid: ${rows.length} (${rows.length} for the sheet's columns, above)`,
		);
		// Not once per row: no row is listed with the empty value's rule.
		expect(shown).not.toContain('must be one of');
		expect(await shownTotals(page)).toEqual([]);
		await expectNoApprove(page);
		await screenshot(page, 'month-end-columns.png');
		const run = await finishedRun(5);
		expect(run.status).toBe('success');
		expect(Object.keys(run.runData)).toEqual(expect.arrayContaining(['Check', NOTHING_TO_PAY]));
		expect('Approve' in run.runData).toBe(false);
		expect(payoutRequests().length - before).toBe(0);
	});
});
