import { createPrivateKey } from 'crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { digestOf, repeatKeys } from '../../nodes/HaiPayTrigger/memory';
import { signBody } from '../../sandbox';
import { TEST_KEY_DIR } from '../../sandbox/keys';
import { callbackUrl, MIT_CUSTOMER, PAYOUT_CURRENCIES, PAYOUTS_CREDENTIAL, WORKFLOW_IDS } from '../../playground/examples';
import { nodeOutput } from '../../playground/lib/n8n';
import { ROOT } from '../../playground/lib/paths';
import { httpRequest } from '../../playground/lib/rest';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { closeNode, openBrowser, openNode, openWorkflow, signIn, canvasNode, type Browser } from './browser';
import { eventually, startStack, type Stack } from './stack';

/** One result in the repeat memory's saved text: a 14-character digest of its key and a 5-character age. */
const [DIGEST_LENGTH, RECORD_LENGTH] = [14, 19];

/**
 * The examples on a real n8n server, driven like a person would: imported with n8n's CLI, run with `n8n execute`,
 * callbacks from the sandbox into the active workflow's production webhooks, and the editor in Chromium.
 */

const log = (line: string) => process.stdout.write(`${line}\n`);
const OUTPUT = join(ROOT, 'test', 'e2e', '.output');

let stack: Stack;

beforeAll(async () => {
	stack = await startStack(log);
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
}, 60_000);

/** What the bulk example must make of each row of examples/data/payouts.csv. */
const EXPECTED: Record<string, { outcome: string; field?: string; errorCode?: string; finalStatus?: 2 | 3 }> = {
	'PAY-2026-05-0001': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0002': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0003': { outcome: 'invalid', field: 'amount' },
	'PAY-2026-05-0004': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0005': { outcome: 'accepted', finalStatus: 3 },
	'PAY-2026-05-0006': { outcome: 'rejected', errorCode: '4010' },
	'PAY-2026-05-0007': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0008': { outcome: 'invalid', field: 'accountNo' },
	// HaiPay created it and answered 502: the node's Resolve Unknown Outcomes queried it and found it.
	'PAY-2026-05-0009': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0010': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0011': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0012': { outcome: 'invalid', field: 'amount' },
	'PAY-2026-05-0013': { outcome: 'invalid', field: 'currency' },
};
const CREATED = Object.entries(EXPECTED)
	.filter(([, row]) => row.finalStatus !== undefined)
	.map(([orderId]) => orderId);

function csvRows(file: string): Array<Record<string, string>> {
	const [header, ...lines] = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
	const names = header.split(',');
	// The first columns (orderId, currency, ...) never hold commas; later ones may be quoted.
	return lines.map((line) => Object.fromEntries(line.split(',').slice(0, names.length).map((value, i) => [names[i], value])));
}

type ImportedCredential = { id: string; name: string; type: string; data: Record<string, unknown> };

/** A credential of the file n8n imported, as the sandbox wrote it. */
function sandboxCredential(id: string): ImportedCredential {
	const found = (JSON.parse(readFileSync(stack.credentialsFile, 'utf8')) as ImportedCredential[]).find((credential) => credential.id === id);
	if (!found) throw new Error(`the sandbox wrote no credential ${id}`);
	return found;
}

/** n8n's credential test, as the editor's "Retry"/"Save" runs it: POST /rest/credentials/test. */
async function credentialTest(credential: ImportedCredential, data: Record<string, unknown>) {
	return (await stack.rest.call('POST', '/credentials/test', { credentials: { ...credential, data } })).json as { data?: { status: string; message: string } };
}

async function callbackExecutions(): Promise<number> {
	return (await stack.rest.executions(WORKFLOW_IDS.callbacks)).length;
}

/**
 * Waits until n8n lists at least `expected` executions of the callbacks workflow and has finished every one it
 * lists (the list holds new and running ones too), then checks there are exactly `expected`. Callers have had
 * every callback they sent answered, and n8n answers a callback only once it has stored the execution that the
 * callback starts, so a run too many is listed by then: nothing later can add one.
 */
async function expectCallbackExecutions(expected: number): Promise<void> {
	const executions = await eventually(`${expected} finished executions of the callbacks workflow`, async () => {
		const listed = await stack.rest.executions(WORKFLOW_IDS.callbacks);
		return listed.length >= expected && listed.every((execution) => !['new', 'running'].includes(execution.status)) ? listed : undefined;
	});
	expect(executions).toHaveLength(expected);
}

