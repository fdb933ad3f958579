/**
 * Callbacks whose free text could be cut into another field under the same signature (`errorMsg` holding
 * `&name=value`): a genuine one runs once, naming the field as ambiguous; its re-split is at most the same result
 * again, which repeat detection drops, or with Confirm With HaiPay on, HaiPay's answer stands in for the callback's
 * fields but never for the node's own. Genuine callbacks come from the sandbox gateway's own dispatcher.
 */
import type { INodeParameters } from 'n8n-workflow';

import { canonicalString } from '../../nodes/shared/signing/canonical';
import { startSandbox, type CallbackAttempt, type Sandbox } from '../../sandbox';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import type { WebhookServer } from '../harness';
import { sandboxCredential } from '../helpers/credentials';
import { withSignature } from '../helpers/signing';
import {
	credentialFor,
	nextId,
	outcomeTrigger,
	payoutCallback,
	PLATFORM_KEY,
	SECRET,
	signedAnswer,
	TRIGGER,
	type Fields,
} from './outcome-setup';

describe('HaiPay Trigger: outcomes in doubt', () => {
	const trigger = outcomeTrigger();

	describe('11. re-split fields', () => {
		let sandbox: Sandbox;
		beforeAll(async () => {
			sandbox = await startSandbox({ manual: true, callbackSchedule: [150, 150], callbackTimeoutMs: 10_000 });
		});
		afterEach(() => sandbox.control.clearFaults());
		afterAll(async () => {
			await sandbox.close();
		});

		async function serveSandbox(parameters: INodeParameters): Promise<WebhookServer> {
			return await trigger.serve({ kind: 'payout', ...parameters }, sandboxCredential(sandbox, APP_IDS.TZS));
		}

		/** A failed payout in the sandbox whose genuine callback, with `errorMsg`, went to `url`; its last attempt. */
		async function failedPayout(errorMsg: string, url: string): Promise<CallbackAttempt> {
			const order = sandbox.control.createOrder({
				appId: APP_IDS.TZS,
				kind: 'payout',
				orderId: nextId('RS'),
				amount: '1500',
				notifyUrl: url,
			});
			sandbox.control.settle(order.orderNo, 'failed', { errorMsg });
			return await sandbox.waitForCallback((attempt) => attempt.orderNo === order.orderNo && attempt.last, 10_000);
		}

		/** The same signature over `errorMsg` cut at its `&`, the rest sent as a field of its own. */
		function resplit(genuine: Fields): Fields {
			const [head, tail] = String(genuine.errorMsg).split(/&(.*)/s);
			const [name, value] = tail.split(/=(.*)/s);
			const body: Fields = { ...genuine, errorMsg: head, [name]: value };
			const secret = String(sandboxCredential(sandbox, APP_IDS.TZS).secretKey);
			expect(canonicalString(body, secret)).toBe(canonicalString(genuine, secret));
			return body;
		}

		it('Confirm off: a genuine callback whose errorMsg could end in another field runs once, naming errorMsg; its re-split is that result again', async () => {
			await serveSandbox({});
			const genuine = await failedPayout('card declined&errorNote=call the bank', trigger.server.url(TRIGGER));
			await trigger.server.idle();
			expect(
				sandbox.callbacks.filter((each) => each.orderNo === genuine.orderNo).map((each) => each.httpStatus),
			).toEqual([200]);
			expect(trigger.server.executions[0].items[0].json).toMatchObject({
				errorMsg: 'card declined&errorNote=call the bank',
				ambiguousText: ['errorMsg'],
				unknownFields: [],
			});
			expect(trigger.server.executions[0].items[0].json).not.toHaveProperty('confirmed');

			const body = resplit(genuine.body);
			expect(body).toMatchObject({ errorMsg: 'card declined', errorNote: 'call the bank', sign: genuine.body.sign });
			// The re-split changes no order, status, amount or currency: the same result, which repeat detection drops.
			expect(await trigger.server.send(TRIGGER, body)).toMatchObject({ status: 200, text: 'SUCCESS' });
			expect(trigger.server.executions).toHaveLength(1);
			expect(trigger.logs()).toMatch(/a repeated callback/);
		});

		it("Confirm on: the re-split is confirmed by the sandbox and emitted with the fields of HaiPay's answer", async () => {
			const genuine = await failedPayout('card declined&errorNote=call the bank', 'http://127.0.0.1:9/unused');
			await serveSandbox({ options: { confirmWithHaiPay: true } });
			const reply = await trigger.server.send(TRIGGER, resplit(genuine.body));
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(trigger.server.executions).toHaveLength(1);
			expect(trigger.server.executions[0].items[0].json).toMatchObject({
				orderId: genuine.body.orderId,
				orderNo: genuine.orderNo,
				status: 3,
				errorMsg: 'card declined&errorNote=call the bank',
				unknownFields: ['errorNote'],
				confirmed: true,
				verified: true,
			});
			const queried = sandbox.requests
				.filter((entry) => JSON.stringify(entry).includes(genuine.orderNo))
				.map((entry) => entry.path);
			expect(queried).toContain('/tzs/pay/query');
		});

		it('a callback with only known fields is unaffected: emitted unconfirmed with Confirm off', async () => {
			await serveSandbox({});
			const order = sandbox.control.createOrder({
				appId: APP_IDS.TZS,
				kind: 'payout',
				orderId: nextId('KN'),
				amount: '1500',
				notifyUrl: trigger.server.url(TRIGGER),
			});
			sandbox.control.settle(order.orderNo, 'success');
			const attempt = await sandbox.waitForCallback((each) => each.orderNo === order.orderNo && each.last, 10_000);
			await trigger.server.idle();
			expect(attempt).toMatchObject({ attempt: 1, acknowledged: true });
			expect(trigger.server.executions).toHaveLength(1);
			expect(trigger.server.executions[0].items[0].json).not.toHaveProperty('confirmed');

			// Every listed field at once (a collection's token and actualAmount), and an empty unlisted one, which is unsigned.
			await trigger.server.close();
			await trigger.serve({ kind: 'collection' }, credentialFor('http://127.0.0.1:9', APP_IDS.USD, 'USD'));
			const collection = callbackBody('collection', { orderId: nextId('KC'), actualAmount: '9.70', remark: '' });
			const reply = await trigger.send(collection);
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(trigger.server.executions[0].items[0].json).toMatchObject({
				tokenID: 'tok_abc',
				actualAmount: '9.70',
				remark: '',
				verified: true,
			});
		});

		it.each(['errorMsg2', 'errorMsg ', 'feE', 'errorMsgs'])(
			'attack: a re-split into %j, named like a known field, is at most the same result again with a field added',
			async (name) => {
				await trigger.serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
				const genuine = payoutCallback({ status: 3, payTime: undefined, errorMsg: `declined&${name}=0.00` });
				const signed = withSignature(genuine, SECRET, PLATFORM_KEY);
				const split = { ...signed, errorMsg: 'declined', [name]: '0.00' };
				expect(canonicalString(split, SECRET)).toBe(canonicalString(signed, SECRET));
				expect((await trigger.server.send(TRIGGER, split)).text).toBe('SUCCESS');
				expect((await trigger.server.send(TRIGGER, signed)).text).toBe('SUCCESS');
				expect(trigger.server.executions).toHaveLength(1);
				expect(trigger.server.executions[0].items[0].json).toMatchObject({
					orderNo: genuine.orderNo,
					status: 3,
					amount: genuine.amount,
					unknownFields: [name],
				});
			},
		);

		it('attack: an answer with a second status beside its own (statusLabel "paid") confirms nothing: 503, no run', async () => {
			const body = payoutCallback({ status: 3, payTime: undefined });
			const answer = {
				orderId: body.orderId,
				orderNo: body.orderNo,
				amount: '1500.00',
				status: 3,
				statusLabel: 'paid',
			};
			await trigger.confirmingAgainst(signedAnswer(answer));
			const reply = await trigger.send(body);
			expect(reply.status).toBe(503);
			expect(trigger.server.executions).toHaveLength(0);
		});

		it("attack: with Confirm on, HaiPay's answer stands in for the callback's fields, never for the node's own", async () => {
			const body = payoutCallback({ status: 3, payTime: undefined, errorMsg: 'declined&errorNote=x' });
			await trigger.confirmingAgainst(
				signedAnswer({
					orderId: body.orderId,
					orderNo: body.orderNo,
					amount: '1500.00',
					status: 3,
					fee: '9.00',
					kind: 'refund',
					verified: 'no',
				}),
			);
			const reply = await trigger.send(body);
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(trigger.server.executions[0].items[0].json).toMatchObject({
				fee: '9.00',
				kind: 'payout',
				verified: true,
				statusLabel: 'failed',
				confirmed: true,
				ambiguousText: ['errorMsg'],
			});
		});

		it('attack: a re-split into the known field fee (of a callback sent without one) cannot change the order, its status or amount', async () => {
			await trigger.serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
			const genuine = payoutCallback({ status: 3, payTime: undefined, fee: undefined, errorMsg: 'declined&fee=0.00' });
			const signed = withSignature(genuine, SECRET, PLATFORM_KEY);
			const split = { ...signed, errorMsg: 'declined', fee: '0.00' };
			expect(canonicalString(split, SECRET)).toBe(canonicalString(signed, SECRET));
			const reply = await trigger.server.send(TRIGGER, split);
			// Indistinguishable from a callback HaiPay could send: the README names this bound.
			expect(reply.text).toBe('SUCCESS');
			expect(trigger.server.executions[0].items[0].json).toMatchObject({
				orderId: genuine.orderId,
				orderNo: genuine.orderNo,
				amount: genuine.amount,
				status: 3,
			});
		});
	});
});
