/**
 * The package in n8n's editor, in a real browser (Chromium through playwright-core) on a real n8n server with the
 * examples imported: the HaiPay node renders its payout fields after a run started from the editor, and the HaiPay
 * Trigger shows its production URL. The screenshots are the README's. A file of its own, so that a run without a
 * browser (playground/ci-compat.sh) leaves it out by name.
 */
import { copyFileSync, mkdirSync } from 'fs';
import { join } from 'path';

import { callbackUrl, WORKFLOW_IDS } from '../../playground/examples';
import { ROOT } from '../../playground/lib/paths';
import { closeNode, openBrowser, openNode, openWorkflow, signIn, canvasNode, type Browser } from './browser';
import { eventually, stackPerFile } from './stack';

const log = (line: string) => process.stdout.write(`${line}\n`);
const OUTPUT = join(ROOT, 'test', 'e2e', '.output');

const running = stackPerFile(log);

describe('the editor in a real browser', () => {
	let browser: Browser;

	beforeAll(async () => {
		browser = await openBrowser();
		await signIn(browser.page, running().server.url);
	}, 120_000);

	afterAll(async () => {
		await browser?.close();
	});

	function screenshot(name: string): string {
		mkdirSync(OUTPUT, { recursive: true });
		return join(OUTPUT, name);
	}

	/** Screenshots go to test/e2e/.output; UPDATE_SCREENSHOTS=1 also copies them into docs/ for the README. */
	function publish(file: string): void {
		if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(file, join(ROOT, 'docs', file.split('/').pop() as string));
	}

	test('the HaiPay node renders with its payout fields, after a run from the editor', async () => {
		const { page } = browser;
		// A fresh sandbox, so that the editor's run pays the rows whatever this server's sandbox saw before.
		running().sandbox.control.reset();
		await openWorkflow(page, running().server.url, WORKFLOW_IDS.bulkPayouts);
		await expect(canvasNode(page, 'Pay').getAttribute('data-node-type')).resolves.toBe('n8n-nodes-haipay.haiPay');
		// The canvas pane sits over the floating button in headless Chromium; the click itself is the user's.
		await page.locator('[data-test-id^="execute-workflow-button"]').first().click({ force: true });
		await eventually(
			'the editor run to pay the rows',
			() => (running().sandbox.appliesReceived() >= 9 ? true : undefined),
			60_000,
		);
		await eventually(
			'the run to write its results',
			async () =>
				(await running().rest.executions(WORKFLOW_IDS.bulkPayouts)).some(
					(e) => e.mode === 'manual' && e.status === 'success',
				)
					? true
					: undefined,
			60_000,
		);
		// The editor shows the run once n8n has pushed its result: the node's success mark on the canvas.
		await canvasNode(page, 'Pay').locator('[data-test-id="canvas-node-status-success"]').waitFor();

		const text = await openNode(page, 'Pay');
		for (const label of [
			'Credential',
			'HaiPay Sandbox payouts',
			'Resource',
			'Payout',
			'Operation',
			'Create',
			'Currency',
			'Fields From',
			'Input Item Fields of the Same Names',
		]) {
			expect({ label, shown: text.includes(label) }).toEqual({ label, shown: true });
		}
		const panel = await page.locator('[data-test-id="ndv"]').innerText();
		expect(panel).not.toMatch(/not (currently )?installed|Install this node/i);
		expect(panel).toContain('accepted');
		const file = screenshot('haipay-node-payout-create.png');
		await page.screenshot({ path: file });
		publish(file);
		await closeNode(page);
	});

	test('the HaiPay Trigger renders with its production URL', async () => {
		const { page } = browser;
		await openWorkflow(page, running().server.url, WORKFLOW_IDS.callbacks);
		await expect(canvasNode(page, 'Payout results').getAttribute('data-node-type')).resolves.toBe(
			'n8n-nodes-haipay.haiPayTrigger',
		);
		const text = await openNode(page, 'Payout results');
		for (const label of [
			'Credential',
			'HaiPay Sandbox payouts',
			'Callbacks For',
			'Payouts',
			'Statuses',
			'Verify Signature',
		]) {
			expect({ label, shown: text.includes(label) }).toEqual({ label, shown: true });
		}
		const panel = page.locator('[data-test-id="ndv"]');
		await panel
			.getByText(/webhook URLs/i)
			.first()
			.click();
		await panel
			.getByText(/^Production URL$/)
			.first()
			.click();
		await eventually(
			'the production URL on the panel',
			async () => ((await panel.innerText()).includes(callbackUrl('TZS')) ? true : undefined),
			10_000,
		);
		const file = screenshot('haipay-trigger.png');
		await page.screenshot({ path: file });
		publish(file);
		await closeNode(page);
	});
});
