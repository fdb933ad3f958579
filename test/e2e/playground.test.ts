/**
 * The examples on a real n8n server, driven like a person would: the package's types and credential test through
 * n8n's REST API, the examples imported with n8n's CLI and run with `n8n execute`, and callbacks from the sandbox
 * (genuine, repeated, forged, attacks, a field HaiPay added) into the active workflow's production webhooks. The
 * tests run in order on one server: the callbacks and the reconciliation act on the orders example 1 made. The
 * editor in Chromium is test/e2e/editor.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { repeatKeys } from '../../nodes/HaiPayTrigger/keys';
import { digestOf } from '../../nodes/HaiPayTrigger/memory';
import {
	callbackUrl,
	MIT_CUSTOMER,
	PAYOUTS_CREDENTIAL_CURRENCIES,
	PAYOUTS_CREDENTIAL,
	WORKFLOW_IDS,
} from '../../playground/examples';
import { nodeOutput } from '../../playground/lib/n8n';
import { ROOT } from '../../playground/lib/paths';
import { httpRequest } from '../../playground/lib/rest';
import { APP_IDS } from '../fixtures/bodies';
import {
	callbackExecutions,
	CREATED,
	credentialTest,
	csvRows,
	EXPECTED,
	expectCallbackExecutions,
	forgedCallbacks,
	sandboxCredential,
	storedDigests,
} from './playground-checks';
import { eventually, stackPerFile } from './stack';

const log = (line: string) => process.stdout.write(`${line}\n`);

const running = stackPerFile(log);

describe('n8n with n8n-nodes-haipay', () => {
	test('loads the nodes and the credential under their published type names', async () => {
		const types = await running().rest.call('GET', '/types/nodes.json');
		expect(types.status).toBe(200);
		const names = (types.json as Array<{ name: string }>).map((type) => type.name);
		expect(names).toEqual(expect.arrayContaining(['n8n-nodes-haipay.haiPay', 'n8n-nodes-haipay.haiPayTrigger']));
		const credentials = await running().rest.call('GET', '/types/credentials.json');
		expect((credentials.json as Array<{ name: string }>).map((type) => type.name)).toContain('haiPayApi');
	});

	test("the credential test signs a balance read: OK with the sandbox's keys, an error with a wrong secret", async () => {
		const tzs = sandboxCredential(running(), 'hpsandbox1001');
		expect((await credentialTest(running(), tzs, tzs.data)).data).toMatchObject({ status: 'OK' });
		const wrong = (await credentialTest(running(), tzs, { ...tzs.data, secretKey: 'wrong-test-only-secret' })).data;
		expect(wrong?.status).toBe('Error');
		expect(wrong?.message).toContain('HaiPay refused the signed request');
	});

	test('the credential test of the multi-currency credential reads the balance of every App ID and names a wrong one', async () => {
		const payouts = sandboxCredential(running(), PAYOUTS_CREDENTIAL.haiPayApi.id);
		const before = running().sandbox.requests.length;
		const ok = (await credentialTest(running(), payouts, payouts.data)).data;
		expect(ok?.status).toBe('OK');
		for (const currency of PAYOUTS_CREDENTIAL_CURRENCIES)
			expect(ok?.message).toContain(`${APP_IDS[currency]} (${currency})`);
		// One signed balance read per App ID reached the gateway, each on its currency's path.
		const reads = running()
			.sandbox.requests.slice(before)
			.map((request) => request.path)
			.sort();
		expect(reads).toEqual(
			PAYOUTS_CREDENTIAL_CURRENCIES.map((currency) => `/${currency.toLowerCase()}/account/ledger`).sort(),
		);

		const wrong = (
			await credentialTest(running(), payouts, { ...payouts.data, secretKeyZar: 'wrong-test-only-secret' })
		).data;
		expect(wrong?.status).toBe('Error');
		expect(wrong?.message).toContain(`App ID ${APP_IDS.ZAR} (ZAR): HaiPay refused the signed request`);
		for (const currency of PAYOUTS_CREDENTIAL_CURRENCIES.filter((c) => c !== 'ZAR'))
			expect(wrong?.message).not.toContain(`App ID ${APP_IDS[currency]} (${currency})`);
	});
});

describe('example 1: bulk payouts from a spreadsheet', () => {
	test('pays every valid row once, reports the others with their reason, and writes every row back', async () => {
		const { run } = await running().execute(WORKFLOW_IDS.bulkPayouts);
		const rows = nodeOutput(run, 'Result row');
		// One HaiPay node pays the mixed currencies of the sample, and its items keep the file's order.
		const fileOrder = csvRows(join(ROOT, 'examples', 'data', 'payouts.csv')).map((row) => row.orderId);
		expect(rows.map((row) => row.orderId)).toEqual(fileOrder);
		expect([...fileOrder].sort()).toEqual(Object.keys(EXPECTED).sort());
		expect(new Set(rows.map((row) => row.currency)).size).toBeGreaterThan(PAYOUTS_CREDENTIAL_CURRENCIES.length);
		for (const row of rows) {
			const expected = EXPECTED[String(row.orderId)];
			expect({ orderId: row.orderId, outcome: row.outcome }).toEqual({
				orderId: row.orderId,
				outcome: expected.outcome,
			});
			if (expected.field) expect(row.field).toBe(expected.field);
			if (expected.errorCode) expect(row.errorCode).toBe(expected.errorCode);
			if (expected.outcome === 'accepted') expect(row.orderNo).toMatch(/^HP\d+$/);
			else expect(row.error).not.toBe('');
		}
		// Invalid rows never reach the gateway; the refused and the unknown ones did.
		expect(running().sandbox.appliesReceived()).toBe(9);
		expect(
			running()
				.sandbox.orders.map((order) => order.orderId)
				.sort(),
		).toEqual([...CREATED].sort());
		for (const row of rows.filter((r) => r.outcome === 'accepted')) {
			expect(running().sandbox.control.order(String(row.orderNo))?.orderId).toBe(row.orderId);
		}
		const written = csvRows(join(running().files, 'payout-results.csv'));
		expect(written.map((row) => [row.orderId, row.outcome])).toEqual(rows.map((row) => [row.orderId, row.outcome]));
		expect(written.filter((row) => row.orderNo !== '').map((row) => row.orderNo)).toEqual(
			rows.filter((row) => row.orderNo !== '').map((row) => row.orderNo),
		);
	});
});

describe('example 2: callbacks into the active workflow', () => {
	test('runs once per accepted callback, and records each result by status', async () => {
		for (const orderId of CREATED) {
			await running().sandbox.waitForCallback((attempt) => attempt.orderId === orderId && attempt.acknowledged, 30_000);
		}
		expect(running().sandbox.callbacks.every((attempt) => attempt.acknowledged && attempt.response === 'SUCCESS')).toBe(
			true,
		);
		// Every payout currency's results go to the one trigger of the multi-currency credential.
		expect(running().sandbox.callbacks.every((attempt) => attempt.url === callbackUrl('TZS'))).toBe(true);
		await expectCallbackExecutions(running(), CREATED.length);
		const executions = await running().rest.executions(WORKFLOW_IDS.callbacks);
		expect(executions.every((execution) => execution.mode === 'webhook' && execution.status === 'success')).toBe(true);

		const lines = readFileSync(join(running().files, 'callbacks.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(lines.map((line) => line.orderId).sort()).toEqual([...CREATED].sort());
		for (const line of lines) {
			const final = EXPECTED[String(line.orderId)].finalStatus;
			expect(line).toMatchObject({ status: final, action: final === 2 ? 'mark paid' : 'mark failed', kind: 'payout' });
		}
	});

	test('repeats of callbacks that arrived together are acknowledged and start nothing', async () => {
		// The results above reached n8n at once; HaiPay now repeats every one of them.
		const before = running().sandbox.callbacks.length;
		for (const orderId of CREATED)
			running().sandbox.control.resendCallback({ orderId, appId: running().sandbox.control.order({ orderId })?.appId });
		for (const orderId of CREATED) {
			const repeat = await running().sandbox.waitForCallback(
				(a) => a.orderId === orderId && running().sandbox.callbacks.indexOf(a) >= before,
				15_000,
			);
			expect(repeat).toMatchObject({ httpStatus: 200, response: 'SUCCESS', acknowledged: true });
		}
		await expectCallbackExecutions(running(), CREATED.length);
	});

	test("the trigger's repeat memory is in n8n's database: the stored workflow holds every result it emitted", async () => {
		// n8n 2.x drops the mark of a change a webhook request made when the request starts an execution; the memory
		// would then live only in this process, and a restart or another webhook processor would run repeats again.
		const answer = await running().rest.call('GET', `/workflows/${WORKFLOW_IDS.callbacks}`);
		expect(answer.status).toBe(200);
		const stored = storedDigests(answer.json);
		const emitted = running()
			.sandbox.callbacks.filter((attempt) => attempt.acknowledged)
			.map((attempt) => digestOf(repeatKeys(attempt.body).dedupKey ?? ''));
		expect(emitted.length).toBeGreaterThanOrEqual(CREATED.length);
		for (const digest of emitted) expect(stored.has(digest)).toBe(true);
	});

	test('forged callbacks are refused with 401 and start nothing', async () => {
		const forgeries = forgedCallbacks(running());
		for (const [what, url, payload] of forgeries) {
			const answer = await httpRequest(url, { body: payload });
			expect({ what, status: answer.status }).toEqual({ what, status: 401 });
			expect(answer.body).not.toContain('SUCCESS');
		}
		// A body that is not JSON: n8n itself refuses one declared as JSON; the trigger refuses any other.
		const garbled = await httpRequest(callbackUrl('TZS'), {
			raw: '{"appId": 1001, "status": 2',
			headers: { 'Content-Type': 'application/json' },
		});
		expect(garbled.status).toBeGreaterThanOrEqual(400);
		expect(garbled.status).toBeLessThan(500);
		const text = await httpRequest(callbackUrl('TZS'), {
			raw: 'appId=1001&status=2',
			headers: { 'Content-Type': 'text/plain' },
		});
		expect(text.status).toBe(401);
		await expectCallbackExecutions(running(), CREATED.length);
	});
});

describe('callback attacks on the production webhook (issue 13)', () => {
	// Sent by the sandbox's attack routes, with its retries, to the active workflow's production URL: each one is
	// signed with the real platform key, as by someone who captured the genuine callback.
	const ORDER = 'PAY-2026-05-0002';

	async function attack(kind: 'replay' | 'resplit' | 'regressed') {
		const ref = { orderId: ORDER, appId: APP_IDS.TZS };
		const job = running().sandbox.control.attackCallback(ref, kind, { url: callbackUrl('TZS') });
		await running().sandbox.waitForCallback((attempt) => attempt.jobId === job.id && attempt.last, 30_000);
		return running().sandbox.callbacks.filter((attempt) => attempt.jobId === job.id);
	}

	test("a re-split replay (orderNo folded into orderId, same signature) is settled by HaiPay's query, which knows no such order: 503 on every attempt, nothing starts", async () => {
		const attempts = await attack('resplit');
		expect(attempts.map((attempt) => attempt.httpStatus)).toEqual([503, 503, 503]);
		expect(attempts.every((attempt) => attempt.response !== 'SUCCESS')).toBe(true);
		await expectCallbackExecutions(running(), CREATED.length);
	});

	test('an exact replay and an earlier status after the final one are acknowledged and start nothing', async () => {
		for (const kind of ['replay', 'regressed'] as const) {
			const attempts = await attack(kind);
			expect({ kind, answers: attempts.map((attempt) => [attempt.httpStatus, attempt.response]) }).toEqual({
				kind,
				answers: [[200, 'SUCCESS']],
			});
		}
		await expectCallbackExecutions(running(), CREATED.length);
	});
});

describe('example 3: reconciliation', () => {
	test('queries every order sent without a known result and saves a voucher PDF for each final one', async () => {
		const { run } = await running().execute(WORKFLOW_IDS.reconciliation);
		const states = nodeOutput(run, 'Order state');
		expect(states.map((state) => state.orderId).sort()).toEqual([...CREATED].sort());
		for (const state of states) {
			const expected = EXPECTED[String(state.orderId)];
			expect({ orderId: state.orderId, status: state.status, final: state.final }).toEqual({
				orderId: state.orderId,
				status: expected.finalStatus,
				final: true,
			});
			expect(state.orderNo).toBe(running().sandbox.control.order({ orderId: String(state.orderId) })?.orderNo);
		}
		expect(states.find((state) => state.orderId === 'PAY-2026-05-0009')).toMatchObject({
			sentOutcome: 'accepted',
			status: 2,
		});
		expect(String(states.find((state) => state.orderId === 'PAY-2026-05-0005')?.errorMsg)).toMatch(/bank return/i);

		const dir = join(running().files, 'vouchers');
		const files = readdirSync(dir).sort();
		expect(files).toEqual(states.map((state) => `voucher-${state.orderNo}.pdf`).sort());
		for (const file of files) expect(readFileSync(join(dir, file)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(
			csvRows(join(running().files, 'reconciliation.csv'))
				.map((row) => row.orderId)
				.sort(),
		).toEqual([...CREATED].sort());
	});
});

describe('example 4: USD card collection (MIT)', () => {
	const firstOrderId = `MIT-FIRST-${MIT_CUSTOMER.customerId}`;

	test('the first charge returns a payment page; paying it stores the card token through the callback', async () => {
		const executionsBefore = await callbackExecutions(running());
		const { run } = await running().execute(WORKFLOW_IDS.mitCollection);
		const [page] = nodeOutput(run, 'Send the payer to payUrl');
		expect(nodeOutput(run, 'Charge saved card')).toEqual([]);
		expect(page).toMatchObject({ orderId: firstOrderId });
		expect(String(page.payUrl).startsWith(running().sandbox.baseUrl)).toBe(true);

		const form = await httpRequest(String(page.payUrl));
		expect(form.status).toBe(200);
		const action = /action="([^"]+\/pay)"/.exec(form.body)?.[1];
		expect(action).toBeDefined();
		const paid = await httpRequest(`${running().sandbox.baseUrl}${action}`, { method: 'POST', raw: '' });
		expect([200, 303]).toContain(paid.status);

		const tokenFile = join(running().files, 'mit-tokens', `${firstOrderId}.json`);
		const stored = await eventually('the stored card token', () =>
			existsSync(tokenFile) ? (JSON.parse(readFileSync(tokenFile, 'utf8')) as Record<string, unknown>) : undefined,
		);
		const order = running().sandbox.control.order({ orderId: firstOrderId });
		expect(order?.status).toBe(2);
		expect(stored).toMatchObject({ orderId: firstOrderId, tokenID: order?.mit?.tokenID, appId: 1006 });
		await expectCallbackExecutions(running(), executionsBefore + 1);

		// HaiPay resends a result until it hears SUCCESS: a repeat is acknowledged and starts nothing. The first
		// attempt is logged once its answer is in, which can be after its run wrote the token: counted from after it.
		await running().sandbox.waitForCallback((a) => a.orderId === firstOrderId && a.acknowledged, 15_000);
		const before = running().sandbox.callbacks.length;
		running().sandbox.control.resendCallback(String(order?.orderNo));
		const repeat = await running().sandbox.waitForCallback(
			(a) => a.orderId === firstOrderId && running().sandbox.callbacks.indexOf(a) >= before,
			15_000,
		);
		expect(repeat).toMatchObject({ httpStatus: 200, response: 'SUCCESS', acknowledged: true });
		await expectCallbackExecutions(running(), executionsBefore + 1);
	});

	test('the next run charges the stored token without a page, and a repeat the same day is refused', async () => {
		const stored = JSON.parse(readFileSync(join(running().files, 'mit-tokens', `${firstOrderId}.json`), 'utf8')) as {
			tokenID: string;
		};
		const { run } = await running().execute(WORKFLOW_IDS.mitCollection);
		const [charge] = nodeOutput(run, 'Charge saved card');
		expect(nodeOutput(run, 'First charge')).toEqual([]);
		expect(charge).toMatchObject({ outcome: 'accepted' });
		const order = running().sandbox.control.order({ orderId: String(charge.orderId) });
		expect(order?.mit).toMatchObject({ viaToken: true, tokenID: stored.tokenID });
		expect(String(charge.orderId)).toMatch(new RegExp(`^MIT-${MIT_CUSTOMER.customerId}-\\d{8}$`));

		const applies = running().sandbox.appliesReceived(APP_IDS.USD);
		await expect(running().execute(WORKFLOW_IDS.mitCollection)).rejects.toThrow(/4006|duplicate|exists/i);
		expect(running().sandbox.appliesReceived(APP_IDS.USD)).toBe(applies + 1);
		expect(running().sandbox.orders.filter((o) => o.orderId === charge.orderId)).toHaveLength(1);
	});
});

describe('callbacks of a HaiPay that added a field, and bank text holding " & " (issue 29)', () => {
	// HaiPay's callback page: parse callbacks as a generic map, because HaiPay may add fields. Sent by the sandbox's
	// own dispatcher, signed with the platform key, to the active workflow's production URL.
	test('each starts exactly one execution, answered SUCCESS on its first attempt, and a resend starts nothing', async () => {
		const before = await callbackExecutions(running());
		running().sandbox.control.setAddedCallbackFields({ channelRef: 'CRDB-7781' });
		const settled: Array<[string, 'success' | 'failed', string | undefined]> = [
			['ADDED-FIELD-1', 'success', undefined],
			['BANK-TEXT-1', 'failed', 'Account name & number mismatch'],
		];
		try {
			for (const [orderId, outcome, errorMsg] of settled) {
				const order = running().sandbox.control.createOrder({
					appId: APP_IDS.TZS,
					kind: 'payout',
					orderId,
					amount: '1500',
					notifyUrl: callbackUrl('TZS'),
				});
				running().sandbox.control.settle(order.orderNo, outcome, { errorMsg });
				const attempt = await running().sandbox.waitForCallback(
					(each) => each.orderId === orderId && each.last,
					30_000,
				);
				expect({ orderId, attempt: attempt.attempt, answer: [attempt.httpStatus, attempt.response] }).toEqual({
					orderId,
					attempt: 1,
					answer: [200, 'SUCCESS'],
				});
				expect(attempt.body).toMatchObject({ channelRef: 'CRDB-7781' });
			}
		} finally {
			running().sandbox.control.setAddedCallbackFields({});
		}
		await expectCallbackExecutions(running(), before + settled.length);
		for (const [orderId] of settled) running().sandbox.control.resendCallback({ orderId, appId: APP_IDS.TZS });
		for (const [orderId] of settled) {
			await running().sandbox.waitForCallback(
				(each) =>
					each.orderId === orderId &&
					each.acknowledged &&
					running().sandbox.callbacks.filter((a) => a.orderId === orderId).length === 2,
				30_000,
			);
		}
		await expectCallbackExecutions(running(), before + settled.length);
		const lines = readFileSync(join(running().files, 'callbacks.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(lines.filter((line) => line.orderId === 'ADDED-FIELD-1')).toMatchObject([
			{ status: 2, action: 'mark paid' },
		]);
		expect(lines.filter((line) => line.orderId === 'BANK-TEXT-1')).toMatchObject([
			{ status: 3, action: 'mark failed' },
		]);
	});
});
