/**
 * The HaiPay Trigger in n8n's webhook machinery (n8n-core's WebhookContext behind a real HTTP server, static data
 * saved as n8n saves it, executions run with WorkflowExecute), receiving real callbacks from the sandbox gateway,
 * which signs them with its own implementation and retries until it reads SUCCESS.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { startSandbox, type CallbackAttempt, type Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { NO_OP_NODE_TYPE, runWorkflow, webhookServer, type WebhookServer } from '../harness';
import { sandboxCredential } from '../helpers/credentials';
import { TEST_KEYS } from '../helpers/keys';
import { relay, type Relay } from './relay';

const TRIGGER = 'HaiPay Trigger';

/** Retries come quickly here; HaiPay's own schedule is every 5 minutes. */
const SCHEDULE = [150, 150];

function credential(sandbox: Sandbox, appId: number): ICredentialDataDecryptedObject {
	return sandboxCredential(sandbox, appId);
}

async function serve(sandbox: Sandbox, parameters: INodeParameters = {}, appId = APP_IDS.TZS, staticData?: IDataObject) {
	return await webhookServer({
		nodeTypes: [HaiPayTrigger],
		credentials: { haipay: { type: 'haiPayApi', data: credential(sandbox, appId) } },
		nodes: [
			{ name: TRIGGER, type: 'haiPayTrigger', parameters },
			{ name: 'Next', type: NO_OP_NODE_TYPE },
		],
		staticData,
	});
}

let sequence = 0;

/** A payout order that calls back to `notifyUrl` once it is settled. */
function payout(sandbox: Sandbox, notifyUrl: string, appId = APP_IDS.TZS) {
	sequence += 1;
	return sandbox.control.createOrder({ appId, kind: 'payout', orderId: `TRG-${sequence}`, amount: '1500', notifyUrl });
}

/** The attempt after which the gateway stops: acknowledged, or its retries used up. */
async function lastAttempt(sandbox: Sandbox, orderNo: string): Promise<CallbackAttempt> {
	return await sandbox.waitForCallback((attempt) => attempt.orderNo === orderNo && attempt.last, 10_000);
}

function attemptsOf(sandbox: Sandbox, orderNo: string): CallbackAttempt[] {
	return sandbox.callbacks.filter((attempt) => attempt.orderNo === orderNo);
}

