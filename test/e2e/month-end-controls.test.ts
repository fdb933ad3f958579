import { parse } from 'flatted';
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import type { Page } from 'playwright-core';

import type { WorkflowFile } from '../../dev/workflow-builder';
import { condition, conditions, ifNode } from '../../playground/lib/base-nodes';
import { CONTROLLER, OWNER, TREASURER } from '../../playground/lib/n8n';
import { sheetFile, sheetRows, type SheetRow } from '../../playground/lib/sheet';
import {
	DECISION,
	MONTH_END_COLUMNS,
	MONTH_END_FORM_PATH,
	MONTH_END_ROWS,
	MONTH_END_WORKFLOW_ID,
	monthEndPayouts,
	type MonthEndRow,
} from '../../playground/month-end';
import { APPROVE_NODE } from '../../playground/month-end-approval';
import { EXPIRED_NODE, SECOND_NODE } from '../../playground/month-end-policy';
import { APP_IDS } from '../fixtures/bodies';
import { openBrowser, signIn, type Browser } from './browser';
import { OUTPUT } from './month-end-page';
import { eventually, startStack, type Stack } from './stack';

/**
 * Example 6's finance controls on a real n8n server, in Chromium, as a finance team uses them: a sheet under the
 * approval policy's limits approved by one person and paid; one above them approved by one person (the same person
 * again on the second page: refused by the pay node, nothing paid), by two distinct people (paid once), and with the
 * uploader as second approver (refused); a currency short of balance shown first on the page, then a rejection
 * with its reason; and an approval page left to expire (a copy of the workflow whose page waits seconds, not 72
 * hours): the run ends at "Approval expired", nothing paid, and the page's address the uploader holds says why. The
 * sandbox says what HaiPay received.
 */

const log = (line: string) => process.stdout.write(`${line}\n`);
const EXPIRY_ID = 'haipayTestExpiry';
const EXPIRY_PATH = 'haipay-month-end-expiry';
const REMINDER_ID = 'haipayTestRemind';
const REMINDER_PATH = 'haipay-month-end-reminder';

/** Example 6 under its own id and form path, whose approval pages wait `amount` minutes instead of 72 hours. */
function copyOf(id: string, path: string, amount: number | string): WorkflowFile {
	const file = monthEndPayouts();
	const copy = JSON.parse(JSON.stringify(file).split(MONTH_END_FORM_PATH).join(path)) as WorkflowFile;
	copy.id = id;
	copy.name = `${file.name} (${id})`;
	for (const node of copy.nodes as Array<{ name: string; parameters: Record<string, unknown> }>)
		if (node.parameters.limitWaitTime === true)
			Object.assign(node.parameters, { resumeAmount: amount, resumeUnit: 'minutes' });
	return copy;
}

/** Example 6 whose approval pages wait 0.05 minutes (3 s). */
const expiringCopy = () => copyOf(EXPIRY_ID, EXPIRY_PATH, 0.05);

type Wires = Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }>;
const to = (node: string) => [{ node, type: 'main', index: 0 }];

/**
 * docs/approvals.md's reminder, wired into example 6: Approve waits 3 s, then (its second run) 10 minutes; between,
 * "Remind" (a No Op in place of the email to the approvers, which needs a mail server) runs once, and a second
 * expiry goes to Approval expired.
 */
function remindingCopy(): WorkflowFile {
	const copy = copyOf(REMINDER_ID, REMINDER_PATH, '={{ $runIndex === 0 ? 0.05 : 10 }}');
	const reminded = condition("={{ $('Remind').isExecuted }}", 'true', '', 'boolean');
	const remind = {
		name: 'Remind',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [1120, -640],
		parameters: {},
	};
	for (const [index, node] of [ifNode('Reminded?', conditions([reminded]), [1000, -640]), remind].entries())
		copy.nodes.push({ id: `reminder-${index}`, ...node, position: node.position as [number, number] });
	const wires = copy.connections as Wires;
	wires['Answered?'].main[1] = to('Reminded?');
	wires['Reminded?'] = { main: [to(EXPIRED_NODE), to('Remind')] };
	wires.Remind = { main: [to(APPROVE_NODE)] };
	return copy;
}

let stack: Stack;
let owner: Browser;
let controller: Browser;
let treasurer: Browser;

