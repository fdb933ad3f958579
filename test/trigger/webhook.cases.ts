/**
 * The HaiPay Trigger answering callbacks: genuine ones, refused ones, and with verification turned off. Every
 * callback goes over real HTTP into n8n-core's webhook machinery (test/harness's webhookServer); each test reads
 * the HTTP reply, the execution it started (or that none did) and the call's log lines.
 */
import type { IDataObject } from 'n8n-workflow';

import { TEST_KEYS } from '../helpers/keys';
import {
	credentials,
	deliver,
	expectEmitted,
	expectNoSecrets,
	expectRejected,
	freshOrder,
	paidPayoutFields,
	payoutCallback,
	SECRET,
	sharedTriggers,
	signedByPlatform,
} from './callbacks';

const trigger = sharedTriggers();

describe('HaiPay Trigger: a genuine callback', () => {
	it('is answered with plain-text SUCCESS and emitted once, without its signature', async () => {
		const order = freshOrder();
		const body = signedByPlatform(payoutCallback(order));
		const outcome = await deliver(await trigger({ kind: 'payout' }), body);

		// n8n writes the answer once it has stored the execution: the node hands it SUCCESS and writes nothing, so
		// the answer carries n8n's Content-Security-Policy and the description's plain-text Content-Type.
		const json = expectEmitted(outcome);
		expect(outcome.reply.headers['content-type']).toBe('text/plain; charset=utf-8');
		expect(outcome.reply.headers['content-security-policy']).toBeDefined();
		expect(outcome.call.executionId).toBe(outcome.executions[0].call.executionId);
		expect(json).toEqual({
			appId: 1001,
			currency: 'TZS',
			orderId: order.orderId,
			orderNo: order.orderNo,
			amount: '1500.00',
			fee: '15.00',
			status: 2,
			payTime: '2024-05-01 10:20:30',
			errorMsg: '',
			...paidPayoutFields(order.orderNo),
		});
		expectNoSecrets(outcome.items, body.sign);
		expectNoSecrets(outcome.logs, body.sign);
	});

	it('emits a signed field no callback was known to carry, as received, names it, and logs each new name once', async () => {
		// HaiPay's callback page: parse callbacks as a generic map, because HaiPay may add fields.
		const server = await trigger();
		// Named to sort after every deciding field: one before currency or orderNo puts them in doubt (readings.cases.ts).
		const name = `zzChannelRef${Date.now()}`;
		const first = signedByPlatform(payoutCallback({ ...freshOrder(), [name]: 'X-9', extra: { nested: true } }));
		const outcome = await deliver(server, first);
		expect(expectEmitted(outcome)).toMatchObject({
			[name]: 'X-9',
			extra: { nested: true },
			unknownFields: [name, 'extra'],
			verified: true,
		});
		expect(outcome.json).not.toHaveProperty('confirmed');
		const announced = (logs: typeof outcome.logs) =>
			logs.filter((line) => line.level === 'warn' && line.message.includes(name));
		expect(announced(outcome.logs)).toHaveLength(1);
		expect(announced(outcome.logs)[0].message).toMatch(/not known to carry.*unknownFields/);
		const second = await deliver(server, signedByPlatform(payoutCallback({ ...freshOrder(), [name]: 'X-10' })));
		expect(expectEmitted(second).unknownFields).toEqual([name]);
		expect(announced(second.logs)).toHaveLength(0);
	});

	it('accepts an appId sent as a numeric string', async () => {
		const body = signedByPlatform(payoutCallback({ ...freshOrder(), appId: '1001' }));
		expect(expectEmitted(await deliver(await trigger(), body)).verified).toBe(true);
	});

	it('reads JSON sent as text/plain, where n8n hands the body over as a string', async () => {
		const order = freshOrder();
		const text = JSON.stringify(signedByPlatform(payoutCallback(order)));
		const outcome = await deliver(await trigger(), text, { 'Content-Type': 'text/plain' });
		expect(expectEmitted(outcome).orderNo).toBe(order.orderNo);
	});

	it('does not let a body field overwrite verified, kind, statusLabel or the lists of names', async () => {
		const fields = {
			verified: 'yes',
			kind: 'refund',
			statusLabel: 'paid',
			unknownFields: 'none',
		};
		const body = signedByPlatform(payoutCallback({ ...freshOrder(), ...fields }));
		for (const verifySignature of [true, false]) {
			const json = expectEmitted(await deliver(await trigger({ kind: 'payout', verifySignature }), body));
			expect(json).toMatchObject({
				verified: verifySignature,
				kind: 'payout',
				statusLabel: 'success',
				ambiguousText: [],
			});
			expect(json.unknownFields).toEqual(Object.keys(fields));
		}
	});

	it('gives a failed payout its label and keeps errorMsg', async () => {
		const body = signedByPlatform(
			payoutCallback({ ...freshOrder(), status: 3, errorMsg: 'account frozen', payTime: '' }),
		);
		const json = expectEmitted(await deliver(await trigger({ kind: 'payout' }), body));
		expect(json).toMatchObject({ status: 3, statusLabel: 'failed', statusGroup: 'failed', errorMsg: 'account frozen' });
	});

	it('carries dedupKey, the same for every delivery of one result: orderNo and status, orderId without orderNo, a hash of the body without either', async () => {
		const server = await trigger({ options: { deduplicate: false } });
		const keyOf = async (body: Record<string, unknown>) =>
			expectEmitted(await deliver(server, signedByPlatform(body))).dedupKey;
		const order = freshOrder();
		expect(await keyOf(payoutCallback({ ...order, status: 3, errorMsg: 'account frozen', payTime: '' }))).toBe(
			`no:${order.orderNo}|3`,
		);
		expect(await keyOf(payoutCallback({ ...order, orderNo: '' }))).toBe(`id:${order.orderId}|2`);
		const anonymous = payoutCallback({ orderNo: '', orderId: '' });
		const first = await keyOf(anonymous);
		expect(first).toMatch(/^body:[0-9a-f]{16}$/);
		expect(await keyOf(anonymous)).toBe(first);
		expect(await keyOf({ ...anonymous, amount: '1501.00' })).not.toBe(first);
	});
});