describe('n8n with n8n-nodes-haipay', () => {
	test('loads the nodes and the credential under their published type names', async () => {
		const types = await stack.rest.call('GET', '/types/nodes.json');
		expect(types.status).toBe(200);
		const names = (types.json as Array<{ name: string }>).map((type) => type.name);
		expect(names).toEqual(expect.arrayContaining(['n8n-nodes-haipay.haiPay', 'n8n-nodes-haipay.haiPayTrigger']));
		const credentials = await stack.rest.call('GET', '/types/credentials.json');
		expect((credentials.json as Array<{ name: string }>).map((type) => type.name)).toContain('haiPayApi');
	});

	test("the credential test signs a balance read: OK with the sandbox's keys, an error with a wrong secret", async () => {
		const tzs = sandboxCredential('hpsandbox1001');
		expect((await credentialTest(tzs, tzs.data)).data).toMatchObject({ status: 'OK' });
		const wrong = (await credentialTest(tzs, { ...tzs.data, secretKey: 'wrong-test-only-secret' })).data;
		expect(wrong?.status).toBe('Error');
		expect(wrong?.message).toContain('HaiPay refused the signed request');
	});

	test('the credential test of the multi-currency credential reads the balance of every App ID and names a wrong one', async () => {
		const payouts = sandboxCredential(PAYOUTS_CREDENTIAL.haiPayApi.id);
		const before = stack.sandbox.requests.length;
		const ok = (await credentialTest(payouts, payouts.data)).data;
		expect(ok?.status).toBe('OK');
		for (const currency of PAYOUT_CURRENCIES) expect(ok?.message).toContain(`${APP_IDS[currency]} (${currency})`);
		// One signed balance read per App ID reached the gateway, each on its currency's path.
		const reads = stack.sandbox.requests.slice(before).map((request) => request.path).sort();
		expect(reads).toEqual(PAYOUT_CURRENCIES.map((currency) => `/${currency.toLowerCase()}/account/ledger`).sort());

		const wrong = (await credentialTest(payouts, { ...payouts.data, secretKeyZar: 'wrong-test-only-secret' })).data;
		expect(wrong?.status).toBe('Error');
		expect(wrong?.message).toContain(`App ID ${APP_IDS.ZAR} (ZAR): HaiPay refused the signed request`);
		for (const currency of PAYOUT_CURRENCIES.filter((c) => c !== 'ZAR')) expect(wrong?.message).not.toContain(`App ID ${APP_IDS[currency]} (${currency})`);
	});
});

describe('example 1: bulk payouts from a spreadsheet', () => {
	test('pays every valid row once, reports the others with their reason, and writes every row back', async () => {
		const { run } = await stack.execute(WORKFLOW_IDS.bulkPayouts);
		const rows = nodeOutput(run, 'Result row');
		// One HaiPay node pays the mixed currencies of the sample, and its items keep the file's order.
		const fileOrder = csvRows(join(ROOT, 'examples', 'data', 'payouts.csv')).map((row) => row.orderId);
		expect(rows.map((row) => row.orderId)).toEqual(fileOrder);
		expect([...fileOrder].sort()).toEqual(Object.keys(EXPECTED).sort());
		expect(new Set(rows.map((row) => row.currency)).size).toBeGreaterThan(PAYOUT_CURRENCIES.length);
		for (const row of rows) {
			const expected = EXPECTED[String(row.orderId)];
			expect({ orderId: row.orderId, outcome: row.outcome }).toEqual({ orderId: row.orderId, outcome: expected.outcome });
			if (expected.field) expect(row.field).toBe(expected.field);
			if (expected.errorCode) expect(row.errorCode).toBe(expected.errorCode);
			if (expected.outcome === 'accepted') expect(row.orderNo).toMatch(/^HP\d+$/);
			else expect(row.error).not.toBe('');
		}
		// Invalid rows never reach the gateway; the refused and the unknown ones did.
		expect(stack.sandbox.appliesReceived()).toBe(9);
		expect(stack.sandbox.orders.map((order) => order.orderId).sort()).toEqual([...CREATED].sort());
		for (const row of rows.filter((r) => r.outcome === 'accepted')) {
			expect(stack.sandbox.control.order(String(row.orderNo))?.orderId).toBe(row.orderId);
		}
		const written = csvRows(join(stack.files, 'payout-results.csv'));
		expect(written.map((row) => [row.orderId, row.outcome])).toEqual(rows.map((row) => [row.orderId, row.outcome]));
		expect(written.filter((row) => row.orderNo !== '').map((row) => row.orderNo)).toEqual(
			rows.filter((row) => row.orderNo !== '').map((row) => row.orderNo),
		);
	});
});