beforeAll(async () => {
	stack = await startStack(log, { workflows: [expiringCopy(), remindingCopy()] });
	for (const id of [MONTH_END_WORKFLOW_ID, EXPIRY_ID, REMINDER_ID]) await publish(id);
	await eventually(
		'the published form',
		async () => ((await fetch(formUrl(), { redirect: 'manual' })).status === 302 ? true : undefined),
		60_000,
	);
	await stack.rest.ensureMember(CONTROLLER);
	await stack.rest.ensureMember(TREASURER);
	owner = await openBrowser();
	await signIn(owner.page, stack.server.url, OWNER);
	controller = await openBrowser();
	await signIn(controller.page, stack.server.url, CONTROLLER);
	treasurer = await openBrowser();
	await signIn(treasurer.page, stack.server.url, TREASURER);
}, 20 * 60_000);

afterAll(async () => {
	for (const browser of [owner, controller, treasurer]) await browser?.close();
	await stack?.stop();
}, 60_000);

function formUrl(path = MONTH_END_FORM_PATH): string {
	return `${stack.server.url}/form/${path}`;
}

async function publish(workflowId: string): Promise<void> {
	const workflow = await stack.rest.call('GET', `/workflows/${workflowId}`);
	const { versionId, active } = (workflow.json as { data: { versionId: string; active: boolean } }).data;
	if (active) return;
	const answer = await stack.rest.call('POST', `/workflows/${workflowId}/activate`, { versionId });
	if (answer.status !== 200) throw new Error(`publishing ${workflowId} failed: HTTP ${answer.status}`);
}

let sheets = 0;
/** A sheet of the sample's first rows (TZS, ZAR, NGN, EGP, BDT), with new orderIds and the amounts given by currency. */
function sheetOf(amounts: Record<string, number>): { file: string; rows: MonthEndRow[] } {
	sheets += 1;
	const stamp = `${Date.now().toString(36)}-${sheets}`;
	const rows = MONTH_END_ROWS.slice(0, 5)
		.filter((row) => String(row.currency) in amounts)
		.map((row, index) => ({ ...row, orderId: `CT-${stamp}-${index}`, amount: amounts[String(row.currency)] }));
	mkdirSync(OUTPUT, { recursive: true });
	const file = join(OUTPUT, `controls-${stamp}.xlsx`);
	writeFileSync(file, sheetFile(rows, MONTH_END_COLUMNS, 'Payouts'));
	return { file, rows };
}

const approveOption = (page: Page) =>
	page.locator('.multiselect-option label', { hasText: new RegExp(`^${DECISION.approve}$`) });

async function upload(file: string, path = MONTH_END_FORM_PATH): Promise<void> {
	const { page } = owner;
	await page.goto(formUrl(path));
	const allow = page.getByRole('button', { name: 'Allow access' });
	await page.locator('input[type="file"]').or(allow).first().waitFor();
	if (await allow.isVisible()) await allow.click();
	await page.locator('input[type="file"]').setInputFiles(file);
	await page.locator('#submit-btn').click();
	await approveOption(page).waitFor({ timeout: 120_000 });
}

/** The page's address as it gives it to the next approver, opened in `next`'s browser. */
async function handOn(from: Page, next: Browser): Promise<Page> {
	const link = await from.locator('a[href*="/form-waiting/"]').first().getAttribute('href');
	expect(link).toMatch(/\/form-waiting\/\d+\?signature=/);
	await next.page.goto(String(link));
	await approveOption(next.page).waitFor({ timeout: 60_000 });
	return next.page;
}

async function decide(page: Page, decision: string, reason = ''): Promise<void> {
	await page.locator('.multiselect-option label', { hasText: new RegExp(`^${decision}$`) }).click();
	if (reason !== '') await page.locator('input[type="text"]').last().fill(reason);
	await page.locator('#submit-btn').click();
}

function paid(rows: MonthEndRow[]): string[] {
	const ids = new Set(rows.map((row) => String(row.orderId)));
	return stack.sandbox.requests
		.filter((request) => request.path.endsWith('/pay/apply') && ids.has(String((request.body as SheetRow).orderId)))
		.map((request) => String((request.body as SheetRow).orderId))
		.sort();
}

/** An execution's status and run data. */
async function runOf(id: string) {
	const execution = (await stack.rest.execution(id)) as { data: string; status: string };
	const data = parse(execution.data) as {
		resultData: { runData: Record<string, unknown>; error?: { message?: string } };
	};
	return { id, status: execution.status, runData: data.resultData.runData, error: data.resultData.error };
}

