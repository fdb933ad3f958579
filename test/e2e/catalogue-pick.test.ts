import { WorkflowBuilder, type WorkflowFile } from '../../dev/workflow-builder';
import { haiPay } from '../../playground/lib/haipay-nodes';
import { PAYOUTS } from '../fixtures/bodies';
import { canvasNode, closeNode, openBrowser, openNode, openWorkflow, signIn, type Browser } from './browser';
import { eventually, startStack, type Stack } from './stack';

/**
 * A bank code picked from HaiPay's method catalogue in a real n8n editor, in Chromium: the HaiPay node (version 3) is
 * opened, its Bank Code list searched and an entry clicked, the workflow saved and run from the editor, and the
 * sandbox shows the code HaiPay received.
 */

const log = (line: string) => process.stdout.write(`${line}\n`);

const WORKFLOW_ID = 'haipayTestPicker';
const NODE = 'Pay ZAR';
const ORDER_ID = 'CAT-E2E-ZAR-0001';

function pickWorkflow(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_ID);
	const { bankCode: _typedBefore, ...row } = PAYOUTS.ZAR;
	const start = b.add({
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	});
	const parameters = {
		resource: 'payout',
		operation: 'create',
		currency: 'ZAR',
		orderId: ORDER_ID,
		...row,
		bankCode: { __rl: true, mode: 'list', value: '' },
	};
	const pay = b.add(haiPay(NODE, 'ZAR', parameters, [220, 0], { typeVersion: 3 }));
	b.connect(start, pay);
	return b.file(
		'HaiPay test: a bank code picked from the catalogue',
		'One ZAR payout whose bank code is picked in the editor.',
	);
}

// Named as the other browser tests are, so that the compatibility runs leave it to the pinned n8n 2.x, whose editor
// screens these selectors are written for (playground/ci-compat.sh).
describe('the editor in a real browser: a bank code from the method catalogue', () => {
	let stack: Stack;
	let browser: Browser;

	beforeAll(async () => {
		stack = await startStack(log, { workflows: [pickWorkflow()] });
		browser = await openBrowser();
		await signIn(browser.page, stack.server.url);
	}, 20 * 60_000);

	afterAll(async () => {
		await browser?.close();
		await stack?.stop();
	}, 60_000);

	/** The HaiPay node's bankCode as n8n stored the workflow. */
	async function storedBankCode(): Promise<unknown> {
		const answer = await stack.rest.call('GET', `/workflows/${WORKFLOW_ID}`);
		const nodes = (answer.json as { data: { nodes: Array<{ name: string; parameters: Record<string, unknown> }> } })
			.data.nodes;
		return nodes.find((node) => node.name === NODE)?.parameters.bankCode;
	}

	test('a bank code searched and picked from the list is saved as a catalogue pick and paid with that code', async () => {
		const { page } = browser;
		await openWorkflow(page, stack.server.url, WORKFLOW_ID);
		const text = await openNode(page, NODE);
		expect(text).toContain('Bank Code');

		const panel = page.locator('[data-test-id="ndv"]');
		await panel.locator('[data-test-id="rlc-input"]').first().click();
		const search = page.locator('[data-test-id="rlc-search"]').first();
		await search.waitFor();
		await search.fill('standard');
		const item = page.locator('[data-test-id="rlc-item"]', { hasText: '051001' });
		await item.first().waitFor();
		expect(await page.locator('[data-test-id="rlc-item"]').count()).toBe(1);
		await item.first().click();
		await eventually(
			'the pick shown in the field',
			async () =>
				(await panel.locator('[data-test-id="rlc-input"]').first().inputValue()).includes('Standard Bank')
					? true
					: undefined,
			10_000,
		);
		await closeNode(page);

		await page.keyboard.press('Control+s');
		await eventually(
			'the saved pick',
			async () => {
				const stored = (await storedBankCode()) as { value?: string } | undefined;
				return stored?.value === '051001' ? stored : undefined;
			},
			30_000,
		);
		expect(await storedBankCode()).toMatchObject({ __rl: true, mode: 'list', value: '051001' });

		await page.locator('[data-test-id^="execute-workflow-button"]').first().click({ force: true });
		// The sandbox makes the order before it signs and logs its answer, so the wait is for the logged apply (an
		// order alone can be read a few milliseconds before its request is in the log), then for the node's success,
		// after which any second apply would be in the log too.
		const applies = () =>
			stack.sandbox.requests.filter(
				(request) => request.path === '/zar/pay/apply' && (request.body as { orderId?: string }).orderId === ORDER_ID,
			);
		await eventually('the payout logged at the sandbox', () => (applies().length > 0 ? true : undefined), 60_000);
		await canvasNode(page, NODE).locator('[data-test-id="canvas-node-status-success"]').waitFor();
		expect(stack.sandbox.control.order({ orderId: ORDER_ID })).toBeDefined();
		expect(applies().map((request) => (request.body as { bankCode?: string }).bankCode)).toEqual(['051001']);
	});
});
