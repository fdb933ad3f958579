/**
 * Forged callbacks sent to the HaiPay Trigger in n8n's webhook machinery by the sandbox gateway's own dispatcher,
 * with its retries: signed with another key, changed or added to in flight (a relay in the middle), carrying
 * another callback's signature, for another App ID, or met by a credential without HaiPay's public key. Each is
 * answered 401 on every attempt, starts nothing, and leaves no signature or secret in the log.
 */
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { startSandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { webhookServer } from '../harness';
import { sandboxCredential } from '../helpers/credentials';
import { TEST_KEYS } from '../helpers/keys';
import { relay } from './relay';
import { attemptsOf, lastAttempt, sandboxTrigger, SCHEDULE, TRIGGER } from './sandbox-trigger';

describe('HaiPay Trigger in n8n, with callbacks from the sandbox gateway', () => {
	const trigger = sandboxTrigger({ prefix: 'TRG', callbackTimeoutMs: 5_000 });

	describe('forged callbacks get 401 on every attempt and start nothing', () => {
		async function expectRefusedThroughout(orderNo: string): Promise<void> {
			const final = await lastAttempt(trigger.sandbox, orderNo);
			const attempts = attemptsOf(trigger.sandbox, orderNo);
			expect(final.acknowledged).toBe(false);
			expect(attempts).toHaveLength(SCHEDULE.length + 1);
			for (const attempt of attempts) {
				expect(attempt.httpStatus).toBe(401);
				expect(attempt.response).not.toBe('SUCCESS');
			}
			await trigger.server?.idle();
			expect(trigger.server?.executions).toHaveLength(0);
			const logged = JSON.stringify(trigger.server?.calls.map((call) => call.logs));
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
				const server = await trigger.serve();
				const order = impostor.control.createOrder({
					appId: APP_IDS.TZS,
					kind: 'payout',
					amount: '1500',
					notifyUrl: server.url(TRIGGER),
				});
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
			const server = await trigger.serve();
			const tamper = await relay(server.url(TRIGGER), (body) => ({
				body: JSON.stringify({ ...JSON.parse(body), amount: '150000' }),
			}));
			trigger.relays.push(tamper);
			const order = trigger.payout(tamper.url);
			trigger.sandbox.control.settle(order.orderNo, 'success');
			await expectRefusedThroughout(order.orderNo);
		});

		it('with a field added in flight', async () => {
			const server = await trigger.serve();
			const tamper = await relay(server.url(TRIGGER), (body) => ({
				body: JSON.stringify({ ...JSON.parse(body), tokenID: 'tok_injected' }),
			}));
			trigger.relays.push(tamper);
			const order = trigger.payout(tamper.url);
			trigger.sandbox.control.settle(order.orderNo, 'success');
			await expectRefusedThroughout(order.orderNo);
		});

		it('carrying the signature of another genuine callback', async () => {
			const server = await trigger.serve();
			const genuine = trigger.payout(server.url(TRIGGER));
			trigger.sandbox.control.settle(genuine.orderNo, 'success');
			const donor = await lastAttempt(trigger.sandbox, genuine.orderNo);
			await server.idle();
			expect(server.executions).toHaveLength(1);

			const tamper = await relay(server.url(TRIGGER), (body) => ({
				body: JSON.stringify({ ...JSON.parse(body), sign: donor.body.sign }),
			}));
			trigger.relays.push(tamper);
			const order = trigger.payout(tamper.url);
			trigger.sandbox.control.settle(order.orderNo, 'success');
			const final = await lastAttempt(trigger.sandbox, order.orderNo);
			expect(final.acknowledged).toBe(false);
			expect(attemptsOf(trigger.sandbox, order.orderNo).every((attempt) => attempt.httpStatus === 401)).toBe(true);
			await server.idle();
			expect(server.executions).toHaveLength(1);
		});

		it('for another App ID of the same merchant', async () => {
			const server = await trigger.serve({}, APP_IDS.TZS);
			const order = trigger.payout(server.url(TRIGGER), APP_IDS.ZAR);
			trigger.sandbox.control.settle(order.orderNo, 'success');
			await expectRefusedThroughout(order.orderNo);
		});
	});

	it('refuses every callback when the credential lacks the HaiPay public key', async () => {
		const server = await webhookServer({
			nodeTypes: [HaiPayTrigger],
			credentials: {
				haipay: {
					type: 'haiPayApi',
					data: { ...sandboxCredential(trigger.sandbox, APP_IDS.TZS), haipayPublicKey: '' },
				},
			},
			nodes: [{ name: TRIGGER, type: 'haiPayTrigger', parameters: {} }],
		});
		trigger.server = server;
		const order = trigger.payout(server.url(TRIGGER));
		trigger.sandbox.control.settle(order.orderNo, 'success');
		const final = await lastAttempt(trigger.sandbox, order.orderNo);
		expect(final.acknowledged).toBe(false);
		await server.idle();
		expect(server.executions).toHaveLength(0);
		expect(JSON.stringify(server.calls[0].logs)).toMatch(/no HaiPay public key/);
	});
});