/** The newest execution of a workflow, started after `after`, once `ready` says so of it (by default: finished). */
async function lastRun(
	workflowId = MONTH_END_WORKFLOW_ID,
	after = 0,
	waitMs = 120_000,
	ready = (status: string) => !['new', 'running', 'waiting'].includes(status),
) {
	const done = await eventually(
		'a finished execution',
		async () => {
			const listed = await stack.rest.executions(workflowId);
			const newest = listed.reduce<(typeof listed)[number] | undefined>(
				(a, b) => (a === undefined || Number(b.id) > Number(a.id) ? b : a),
				undefined,
			);
			return newest !== undefined && Number(newest.id) > after && ready(newest.status) ? newest : undefined;
		},
		waitMs,
	);
	return await runOf(done.id);
}

async function newestId(workflowId = MONTH_END_WORKFLOW_ID): Promise<number> {
	return Math.max(0, ...(await stack.rest.executions(workflowId)).map((execution) => Number(execution.id)));
}

const person = (who: { firstName: string; lastName: string; email: string }) =>
	`${who.firstName} ${who.lastName} (${who.email})`;

describe('example 6: the approval policy, the balance and expiry in the browser', () => {
	test('under the limits: one approver suffices, the rows are paid once and name that approver', async () => {
		const { file, rows } = sheetOf({ TZS: 150000, ZAR: 2500.5 });
		await upload(file);
		expect(await owner.page.locator('body').innerText()).toContain('One approver suffices');
		const page = await handOn(owner.page, controller);
		const download = page.waitForEvent('download', { timeout: 120_000 });
		await decide(page, DECISION.approve);
		const results = sheetRows(readFileSync(await (await download).path())).rows;
		expect(results.map((row) => row.outcome)).toEqual(['accepted', 'accepted']);
		expect(results.map((row) => [row.approvedBy, row.secondApprovedBy ?? ''])).toEqual([
			[person(CONTROLLER), ''],
			[person(CONTROLLER), ''],
		]);
		expect(paid(rows)).toEqual(rows.map((row) => String(row.orderId)).sort());
	});

	test('above the limits: the same person on both pages is refused by the pay node and nothing is paid; two distinct people pay it once', async () => {
		const { file, rows } = sheetOf({ TZS: 150000, ZAR: 25000 });
		await upload(file);
		const shown = await owner.page.locator('body').innerText();
		expect(shown).toContain('This sheet needs two approvers, neither the uploader');
		expect(shown).toContain('a ZAR row of 25000 is above 20000.00');
		let page = await handOn(owner.page, controller);
		await decide(page, DECISION.approve);
		await page.getByText('First approved by').waitFor({ timeout: 60_000 });
		await approveOption(page).waitFor();
		await decide(page, DECISION.approve);
		await page.getByText('The approvals do not meet the approval policy').waitFor({ timeout: 120_000 });
		expect(await page.locator('body').innerText()).toContain('is the same person again');
		const refused = await lastRun();
		expect(refused.runData).toHaveProperty(SECOND_NODE);
		expect(paid(rows)).toEqual([]);

		await upload(file);
		page = await handOn(owner.page, controller);
		await decide(page, DECISION.approve);
		await page.getByText('First approved by').waitFor({ timeout: 60_000 });
		const second = await handOn(page, treasurer);
		const download = second.waitForEvent('download', { timeout: 120_000 });
		await decide(second, DECISION.approve);
		const results = sheetRows(readFileSync(await (await download).path())).rows;
		expect(results.map((row) => row.outcome)).toEqual(['accepted', 'accepted']);
		for (const row of results) {
			expect([row.approvedBy, row.secondApprovedBy]).toEqual([person(CONTROLLER), person(TREASURER)]);
			expect(Date.parse(String(row.secondApprovedAt))).toBeGreaterThanOrEqual(Date.parse(String(row.approvedAt)));
		}
		expect(paid(rows)).toEqual(rows.map((row) => String(row.orderId)).sort());
	});

	test('above the limits, the uploader as second approver is refused: nothing is paid', async () => {
		const { file, rows } = sheetOf({ ZAR: 60000 });
		await upload(file);
		const page = await handOn(owner.page, controller);
		await decide(page, DECISION.approve);
		await page.getByText('First approved by').waitFor({ timeout: 60_000 });
		const second = await handOn(page, owner);
		await decide(second, DECISION.approve);
		await second.getByText('The approvals do not meet the approval policy').waitFor({ timeout: 120_000 });
		expect(await second.locator('body').innerText()).toContain('is by the uploader');
		expect(paid(rows)).toEqual([]);
	});

	test('a currency short of balance is shown first; a rejection records who, when and the reason, and pays nothing', async () => {
		stack.sandbox.control.setBalance(APP_IDS.ZAR, '100.00');
		try {
			const { file, rows } = sheetOf({ TZS: 150000, ZAR: 2500.5 });
			const before = await newestId();
			await upload(file);
			const shown = await owner.page.locator('body').innerText();
			const short = shown.indexOf('Not enough balance in ZAR: short 2,400.50');
			expect(short).toBeGreaterThanOrEqual(0);
			for (const later of ['One approver suffices', 'To pay', 'Uploaded by'])
				expect({ later, after: shown.indexOf(later) > short }).toEqual({ later, after: true });
			expect(shown).not.toContain('Not enough balance in TZS');
			await decide(owner.page, DECISION.reject, 'ZAR account not funded');
			await owner.page.getByText('Nothing was paid').waitFor({ timeout: 60_000 });
			expect(await owner.page.locator('body').innerText()).toMatch(
				new RegExp(`Rejected by ${person(OWNER).replace(/[()]/g, '\\$&')} at \\S+: "ZAR account not funded"`),
			);
			const run = await lastRun(MONTH_END_WORKFLOW_ID, before);
			expect(run.runData).not.toHaveProperty('Pay');
			expect(paid(rows)).toEqual([]);
		} finally {
			stack.sandbox.control.setBalance(APP_IDS.ZAR, '1000000000.00');
		}
	});

	test("an approval page left unanswered expires: nothing is paid, and the page's address tells the uploader why", async () => {
		const { file, rows } = sheetOf({ TZS: 150000 });
		const before = await newestId(EXPIRY_ID);
		await upload(file, EXPIRY_PATH);
		const link = String(await owner.page.locator('a[href*="/form-waiting/"]').first().getAttribute('href'));
		// n8n's wait tracker looks for due executions once a minute; the run then waits at the ending for a reader.
		const atEnding = await eventually(
			'the run at the expired ending',
			async () => {
				const run = await lastRun(EXPIRY_ID, before, 5_000, () => true);
				return EXPIRED_NODE in run.runData ? run : undefined;
			},
			180_000,
		);
		expect(atEnding.runData).not.toHaveProperty('Pay');
		expect(paid(rows)).toEqual([]);
		await owner.page.goto(link);
		await owner.page.getByText('Approval expired: nothing was paid').waitFor({ timeout: 60_000 });
		expect(await owner.page.locator('body').innerText()).toContain(
			'No approver answered within 0.05 minutes: the approval expired and nothing was paid. Upload the sheet again',
		);
		const run = await lastRun(EXPIRY_ID, before, 60_000);
		expect(run.status).toBe('success');
		expect(run.runData).toHaveProperty(EXPIRED_NODE);
		expect(run.runData).not.toHaveProperty('Pay');
		expect(paid(rows)).toEqual([]);
	}, 300_000);

	test('a reminder as docs/approvals.md wires it: after the first wait the same link opens the page again, and the approval pays', async () => {
		const { file, rows } = sheetOf({ TZS: 150000 });
		const before = await newestId(REMINDER_ID);
		await upload(file, REMINDER_PATH);
		const reminded = await eventually(
			'the reminder, the page waiting again',
			async () => {
				const run = await lastRun(REMINDER_ID, before, 5_000, () => true);
				return run.status === 'waiting' && 'Remind' in run.runData ? run : undefined;
			},
			180_000,
		);
		expect((reminded.runData[APPROVE_NODE] as unknown[]).length).toBe(2);
		expect(reminded.runData).not.toHaveProperty(EXPIRED_NODE);
		const page = await handOn(owner.page, controller);
		const download = page.waitForEvent('download', { timeout: 120_000 });
		await decide(page, DECISION.approve);
		const results = sheetRows(readFileSync(await (await download).path())).rows;
		expect(results.map((row) => [row.outcome, row.approvedBy])).toEqual([['accepted', person(CONTROLLER)]]);
		expect(paid(rows)).toEqual(rows.map((row) => String(row.orderId)));
	}, 300_000);
});