describe('example 2: callbacks into the active workflow', () => {
	test('runs once per accepted callback, and records each result by status', async () => {
		for (const orderId of CREATED) {
			await stack.sandbox.waitForCallback((attempt) => attempt.orderId === orderId && attempt.acknowledged, 30_000);
		}
		expect(stack.sandbox.callbacks.every((attempt) => attempt.acknowledged && attempt.response === 'SUCCESS')).toBe(true);
		// Every payout currency's results go to the one trigger of the multi-currency credential.
		expect(stack.sandbox.callbacks.every((attempt) => attempt.url === callbackUrl('TZS'))).toBe(true);
		await expectCallbackExecutions(CREATED.length);
		const executions = await stack.rest.executions(WORKFLOW_IDS.callbacks);
		expect(executions.every((execution) => execution.mode === 'webhook' && execution.status === 'success')).toBe(true);

		const lines = readFileSync(join(stack.files, 'callbacks.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(lines.map((line) => line.orderId).sort()).toEqual([...CREATED].sort());
		for (const line of lines) {
			const final = EXPECTED[String(line.orderId)].finalStatus;
			expect(line).toMatchObject({ status: final, action: final === 2 ? 'mark paid' : 'mark failed', kind: 'payout' });
		}
	});

	test('repeats of callbacks that arrived together are acknowledged and start nothing', async () => {
		// The results above reached n8n at once; HaiPay now repeats every one of them.
		const before = stack.sandbox.callbacks.length;
		for (const orderId of CREATED) stack.sandbox.control.resendCallback({ orderId, appId: stack.sandbox.control.order({ orderId })?.appId });
		for (const orderId of CREATED) {
			const repeat = await stack.sandbox.waitForCallback((a) => a.orderId === orderId && stack.sandbox.callbacks.indexOf(a) >= before, 15_000);
			expect(repeat).toMatchObject({ httpStatus: 200, response: 'SUCCESS', acknowledged: true });
		}
		await expectCallbackExecutions(CREATED.length);
	});

	test("the trigger's repeat memory is in n8n's database: the stored workflow holds every result it emitted", async () => {
		// n8n 2.x drops the mark of a change a webhook request made when the request starts an execution; the memory
		// would then live only in this process, and a restart or another webhook processor would run repeats again.
		const answer = await stack.rest.call('GET', `/workflows/${WORKFLOW_IDS.callbacks}`);
		expect(answer.status).toBe(200);
		const { staticData } = (answer.json as { data: { staticData?: Record<string, { repeatMemory?: { entries: string } }> } }).data;
		const entries = staticData?.['node:Payout results']?.repeatMemory?.entries ?? '';
		const stored = new Set(entries.match(new RegExp(`.{${RECORD_LENGTH}}`, 'g'))?.map((record) => record.slice(0, DIGEST_LENGTH)) ?? []);
		const emitted = stack.sandbox.callbacks.filter((attempt) => attempt.acknowledged).map((attempt) => digestOf(repeatKeys(attempt.body).dedupKey ?? ''));
		expect(emitted.length).toBeGreaterThanOrEqual(CREATED.length);
		for (const digest of emitted) expect(stored.has(digest)).toBe(true);
	});

	test('forged callbacks are refused with 401 and start nothing', async () => {
		const order = stack.sandbox.control.order({ orderId: 'PAY-2026-05-0002' });
		const body = callbackBody('payout', { orderId: 'PAY-2026-05-0002', orderNo: order?.orderNo, amount: '999999', fee: '0', payTime: '2026-05-01 12:00:00' });
		const platformKey = createPrivateKey(stack.platformPrivateKey);
		const otherKey = createPrivateKey(readFileSync(join(TEST_KEY_DIR, 'other-test-only.pkcs8.pem'), 'utf8'));
		const forgeries: Array<[string, string, Record<string, unknown>]> = [
			['no signature', callbackUrl('TZS'), body],
			['a made-up signature', callbackUrl('TZS'), { ...body, sign: Buffer.from('forged').toString('base64') }],
			['signed with another key', callbackUrl('TZS'), { ...body, sign: signBody(body, 'test-only-secret-tzs', otherKey) }],
			['signed with the wrong secret', callbackUrl('TZS'), { ...body, sign: signBody(body, 'not-the-secret', platformKey) }],
			[
				'the genuine callback of an App ID the credential does not hold',
				callbackUrl('TZS'),
				{ ...body, appId: APP_IDS.BRL, currency: 'BRL', sign: signBody({ ...body, appId: APP_IDS.BRL, currency: 'BRL' }, 'test-only-secret-brl', platformKey) },
			],
		];
		for (const [what, url, payload] of forgeries) {
			const answer = await httpRequest(url, { body: payload });
			expect({ what, status: answer.status }).toEqual({ what, status: 401 });
			expect(answer.body).not.toContain('SUCCESS');
		}
		// A body that is not JSON: n8n itself refuses one declared as JSON; the trigger refuses any other.
		const garbled = await httpRequest(callbackUrl('TZS'), { raw: '{"appId": 1001, "status": 2' , headers: { 'Content-Type': 'application/json' } });
		expect(garbled.status).toBeGreaterThanOrEqual(400);
		expect(garbled.status).toBeLessThan(500);
		const text = await httpRequest(callbackUrl('TZS'), { raw: 'appId=1001&status=2', headers: { 'Content-Type': 'text/plain' } });
		expect(text.status).toBe(401);
		await expectCallbackExecutions(CREATED.length);
	});
});

describe('callback attacks on the production webhook (issue 13)', () => {
	// Sent by the sandbox's attack routes, with its retries, to the active workflow's production URL: each one is
	// signed with the real platform key, as by someone who captured the genuine callback.
	const ORDER = 'PAY-2026-05-0002';

	async function attack(kind: 'replay' | 'resplit' | 'regressed') {
		const ref = { orderId: ORDER, appId: APP_IDS.TZS };
		const job = stack.sandbox.control.attackCallback(ref, kind, { url: callbackUrl('TZS') });
		await stack.sandbox.waitForCallback((attempt) => attempt.jobId === job.id && attempt.last, 30_000);
		return stack.sandbox.callbacks.filter((attempt) => attempt.jobId === job.id);
	}

	test('a re-split replay (orderNo folded into orderId, same signature) is settled by HaiPay\'s query, which knows no such order: 503 on every attempt, nothing starts', async () => {
		const attempts = await attack('resplit');
		expect(attempts.map((attempt) => attempt.httpStatus)).toEqual([503, 503, 503]);
		expect(attempts.every((attempt) => attempt.response !== 'SUCCESS')).toBe(true);
		await expectCallbackExecutions(CREATED.length);
	});

	test('an exact replay and an earlier status after the final one are acknowledged and start nothing', async () => {
		for (const kind of ['replay', 'regressed'] as const) {
			const attempts = await attack(kind);
			expect({ kind, answers: attempts.map((attempt) => [attempt.httpStatus, attempt.response]) }).toEqual({ kind, answers: [[200, 'SUCCESS']] });
		}
		await expectCallbackExecutions(CREATED.length);
	});
});

describe('example 3: reconciliation', () => {
	test('queries every order sent without a known result and saves a voucher PDF for each final one', async () => {
		const { run } = await stack.execute(WORKFLOW_IDS.reconciliation);
		const states = nodeOutput(run, 'Order state');
		expect(states.map((state) => state.orderId).sort()).toEqual([...CREATED].sort());
		for (const state of states) {
			const expected = EXPECTED[String(state.orderId)];
			expect({ orderId: state.orderId, status: state.status, final: state.final }).toEqual({
				orderId: state.orderId,
				status: expected.finalStatus,
				final: true,
			});
			expect(state.orderNo).toBe(stack.sandbox.control.order({ orderId: String(state.orderId) })?.orderNo);
		}
		expect(states.find((state) => state.orderId === 'PAY-2026-05-0009')).toMatchObject({ sentOutcome: 'accepted', status: 2 });
		expect(String(states.find((state) => state.orderId === 'PAY-2026-05-0005')?.errorMsg)).toMatch(/bank return/i);

		const dir = join(stack.files, 'vouchers');
		const files = readdirSync(dir).sort();
		expect(files).toEqual(states.map((state) => `voucher-${state.orderNo}.pdf`).sort());
		for (const file of files) expect(readFileSync(join(dir, file)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(csvRows(join(stack.files, 'reconciliation.csv')).map((row) => row.orderId).sort()).toEqual([...CREATED].sort());
	});
});

describe('example 4: USD card collection (MIT)', () => {
	const firstOrderId = `MIT-FIRST-${MIT_CUSTOMER.customerId}`;

	test('the first charge returns a payment page; paying it stores the card token through the callback', async () => {
		const executionsBefore = await callbackExecutions();
		const { run } = await stack.execute(WORKFLOW_IDS.mitCollection);
		const [page] = nodeOutput(run, 'Send the payer to payUrl');
		expect(nodeOutput(run, 'Charge saved card')).toEqual([]);
		expect(page).toMatchObject({ orderId: firstOrderId });
		expect(String(page.payUrl).startsWith(stack.sandbox.baseUrl)).toBe(true);

		const form = await httpRequest(String(page.payUrl));
		expect(form.status).toBe(200);
		const action = /action="([^"]+\/pay)"/.exec(form.body)?.[1];
		expect(action).toBeDefined();
		const paid = await httpRequest(`${stack.sandbox.baseUrl}${action}`, { method: 'POST', raw: '' });
		expect([200, 303]).toContain(paid.status);

		const tokenFile = join(stack.files, 'mit-tokens', `${firstOrderId}.json`);
		const stored = await eventually('the stored card token', () =>
			existsSync(tokenFile) ? (JSON.parse(readFileSync(tokenFile, 'utf8')) as Record<string, unknown>) : undefined,
		);
		const order = stack.sandbox.control.order({ orderId: firstOrderId });
		expect(order?.status).toBe(2);
		expect(stored).toMatchObject({ orderId: firstOrderId, tokenID: order?.mit?.tokenID, appId: 1006 });
		await expectCallbackExecutions(executionsBefore + 1);

		// HaiPay resends a result until it hears SUCCESS: a repeat is acknowledged and starts nothing.
		const before = stack.sandbox.callbacks.length;
		stack.sandbox.control.resendCallback(String(order?.orderNo));
		const repeat = await stack.sandbox.waitForCallback((a) => a.orderId === firstOrderId && stack.sandbox.callbacks.indexOf(a) >= before, 15_000);
		expect(repeat).toMatchObject({ httpStatus: 200, response: 'SUCCESS', acknowledged: true });
		await expectCallbackExecutions(executionsBefore + 1);
	});

	test('the next run charges the stored token without a page, and a repeat the same day is refused', async () => {
		const stored = JSON.parse(readFileSync(join(stack.files, 'mit-tokens', `${firstOrderId}.json`), 'utf8')) as { tokenID: string };
		const { run } = await stack.execute(WORKFLOW_IDS.mitCollection);
		const [charge] = nodeOutput(run, 'Charge saved card');
		expect(nodeOutput(run, 'First charge')).toEqual([]);
		expect(charge).toMatchObject({ outcome: 'accepted' });
		const order = stack.sandbox.control.order({ orderId: String(charge.orderId) });
		expect(order?.mit).toMatchObject({ viaToken: true, tokenID: stored.tokenID });
		expect(String(charge.orderId)).toMatch(new RegExp(`^MIT-${MIT_CUSTOMER.customerId}-\\d{8}$`));

		const applies = stack.sandbox.appliesReceived(APP_IDS.USD);
		await expect(stack.execute(WORKFLOW_IDS.mitCollection)).rejects.toThrow(/4006|duplicate|exists/i);
		expect(stack.sandbox.appliesReceived(APP_IDS.USD)).toBe(applies + 1);
		expect(stack.sandbox.orders.filter((o) => o.orderId === charge.orderId)).toHaveLength(1);
	});
});

describe('the editor in a real browser', () => {
	let browser: Browser;

	beforeAll(async () => {
		browser = await openBrowser();
		await signIn(browser.page, stack.server.url);
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
		// A fresh sandbox, so that the editor's run pays the rows instead of meeting the CLI run's order IDs.
		stack.sandbox.control.reset();
		await openWorkflow(page, stack.server.url, WORKFLOW_IDS.bulkPayouts);
		await expect(canvasNode(page, 'Pay').getAttribute('data-node-type')).resolves.toBe('n8n-nodes-haipay.haiPay');
		// The canvas pane sits over the floating button in headless Chromium; the click itself is the user's.
		await page.locator('[data-test-id^="execute-workflow-button"]').first().click({ force: true });
		await eventually('the editor run to pay the rows', () => (stack.sandbox.appliesReceived() >= 9 ? true : undefined), 60_000);
		await eventually('the run to write its results', async () => ((await stack.rest.executions(WORKFLOW_IDS.bulkPayouts)).some((e) => e.mode === 'manual' && e.status === 'success') ? true : undefined), 60_000);
		// The editor shows the run once n8n has pushed its result: the node's success mark on the canvas.
		await canvasNode(page, 'Pay').locator('[data-test-id="canvas-node-status-success"]').waitFor();

		const text = await openNode(page, 'Pay');
		for (const label of ['Credential', 'HaiPay Sandbox payouts', 'Resource', 'Payout', 'Operation', 'Create', 'Currency', 'Fields From', 'Input Item Fields of the Same Names']) {
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
		await openWorkflow(page, stack.server.url, WORKFLOW_IDS.callbacks);
		await expect(canvasNode(page, 'Payout results').getAttribute('data-node-type')).resolves.toBe('n8n-nodes-haipay.haiPayTrigger');
		const text = await openNode(page, 'Payout results');
		for (const label of ['Credential', 'HaiPay Sandbox payouts', 'Callbacks For', 'Payouts', 'Statuses', 'Verify Signature']) {
			expect({ label, shown: text.includes(label) }).toEqual({ label, shown: true });
		}
		const panel = page.locator('[data-test-id="ndv"]');
		await panel.getByText(/webhook URLs/i).first().click();
		await panel.getByText(/^Production URL$/).first().click();
		await eventually('the production URL on the panel', async () =>
			(await panel.innerText()).includes(callbackUrl('TZS')) ? true : undefined,
		10_000);
		const file = screenshot('haipay-trigger.png');
		await page.screenshot({ path: file });
		publish(file);
		await closeNode(page);
	});
});

describe('callbacks of a HaiPay that added a field, and bank text holding " & " (issue 29)', () => {
	// HaiPay's callback page: parse callbacks as a generic map, because HaiPay may add fields. Sent by the sandbox's
	// own dispatcher, signed with the platform key, to the active workflow's production URL.
	test('each starts exactly one execution, answered SUCCESS on its first attempt, and a resend starts nothing', async () => {
		const before = await callbackExecutions();
		stack.sandbox.control.setAddedCallbackFields({ channelRef: 'CRDB-7781' });
		const settled: Array<[string, 'success' | 'failed', string | undefined]> = [
			['ADDED-FIELD-1', 'success', undefined],
			['BANK-TEXT-1', 'failed', 'Account name & number mismatch'],
		];
		try {
			for (const [orderId, outcome, errorMsg] of settled) {
				const order = stack.sandbox.control.createOrder({ appId: APP_IDS.TZS, kind: 'payout', orderId, amount: '1500', notifyUrl: callbackUrl('TZS') });
				stack.sandbox.control.settle(order.orderNo, outcome, { errorMsg });
				const attempt = await stack.sandbox.waitForCallback((each) => each.orderId === orderId && each.last, 30_000);
				expect({ orderId, attempt: attempt.attempt, answer: [attempt.httpStatus, attempt.response] }).toEqual({ orderId, attempt: 1, answer: [200, 'SUCCESS'] });
				expect(attempt.body).toMatchObject({ channelRef: 'CRDB-7781' });
			}
		} finally {
			stack.sandbox.control.setAddedCallbackFields({});
		}
		await expectCallbackExecutions(before + settled.length);
		for (const [orderId] of settled) stack.sandbox.control.resendCallback({ orderId, appId: APP_IDS.TZS });
		for (const [orderId] of settled) {
			await stack.sandbox.waitForCallback((each) => each.orderId === orderId && each.acknowledged && stack.sandbox.callbacks.filter((a) => a.orderId === orderId).length === 2, 30_000);
		}
		await expectCallbackExecutions(before + settled.length);
		const lines = readFileSync(join(stack.files, 'callbacks.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(lines.filter((line) => line.orderId === 'ADDED-FIELD-1')).toMatchObject([{ status: 2, action: 'mark paid' }]);
		expect(lines.filter((line) => line.orderId === 'BANK-TEXT-1')).toMatchObject([{ status: 3, action: 'mark failed' }]);
	});
});