describe('HaiPay Trigger: refused callbacks (401, nothing starts)', () => {
	it('refuses a callback without a signature', async () => {
		expectRejected(await deliver(await trigger(), payoutCallback()), /signature is missing/);
	});

	it('refuses a callback signed with another key', async () => {
		const body = signedByPlatform(payoutCallback(), SECRET, TEST_KEYS.otherPrivate);
		const outcome = await deliver(await trigger(), body);
		expectRejected(outcome, /signature does not match/);
		expectNoSecrets(outcome.logs, body.sign);
		expect(outcome.reply.text).not.toContain(String(body.sign).slice(0, 20));
	});

	it('refuses a callback signed with another secret', async () => {
		expectRejected(
			await deliver(await trigger(), signedByPlatform(payoutCallback(), 'another-secret')),
			/signature does not match/,
		);
	});

	it('refuses a callback with one field changed', async () => {
		const body = { ...signedByPlatform(payoutCallback({ status: 3 })), status: 2 };
		expectRejected(await deliver(await trigger(), body), /signature does not match/);
	});

	it('refuses a callback with a field added', async () => {
		const body = { ...signedByPlatform(payoutCallback()), bonus: '1' };
		expectRejected(await deliver(await trigger(), body), /signature does not match/);
	});

	it('refuses a callback that carries the signature of another body', async () => {
		const other = signedByPlatform(payoutCallback({ orderId: 'PO-2', orderNo: 'HP2024000002' }));
		expectRejected(
			await deliver(await trigger(), { ...payoutCallback(), sign: other.sign }),
			/signature does not match/,
		);
	});

	it('refuses a body that is not JSON, a JSON array, or empty', async () => {
		const server = await trigger();
		expectRejected(
			await deliver(server, 'orderId=PO-1&status=2', { 'Content-Type': 'application/x-www-form-urlencoded' }),
			/not a JSON object/,
		);
		expectRejected(
			await deliver(server, '[{"orderId":"PO-1"}]', { 'Content-Type': 'application/json' }),
			/not a JSON object/,
		);
		// n8n itself answers malformed application/json with 422 before any node runs; as text it reaches the node.
		expectRejected(await deliver(server, '{"orderId":', { 'Content-Type': 'text/plain' }), /not a JSON object/);
		expectRejected(await deliver(server, undefined), /not a JSON object/);
	});

	it('refuses a genuine callback of another appId', async () => {
		const outcome = await deliver(await trigger(), signedByPlatform(payoutCallback({ appId: 1002 })));
		expectRejected(outcome, /appId is not the credential's App ID 1001/);
		expect(outcome.reply.text).toBe('Rejected: appId does not match');
	});

	it('refuses a callback without an appId', async () => {
		expectRejected(await deliver(await trigger(), signedByPlatform(payoutCallback({ appId: undefined }))), /appId/);
	});

	it('refuses everything, and says why in the log, when the credential has no HaiPay public key', async () => {
		const outcome = await deliver(
			await trigger({}, credentials({ haipayPublicKey: '' })),
			signedByPlatform(payoutCallback()),
		);
		expectRejected(outcome, /no HaiPay public key/);
		expect(outcome.reply.text).toBe('Rejected: callback cannot be checked');
	});

	it('refuses everything when the HaiPay public key cannot be read, without echoing the key', async () => {
		const garbage = 'not-a-key-but-long-enough-to-notice-0123456789';
		const outcome = await deliver(
			await trigger({}, credentials({ haipayPublicKey: garbage })),
			signedByPlatform(payoutCallback()),
		);
		expectRejected(outcome, /could not be read/);
		expect(JSON.stringify(outcome.logs)).not.toContain(garbage);
		expect(outcome.reply.text).not.toContain(garbage);
	});

	it('refuses when the credential has no App ID to compare with', async () => {
		expectRejected(
			await deliver(await trigger({}, credentials({ appId: 0 })), signedByPlatform(payoutCallback())),
			/no App ID/,
		);
	});

	it('logs identifying fields of a refused callback, never its signature or the keys', async () => {
		const body = signedByPlatform(payoutCallback(), SECRET, TEST_KEYS.otherPrivate);
		const outcome = await deliver(await trigger(), body);
		const warning = outcome.logs.find((line) => line.level === 'warn');
		expect(warning?.metadata).toMatchObject({ orderId: 'PO-1', orderNo: 'HP2024000001', reason: 'badSignature' });
		expect(String((warning?.metadata as IDataObject).fields)).toContain('sign');
		expectNoSecrets(outcome.logs, body.sign);
	});
});

describe('HaiPay Trigger: verification turned off (debugging only)', () => {
	const params = { verifySignature: false };

	it('emits an unsigned callback marked verified: false and warns', async () => {
		const order = freshOrder();
		const outcome = await deliver(await trigger(params), payoutCallback(order));
		expect(expectEmitted(outcome)).toMatchObject({ orderId: order.orderId, verified: false });
		expect(
			outcome.logs.some((line) => line.level === 'warn' && /without checking its signature/.test(line.message)),
		).toBe(true);
	});

	it('still drops the sign field from the item', async () => {
		const body = signedByPlatform(payoutCallback(freshOrder()), SECRET, TEST_KEYS.otherPrivate);
		expect(expectEmitted(await deliver(await trigger(params), body))).not.toHaveProperty('sign');
	});

	it('still refuses another appId and a body that is not JSON', async () => {
		const server = await trigger(params);
		expectRejected(await deliver(server, payoutCallback({ ...freshOrder(), appId: 7 })), /appId/);
		expectRejected(await deliver(server, 'hello', { 'Content-Type': 'text/plain' }), /not a JSON object/);
	});

	it('does not need a HaiPay public key', async () => {
		const server = await trigger(params, credentials({ haipayPublicKey: '' }));
		expect(expectEmitted(await deliver(server, payoutCallback(freshOrder()))).verified).toBe(false);
	});
});
