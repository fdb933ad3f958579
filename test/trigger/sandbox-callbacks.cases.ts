/**
 * The HaiPay Trigger in n8n's webhook machinery (n8n-core's WebhookContext behind a real HTTP server, static data
 * saved as n8n saves it, executions run with WorkflowExecute), receiving genuine callbacks from the sandbox gateway,
 * which signs them with its own implementation and retries until it reads SUCCESS: each result starts exactly one
 * execution, answered in plain text, and a repeat (a lost answer, a resend, a restart) none; a filtered-out one is
 * acknowledged; nothing is registered at HaiPay; and an MIT card token reaches the workflow for the next charge.
 */
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { APP_IDS } from '../fixtures/bodies';
import { runWorkflow } from '../harness';
import { sandboxCredential } from '../helpers/credentials';
import { paidPayoutFields } from './callbacks';
import { relay } from './relay';
import { attemptsOf, lastAttempt, sandboxTrigger, TRIGGER } from './sandbox-trigger';

describe('HaiPay Trigger in n8n, with callbacks from the sandbox gateway', () => {
	const trigger = sandboxTrigger({ prefix: 'TRG', callbackTimeoutMs: 5_000 });

	it('starts exactly one execution for a genuine callback and answers SUCCESS', async () => {
		const server = await trigger.serve({ kind: 'payout' });
		const order = trigger.payout(server.url(TRIGGER));
		trigger.sandbox.control.settle(order.orderNo, 'success');

		const attempt = await lastAttempt(trigger.sandbox, order.orderNo);
		await server.idle();

		expect(attempt).toMatchObject({ attempt: 1, httpStatus: 200, response: 'SUCCESS', acknowledged: true });
		expect(server.calls).toHaveLength(1);
		expect(server.calls[0].headers['content-type']).toBe('application/json');
		expect(server.executions).toHaveLength(1);
		const execution = server.executions[0];
		expect(execution.result.status).toBe('success');
		expect(execution.result.executedNodes).toEqual([TRIGGER, 'Next']);
		expect(execution.items).toHaveLength(1);
		expect(execution.items[0].json).toEqual({
			...attempt.body,
			sign: undefined,
			...paidPayoutFields(order.orderNo),
		});
		expect(execution.items[0].json).not.toHaveProperty('sign');
		expect(execution.items[0].json).toMatchObject({
			orderId: order.orderId,
			orderNo: order.orderNo,
			appId: 1001,
			status: 2,
		});
	});

	it('answers in plain text over HTTP: SUCCESS, or 401 with a reason', async () => {
		const server = await trigger.serve();
		const order = trigger.payout(server.url(TRIGGER));
		trigger.sandbox.control.settle(order.orderNo, 'success');
		const genuine = (await lastAttempt(trigger.sandbox, order.orderNo)).body;

		const again = await server.send(TRIGGER, genuine);
		expect(again.status).toBe(200);
		expect(again.headers['content-type']).toBe('text/plain; charset=utf-8');
		expect(again.text).toBe('SUCCESS');

		const forged = await server.send(TRIGGER, { ...genuine, status: 3 });
		expect(forged.status).toBe(401);
		expect(forged.headers['content-type']).toBe('text/plain; charset=utf-8');
		expect(forged.text).toBe('Rejected: signature is not valid');

		const notJson = await server.send(TRIGGER, 'status=2', { headers: { 'Content-Type': 'text/plain' } });
		expect([notJson.status, notJson.text]).toEqual([401, 'Rejected: the body is not a JSON object']);
		// Labelled JSON but not parseable: n8n's body parser refuses it before the node runs.
		const broken = await server.send(TRIGGER, '{"orderNo":', { headers: { 'Content-Type': 'application/json' } });
		expect(broken.status).toBe(422);
		expect(server.executions).toHaveLength(1);
	});

	it("emits a failed payout with HaiPay's reason", async () => {
		const server = await trigger.serve({ kind: 'payout', statuses: ['failed'] });
		const order = trigger.payout(server.url(TRIGGER));
		trigger.sandbox.control.settle(order.orderNo, 'failed', { errorMsg: 'account frozen' });

		expect(await lastAttempt(trigger.sandbox, order.orderNo)).toMatchObject({ acknowledged: true, attempt: 1 });
		await server.idle();
		expect(server.executions.map((execution) => execution.items[0].json)).toEqual([
			expect.objectContaining({ status: 3, statusLabel: 'failed', errorMsg: 'account frozen' }),
		]);
	});

	describe('repeated callbacks are emitted once', () => {
		it('when the SUCCESS answer is lost and the gateway retries', async () => {
			const server = await trigger.serve();
			const lossy = await relay(server.url(TRIGGER), (_body, index) => ({ loseAnswer: index === 0 }));
			trigger.relays.push(lossy);
			const order = trigger.payout(lossy.url);
			trigger.sandbox.control.settle(order.orderNo, 'success');

			const final = await lastAttempt(trigger.sandbox, order.orderNo);
			await server.idle();
			const attempts = attemptsOf(trigger.sandbox, order.orderNo);
			expect(attempts.map((attempt) => attempt.acknowledged)).toEqual([false, true]);
			expect(final).toMatchObject({ attempt: 2, response: 'SUCCESS' });
			expect(lossy.received).toHaveLength(2);
			expect(lossy.received[1]).toBe(lossy.received[0]);
			expect(server.calls.map((call) => [call.statusCode, call.responseBody])).toEqual([
				[200, 'SUCCESS'],
				[200, 'SUCCESS'],
			]);
			expect(server.executions).toHaveLength(1);
			expect(JSON.stringify(server.calls[1].logs)).toMatch(/repeated callback/);
		});

		it("when the gateway sends a settled order's callback again", async () => {
			const server = await trigger.serve();
			const order = trigger.payout(server.url(TRIGGER));
			trigger.sandbox.control.settle(order.orderNo, 'success');
			await lastAttempt(trigger.sandbox, order.orderNo);
			const job = trigger.sandbox.control.resendCallback(order.orderNo);
			await trigger.sandbox.waitForCallback((attempt) => attempt.jobId === job.id && attempt.last);
			await server.idle();
			expect(attemptsOf(trigger.sandbox, order.orderNo).map((attempt) => attempt.response)).toEqual([
				'SUCCESS',
				'SUCCESS',
			]);
			expect(server.executions).toHaveLength(1);
		});

		it('across a restart, from the static data n8n saved', async () => {
			let server = await trigger.serve();
			const order = trigger.payout(server.url(TRIGGER));
			trigger.sandbox.control.settle(order.orderNo, 'success');
			await lastAttempt(trigger.sandbox, order.orderNo);
			await server.idle();
			expect(server.executions).toHaveLength(1);
			const saved = server.staticData();
			// One result, saved as one record of the compact text: a digest of its key and its age.
			expect(server.staticData(TRIGGER).repeatMemory).toMatchObject({
				v: 2,
				entries: expect.stringMatching(/^[\w-]{14}[0-9a-z]{5}$/),
			});
			await server.close();

			server = await trigger.serve({}, APP_IDS.TZS, saved);
			const job = trigger.sandbox.control.resendCallback(order.orderNo, server.url(TRIGGER));
			const again = await trigger.sandbox.waitForCallback((attempt) => attempt.jobId === job.id && attempt.last);
			await server.idle();
			expect(again).toMatchObject({ acknowledged: true, response: 'SUCCESS' });
			expect(server.executions).toHaveLength(0);
		});
	});

	it('acknowledges a filtered-out callback without starting the workflow, so the gateway stops', async () => {
		const server = await trigger.serve({ statuses: ['failed'] });
		const order = trigger.payout(server.url(TRIGGER));
		trigger.sandbox.control.settle(order.orderNo, 'success');
		expect(await lastAttempt(trigger.sandbox, order.orderNo)).toMatchObject({ attempt: 1, acknowledged: true });
		await server.idle();
		expect(server.executions).toHaveLength(0);
	});

	it('registers nothing remotely: activation and deactivation only keep the URL in static data', async () => {
		const server = await trigger.serve();
		expect(server.activations.map((call) => [call.method, call.result])).toEqual([
			['checkExists', false],
			['create', true],
		]);
		expect(server.staticData(TRIGGER).notifyUrl).toBe(server.url(TRIGGER));
		expect(trigger.sandbox.requests.filter((entry) => JSON.stringify(entry).includes('webhook'))).toEqual([]);
	});

	it('hands the MIT card token of a first payment to the workflow, and the next charge uses it', async () => {
		const server = await trigger.serve({ kind: 'collection', statuses: ['success'] }, APP_IDS.USD);
		const notifyUrl = server.url(TRIGGER);
		const usd = { haipay: { type: 'haiPayApi', data: sandboxCredential(trigger.sandbox, APP_IDS.USD) } };
		const charge = (orderId: string, tokenID?: string) => ({
			nodeTypes: [HaiPay],
			credentials: usd,
			nodes: [
				{
					name: 'Charge',
					type: 'haiPay',
					parameters: {
						resource: 'collection',
						operation: 'create',
						orderId,
						amount: '49.00',
						// Version 4's names for USD's text fields (nodes/HaiPay/descriptions/fieldNames.ts).
						payTypeText: 'CARD',
						inBankCodeText: 'VISA',
						name: 'Ada Lovelace',
						phone: '15550001111',
						email: 'ada@example.com',
						clientIp: '203.0.113.7',
						partnerUserId: 'customer-42',
						additionalFields: tokenID === undefined ? { notifyUrl } : { notifyUrl, tokenID },
					},
				},
			],
		});

		const first = await runWorkflow(charge(`MIT-${Date.now()}`));
		expect(first.status).toBe('success');
		const firstOrderNo = String(first.jsonOf('Charge')[0].orderNo);
		trigger.sandbox.control.payCashier(firstOrderNo, 'pay');
		expect(await lastAttempt(trigger.sandbox, firstOrderNo)).toMatchObject({ acknowledged: true });
		await server.idle();
		expect(server.executions).toHaveLength(1);
		const paid = server.executions[0].items[0].json;
		expect(paid).toMatchObject({ orderNo: firstOrderNo, kind: 'collection', statusLabel: 'success', verified: true });
		expect(typeof paid.tokenID).toBe('string');
		expect(String(paid.tokenID)).not.toBe('');

		const next = await runWorkflow(charge(`MIT-${Date.now()}-2`, String(paid.tokenID)));
		expect(next.status).toBe('success');
		const nextOrderNo = String(next.jsonOf('Charge')[0].orderNo);
		trigger.sandbox.control.advanceAll();
		const settled = trigger.sandbox.control.order(nextOrderNo);
		if (settled !== undefined && settled.status !== 2) trigger.sandbox.control.settle(nextOrderNo, 'success');
		expect(await lastAttempt(trigger.sandbox, nextOrderNo)).toMatchObject({ acknowledged: true });
		await server.idle();
		expect(server.executions).toHaveLength(2);
		expect(server.executions[1].items[0].json).toMatchObject({ orderNo: nextOrderNo, tokenID: paid.tokenID });
	});
});