describe('HaiPay Trigger in n8n, with callbacks from the sandbox gateway', () => {
	let sandbox: Sandbox;
	let server: WebhookServer | undefined;
	let relays: Relay[] = [];

	beforeAll(async () => {
		sandbox = await startSandbox({ manual: true, callbackSchedule: SCHEDULE, callbackTimeoutMs: 5_000 });
	});
	afterEach(async () => {
		await server?.close();
		server = undefined;
		await Promise.all(relays.map(async (open) => await open.close()));
		relays = [];
	});
	afterAll(async () => {
		await sandbox.close();
	});

	it('starts exactly one execution for a genuine callback and answers SUCCESS', async () => {
		server = await serve(sandbox, { kind: 'payout' });
		const order = payout(sandbox, server.url(TRIGGER));
		sandbox.control.settle(order.orderNo, 'success');

		const attempt = await lastAttempt(sandbox, order.orderNo);
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
			statusLabel: 'success',
			statusGroup: 'success',
			kind: 'payout',
			verified: true,
			dedupKey: `no:${order.orderNo}|2`,
			ambiguousText: [],
			unknownFields: [],
		});
		expect(execution.items[0].json).not.toHaveProperty('sign');
		expect(execution.items[0].json).toMatchObject({ orderId: order.orderId, orderNo: order.orderNo, appId: 1001, status: 2 });
	});

	it('answers in plain text over HTTP: SUCCESS, or 401 with a reason', async () => {
		server = await serve(sandbox);
		const order = payout(sandbox, server.url(TRIGGER));
		sandbox.control.settle(order.orderNo, 'success');
		const genuine = (await lastAttempt(sandbox, order.orderNo)).body;

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

	it('emits a failed payout with HaiPay\'s reason', async () => {
		server = await serve(sandbox, { kind: 'payout', statuses: ['failed'] });
		const order = payout(sandbox, server.url(TRIGGER));
		sandbox.control.settle(order.orderNo, 'failed', { errorMsg: 'account frozen' });

		expect(await lastAttempt(sandbox, order.orderNo)).toMatchObject({ acknowledged: true, attempt: 1 });
		await server.idle();
		expect(server.executions.map((execution) => execution.items[0].json)).toEqual([
			expect.objectContaining({ status: 3, statusLabel: 'failed', errorMsg: 'account frozen' }),
		]);
	});

	describe('forged callbacks get 401 on every attempt and start nothing', () => {
		async function expectRefusedThroughout(orderNo: string): Promise<void> {
			const final = await lastAttempt(sandbox, orderNo);
			const attempts = attemptsOf(sandbox, orderNo);
			expect(final.acknowledged).toBe(false);
			expect(attempts).toHaveLength(SCHEDULE.length + 1);
			for (const attempt of attempts) {
				expect(attempt.httpStatus).toBe(401);
				expect(attempt.response).not.toBe('SUCCESS');
			}
			await server?.idle();
			expect(server?.executions).toHaveLength(0);
			const logged = JSON.stringify(server?.calls.map((call) => call.logs));
			expect(logged).toMatch(/refused a callback with 401/);
			expect(logged).not.toContain(String(final.body.sign).slice(0, 24));
			expect(logged).not.toContain('test-only-secret');
		}

		it('signed with another key (a gateway that is not HaiPay)', async () => {
			const impostor = await startSandbox({
				manual: true,
				callbackSchedule: SCHEDULE,
				platformPrivateKey: TEST_KEYS.otherPrivate,
			});
			try {
				server = await serve(sandbox);
				const order = impostor.control.createOrder({ appId: APP_IDS.TZS, kind: 'payout', amount: '1500', notifyUrl: server.url(TRIGGER) });
				impostor.control.settle(order.orderNo, 'success');
				const final = await lastAttempt(impostor, order.orderNo);
				expect(final.acknowledged).toBe(false);
				expect(attemptsOf(impostor, order.orderNo).map((attempt) => attempt.httpStatus)).toEqual([401, 401, 401]);
				await server.idle();
				expect(server.executions).toHaveLength(0);
				expect(JSON.stringify(server.calls.map((call) => call.logs))).toMatch(/signature does not match/);
			} finally {
				await impostor.close();
			}
		});

		it('with one field changed in flight', async () => {
			server = await serve(sandbox);
			const tamper = await relay(server.url(TRIGGER), (body) => ({
				body: JSON.stringify({ ...JSON.parse(body), amount: '150000' }),
			}));
			relays.push(tamper);
			const order = payout(sandbox, tamper.url);
			sandbox.control.settle(order.orderNo, 'success');
			await expectRefusedThroughout(order.orderNo);
		});

		it('with a field added in flight', async () => {
			server = await serve(sandbox);
			const tamper = await relay(server.url(TRIGGER), (body) => ({
				body: JSON.stringify({ ...JSON.parse(body), tokenID: 'tok_injected' }),
			}));
			relays.push(tamper);
			const order = payout(sandbox, tamper.url);
			sandbox.control.settle(order.orderNo, 'success');
			await expectRefusedThroughout(order.orderNo);
		});

		it('carrying the signature of another genuine callback', async () => {
			server = await serve(sandbox);
			const genuine = payout(sandbox, server.url(TRIGGER));
			sandbox.control.settle(genuine.orderNo, 'success');
			const donor = await lastAttempt(sandbox, genuine.orderNo);
			await server.idle();
			expect(server.executions).toHaveLength(1);

			const tamper = await relay(server.url(TRIGGER), (body) => ({
				body: JSON.stringify({ ...JSON.parse(body), sign: donor.body.sign }),
			}));
			relays.push(tamper);
			const order = payout(sandbox, tamper.url);
			sandbox.control.settle(order.orderNo, 'success');
			const final = await lastAttempt(sandbox, order.orderNo);
			expect(final.acknowledged).toBe(false);
			expect(attemptsOf(sandbox, order.orderNo).every((attempt) => attempt.httpStatus === 401)).toBe(true);
			await server.idle();
			expect(server.executions).toHaveLength(1);
		});

		it('for another App ID of the same merchant', async () => {
			server = await serve(sandbox, {}, APP_IDS.TZS);
			const order = payout(sandbox, server.url(TRIGGER), APP_IDS.ZAR);
			sandbox.control.settle(order.orderNo, 'success');
			await expectRefusedThroughout(order.orderNo);
		});
	});

	it('refuses every callback when the credential lacks the HaiPay public key', async () => {
		server = await webhookServer({
			nodeTypes: [HaiPayTrigger],
			credentials: { haipay: { type: 'haiPayApi', data: { ...credential(sandbox, APP_IDS.TZS), haipayPublicKey: '' } } },
			nodes: [{ name: TRIGGER, type: 'haiPayTrigger', parameters: {} }],
		});
		const order = payout(sandbox, server.url(TRIGGER));
		sandbox.control.settle(order.orderNo, 'success');
		const final = await lastAttempt(sandbox, order.orderNo);
		expect(final.acknowledged).toBe(false);
		await server.idle();
		expect(server.executions).toHaveLength(0);
		expect(JSON.stringify(server.calls[0].logs)).toMatch(/no HaiPay public key/);
	});

	describe('repeated callbacks are emitted once', () => {
		it('when the SUCCESS answer is lost and the gateway retries', async () => {
			server = await serve(sandbox);
			const lossy = await relay(server.url(TRIGGER), (_body, index) => ({ loseAnswer: index === 0 }));
			relays.push(lossy);
			const order = payout(sandbox, lossy.url);
			sandbox.control.settle(order.orderNo, 'success');

			const final = await lastAttempt(sandbox, order.orderNo);
			await server.idle();
			const attempts = attemptsOf(sandbox, order.orderNo);
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

		it('when the gateway sends a settled order\'s callback again', async () => {
			server = await serve(sandbox);
			const order = payout(sandbox, server.url(TRIGGER));
			sandbox.control.settle(order.orderNo, 'success');
			await lastAttempt(sandbox, order.orderNo);
			const job = sandbox.control.resendCallback(order.orderNo);
			await sandbox.waitForCallback((attempt) => attempt.jobId === job.id && attempt.last);
			await server.idle();
			expect(attemptsOf(sandbox, order.orderNo).map((attempt) => attempt.response)).toEqual(['SUCCESS', 'SUCCESS']);
			expect(server.executions).toHaveLength(1);
		});

		it('across a restart, from the static data n8n saved', async () => {
			server = await serve(sandbox);
			const order = payout(sandbox, server.url(TRIGGER));
			sandbox.control.settle(order.orderNo, 'success');
			await lastAttempt(sandbox, order.orderNo);
			await server.idle();
			expect(server.executions).toHaveLength(1);
			const saved = server.staticData();
			// One result, saved as one record of the compact text: a digest of its key and its age.
			expect(server.staticData(TRIGGER).repeatMemory).toMatchObject({ v: 2, entries: expect.stringMatching(/^[\w-]{14}[0-9a-z]{5}$/) });
			await server.close();

			server = await serve(sandbox, {}, APP_IDS.TZS, saved);
			const job = sandbox.control.resendCallback(order.orderNo, server.url(TRIGGER));
			const again = await sandbox.waitForCallback((attempt) => attempt.jobId === job.id && attempt.last);
			await server.idle();
			expect(again).toMatchObject({ acknowledged: true, response: 'SUCCESS' });
			expect(server.executions).toHaveLength(0);
		});
	});

	it('acknowledges a filtered-out callback without starting the workflow, so the gateway stops', async () => {
		server = await serve(sandbox, { statuses: ['failed'] });
		const order = payout(sandbox, server.url(TRIGGER));
		sandbox.control.settle(order.orderNo, 'success');
		expect(await lastAttempt(sandbox, order.orderNo)).toMatchObject({ attempt: 1, acknowledged: true });
		await server.idle();
		expect(server.executions).toHaveLength(0);
	});

	it('registers nothing remotely: activation and deactivation only keep the URL in static data', async () => {
		server = await serve(sandbox);
		expect(server.activations.map((call) => [call.method, call.result])).toEqual([
			['checkExists', false],
			['create', true],
		]);
		expect(server.staticData(TRIGGER).notifyUrl).toBe(server.url(TRIGGER));
		expect(sandbox.requests.filter((entry) => JSON.stringify(entry).includes('webhook'))).toEqual([]);
	});

	it('hands the MIT card token of a first payment to the workflow, and the next charge uses it', async () => {
		server = await serve(sandbox, { kind: 'collection', statuses: ['success'] }, APP_IDS.USD);
		const notifyUrl = server.url(TRIGGER);
		const usd = { haipay: { type: 'haiPayApi', data: credential(sandbox, APP_IDS.USD) } };
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
						payType: 'CARD',
						inBankCode: 'VISA',
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
		sandbox.control.payCashier(firstOrderNo, 'pay');
		expect(await lastAttempt(sandbox, firstOrderNo)).toMatchObject({ acknowledged: true });
		await server.idle();
		expect(server.executions).toHaveLength(1);
		const paid = server.executions[0].items[0].json;
		expect(paid).toMatchObject({ orderNo: firstOrderNo, kind: 'collection', statusLabel: 'success', verified: true });
		expect(typeof paid.tokenID).toBe('string');
		expect(String(paid.tokenID)).not.toBe('');

		const next = await runWorkflow(charge(`MIT-${Date.now()}-2`, String(paid.tokenID)));
		expect(next.status).toBe('success');
		const nextOrderNo = String(next.jsonOf('Charge')[0].orderNo);
		sandbox.control.advanceAll();
		const settled = sandbox.control.order(nextOrderNo);
		if (settled !== undefined && settled.status !== 2) sandbox.control.settle(nextOrderNo, 'success');
		expect(await lastAttempt(sandbox, nextOrderNo)).toMatchObject({ acknowledged: true });
		await server.idle();
		expect(server.executions).toHaveLength(2);
		expect(server.executions[1].items[0].json).toMatchObject({ orderNo: nextOrderNo, tokenID: paid.tokenID });
	});
});
