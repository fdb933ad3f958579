import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { bareBase64, TEST_KEYS } from '../helpers/keys';
import {
	credentials,
	jsonCall,
	mockWebhook,
	payoutCallback,
	SECRET,
	signedByPlatform,
	type Call,
	type Logged,
} from './mock-webhook';

const node = new HaiPayTrigger();
/** One result in the repeat memory's saved text: a 14-character digest of its key and a 5-character age. */
const RECORD_LENGTH = 19;

async function deliver(call: Call) {
	const mock = mockWebhook(call);
	const result: IWebhookResponseData = await node.webhook.call(mock.context);
	const items = result.workflowData?.[0] ?? [];
	return { ...mock, result, items, json: items[0]?.json as IDataObject | undefined };
}

/** Material that must never appear in a log line or an output item. */
function secretsOf(sign?: unknown): string[] {
	const keyChunks = [TEST_KEYS.platformPublic, TEST_KEYS.platformPrivate, TEST_KEYS.merchantPkcs8].map((pem) =>
		bareBase64(pem).slice(60, 100),
	);
	return [SECRET, ...keyChunks, ...(typeof sign === 'string' ? [sign, sign.slice(0, 40)] : [])];
}

function expectNoSecrets(where: unknown, sign?: unknown): void {
	const text = JSON.stringify(where);
	for (const secret of secretsOf(sign)) expect(text).not.toContain(secret);
}

function expectRejected(outcome: Awaited<ReturnType<typeof deliver>>, logPart: RegExp): void {
	expect(outcome.answer.statusCode).toBe(401);
	expect(outcome.answer.headers['content-type']).toMatch(/^text\/plain/);
	expect(outcome.answer.body).not.toBe('SUCCESS');
	expect(outcome.result.workflowData).toBeUndefined();
	expect(outcome.result.noWebhookResponse).toBe(true);
	const warning = outcome.logs.find((line: Logged) => line.level === 'warn');
	expect(warning?.message).toMatch(logPart);
}

function expectAcknowledgedOnly(outcome: Awaited<ReturnType<typeof deliver>>): void {
	expect(outcome.answer.statusCode).toBe(200);
	expect(outcome.answer.body).toBe('SUCCESS');
	expect(outcome.result.workflowData).toBeUndefined();
}

describe('HaiPay Trigger: a genuine callback', () => {
	it('is answered with plain-text SUCCESS and emitted once, without its signature', async () => {
		const body = signedByPlatform(payoutCallback());
		const outcome = await deliver(jsonCall(body, { params: { kind: 'payout' } }));

		// n8n writes the answer once it has stored the execution: the node hands it SUCCESS and writes nothing.
		expect(outcome.result.webhookResponse).toBe('SUCCESS');
		expect(outcome.result.noWebhookResponse).toBeUndefined();
		expect(outcome.answer).toEqual({ statusCode: 200, headers: {} });
		expect(outcome.items).toHaveLength(1);
		expect(outcome.json).toEqual({
			appId: 1001,
			currency: 'TZS',
			orderId: 'PO-1',
			orderNo: 'HP2024000001',
			amount: '1500.00',
			fee: '15.00',
			status: 2,
			payTime: '2024-05-01 10:20:30',
			errorMsg: '',
			statusLabel: 'success',
			statusGroup: 'success',
			kind: 'payout',
			verified: true,
			dedupKey: 'no:HP2024000001|2',
		});
		expectNoSecrets(outcome.items, body.sign);
		expectNoSecrets(outcome.logs, body.sign);
	});

	it('refuses a signed field no callback is known to carry while Confirm With HaiPay is off: it could be another field split in two', async () => {
		const body = signedByPlatform(payoutCallback({ channelRef: 'X-9', extra: { nested: true } }));
		const outcome = await deliver(jsonCall(body));
		expect(outcome.answer).toMatchObject({ statusCode: 422, body: 'Rejected: the signed fields are ambiguous' });
		expect(outcome.result.workflowData).toBeUndefined();
		const warning = outcome.logs.find((line: Logged) => line.level === 'warn');
		expect(warning?.message).toMatch(/the field channelRef is not one HaiPay's callbacks are known to carry.*turn on Confirm With HaiPay/);
	});

	it('accepts an appId sent as a numeric string', async () => {
		const body = signedByPlatform(payoutCallback({ appId: '1001' }));
		const { json } = await deliver(jsonCall(body));
		expect(json?.verified).toBe(true);
	});

	it('reads JSON sent as text/plain, where n8n hands the body over as a string', async () => {
		const body = signedByPlatform(payoutCallback());
		const text = JSON.stringify(body);
		const { json, result } = await deliver({ raw: text, parsed: text });
		expect(result.webhookResponse).toBe('SUCCESS');
		expect(json?.orderNo).toBe('HP2024000001');
	});

	it('works from n8n\'s parsed body when the raw bytes are not kept', async () => {
		const body = signedByPlatform(payoutCallback());
		const { json } = await deliver({ parsed: body });
		expect(json?.verified).toBe(true);
	});

	it('does not let a body field overwrite verified, kind or statusLabel', async () => {
		const body = signedByPlatform(payoutCallback({ verified: 'yes', kind: 'refund', statusLabel: 'paid' }));
		// No callback carries these names: refused while unconfirmed, and never in place of the node's own fields.
		expect((await deliver(jsonCall(body, { params: { kind: 'payout' } }))).answer.statusCode).toBe(422);
		const { json } = await deliver(jsonCall(body, { params: { kind: 'payout', verifySignature: false } }));
		expect(json).toMatchObject({ verified: false, kind: 'payout', statusLabel: 'success' });
	});

	it('gives a failed payout its label and keeps errorMsg', async () => {
		const body = signedByPlatform(payoutCallback({ status: 3, errorMsg: 'account frozen', payTime: '' }));
		const { json } = await deliver(jsonCall(body, { params: { kind: 'payout' } }));
		expect(json).toMatchObject({ status: 3, statusLabel: 'failed', statusGroup: 'failed', errorMsg: 'account frozen' });
	});

	it('carries dedupKey, the same for every delivery of one result: orderNo and status, orderId without orderNo, a hash of the body without either', async () => {
		const keyOf = async (body: Record<string, unknown>) => (await deliver(jsonCall(signedByPlatform(body), { params: { options: { deduplicate: false } } }))).json?.dedupKey;
		expect(await keyOf(payoutCallback({ status: 3, errorMsg: 'account frozen', payTime: '' }))).toBe('no:HP2024000001|3');
		expect(await keyOf(payoutCallback({ orderNo: '' }))).toBe('id:PO-1|2');
		const anonymous = payoutCallback({ orderNo: '', orderId: '' });
		const first = await keyOf(anonymous);
		expect(first).toMatch(/^body:[0-9a-f]{16}$/);
		expect(await keyOf(anonymous)).toBe(first);
		expect(await keyOf({ ...anonymous, amount: '1501.00' })).not.toBe(first);
	});
});

describe('HaiPay Trigger: refused callbacks (401, nothing starts)', () => {
	it('refuses a callback without a signature', async () => {
		const outcome = await deliver(jsonCall(payoutCallback()));
		expectRejected(outcome, /signature is missing/);
	});

	it('refuses a callback signed with another key', async () => {
		const body = signedByPlatform(payoutCallback(), SECRET, TEST_KEYS.otherPrivate);
		const outcome = await deliver(jsonCall(body));
		expectRejected(outcome, /signature does not match/);
		expectNoSecrets(outcome.logs, body.sign);
		expect(outcome.answer.body).not.toContain(String(body.sign).slice(0, 20));
	});

	it('refuses a callback signed with another secret', async () => {
		const outcome = await deliver(jsonCall(signedByPlatform(payoutCallback(), 'another-secret')));
		expectRejected(outcome, /signature does not match/);
	});

	it('refuses a callback with one field changed', async () => {
		const body = { ...signedByPlatform(payoutCallback({ status: 3 })), status: 2 };
		expectRejected(await deliver(jsonCall(body)), /signature does not match/);
	});

	it('refuses a callback with a field added', async () => {
		const body = { ...signedByPlatform(payoutCallback()), bonus: '1' };
		expectRejected(await deliver(jsonCall(body)), /signature does not match/);
	});

	it('refuses a callback that carries the signature of another body', async () => {
		const other = signedByPlatform(payoutCallback({ orderId: 'PO-2', orderNo: 'HP2024000002' }));
		const body = { ...payoutCallback(), sign: other.sign };
		expectRejected(await deliver(jsonCall(body)), /signature does not match/);
	});

	it('refuses a body that is not JSON, a JSON array, or empty', async () => {
		expectRejected(await deliver({ raw: 'orderId=PO-1&status=2', parsed: { orderId: 'PO-1' } }), /not a JSON object/);
		expectRejected(await deliver({ raw: '[{"orderId":"PO-1"}]', parsed: [{ orderId: 'PO-1' }] }), /not a JSON object/);
		expectRejected(await deliver({ raw: '{"orderId":', parsed: {} }), /not a JSON object/);
		expectRejected(await deliver({ parsed: {} }), /not a JSON object/);
	});

	it('refuses a genuine callback of another appId', async () => {
		const body = signedByPlatform(payoutCallback({ appId: 1002 }));
		const outcome = await deliver(jsonCall(body));
		expectRejected(outcome, /appId is not the credential's App ID 1001/);
		expect(outcome.answer.body).toBe('Rejected: appId does not match');
	});

	it('refuses a callback without an appId', async () => {
		const body = signedByPlatform(payoutCallback({ appId: undefined }));
		expectRejected(await deliver(jsonCall(body)), /appId/);
	});

	it('refuses everything, and says why in the log, when the credential has no HaiPay public key', async () => {
		const body = signedByPlatform(payoutCallback());
		const outcome = await deliver(jsonCall(body, { credentials: credentials({ haipayPublicKey: '' }) }));
		expectRejected(outcome, /no HaiPay public key/);
		expect(outcome.answer.body).toBe('Rejected: callback cannot be checked');
	});

	it('refuses everything when the HaiPay public key cannot be read, without echoing the key', async () => {
		const garbage = 'not-a-key-but-long-enough-to-notice-0123456789';
		const body = signedByPlatform(payoutCallback());
		const outcome = await deliver(jsonCall(body, { credentials: credentials({ haipayPublicKey: garbage }) }));
		expectRejected(outcome, /could not be read/);
		expect(JSON.stringify(outcome.logs)).not.toContain(garbage);
	});

	it('refuses when the credential has no App ID to compare with', async () => {
		const body = signedByPlatform(payoutCallback());
		expectRejected(await deliver(jsonCall(body, { credentials: credentials({ appId: 0 }) })), /no App ID/);
	});

	it('logs identifying fields of a refused callback, never its signature or the keys', async () => {
		const body = signedByPlatform(payoutCallback(), SECRET, TEST_KEYS.otherPrivate);
		const outcome = await deliver(jsonCall(body));
		const warning = outcome.logs.find((line) => line.level === 'warn');
		expect(warning?.meta).toMatchObject({ orderId: 'PO-1', orderNo: 'HP2024000001', reason: 'badSignature' });
		expect(String((warning?.meta as IDataObject).fields)).toContain('sign');
		expectNoSecrets(outcome.logs, body.sign);
	});
});

describe('HaiPay Trigger: verification turned off (debugging only)', () => {
	it('emits an unsigned callback marked verified: false and warns', async () => {
		const outcome = await deliver(jsonCall(payoutCallback(), { params: { verifySignature: false } }));
		expect(outcome.result.webhookResponse).toBe('SUCCESS');
		expect(outcome.json).toMatchObject({ orderId: 'PO-1', verified: false });
		expect(outcome.logs.some((line) => line.level === 'warn' && /without checking its signature/.test(line.message))).toBe(
			true,
		);
	});

	it('still drops the sign field from the item', async () => {
		const body = signedByPlatform(payoutCallback(), SECRET, TEST_KEYS.otherPrivate);
		const { json } = await deliver(jsonCall(body, { params: { verifySignature: false } }));
		expect(json).not.toHaveProperty('sign');
	});

	it('still refuses another appId and a body that is not JSON', async () => {
		const params = { verifySignature: false };
		expectRejected(await deliver(jsonCall(payoutCallback({ appId: 7 }), { params })), /appId/);
		expectRejected(await deliver({ raw: 'hello', parsed: 'hello', params }), /not a JSON object/);
	});

	it('does not need a HaiPay public key', async () => {
		const call = jsonCall(payoutCallback(), {
			params: { verifySignature: false },
			credentials: credentials({ haipayPublicKey: '' }),
		});
		expect((await deliver(call)).json?.verified).toBe(false);
	});
});

describe('HaiPay Trigger: filters acknowledge without starting the workflow', () => {
	const statuses = async (selected: string[], status: number) =>
		await deliver(jsonCall(signedByPlatform(payoutCallback({ status })), { params: { statuses: selected } }));

	it('passes only the selected statuses', async () => {
		expect((await statuses(['success'], 2)).items).toHaveLength(1);
		expectAcknowledgedOnly(await statuses(['success'], 3));
		expect((await statuses(['failed'], 3)).items).toHaveLength(1);
		expect((await statuses(['success', 'failed'], 3)).items).toHaveLength(1);
		expect((await statuses(['partial'], 4)).items).toHaveLength(1);
		expect((await statuses(['partial'], 5)).items).toHaveLength(1);
		expectAcknowledgedOnly(await statuses(['partial'], 2));
		expect((await statuses(['other'], 1)).items).toHaveLength(1);
		expect((await statuses(['other'], -1)).items).toHaveLength(1);
		expectAcknowledgedOnly(await statuses(['other'], 2));
	});

	it('passes everything with "any", alone or with others, and with an empty selection', async () => {
		for (const status of [0, 1, 2, 3, 4, 5, -1, 9]) {
			expect((await statuses(['any'], status)).items).toHaveLength(1);
			expect((await statuses(['success', 'any'], status)).items).toHaveLength(1);
			expect((await statuses([], status)).items).toHaveLength(1);
		}
	});

	it('logs why a verified callback was not emitted', async () => {
		const outcome = await statuses(['success'], 3);
		expect(outcome.logs.some((line) => line.level === 'info' && /not one of the selected statuses/.test(line.message))).toBe(
			true,
		);
	});

	it('filters on the callback\'s currency, or the credential\'s when the callback has none', async () => {
		const tzs = signedByPlatform(payoutCallback());
		expect((await deliver(jsonCall(tzs, { params: { currency: 'TZS' } }))).items).toHaveLength(1);
		expectAcknowledgedOnly(await deliver(jsonCall(tzs, { params: { currency: 'ZAR' } })));

		const bare = signedByPlatform(payoutCallback({ currency: undefined }));
		expect((await deliver(jsonCall(bare, { params: { currency: 'TZS' } }))).items).toHaveLength(1);
		expectAcknowledgedOnly(await deliver(jsonCall(bare, { params: { currency: 'ZAR' } })));
		expectAcknowledgedOnly(
			await deliver(jsonCall(bare, { params: { currency: 'TZS' }, credentials: credentials({ currency: '' }) })),
		);
	});

	it('lets a payouts-only trigger skip what is evidently a collection', async () => {
		const withToken = signedByPlatform(payoutCallback({ tokenID: 'tok_1' }));
		expectAcknowledgedOnly(await deliver(jsonCall(withToken, { params: { kind: 'payout' } })));
		const partial = signedByPlatform(payoutCallback({ status: 4 }));
		expectAcknowledgedOnly(await deliver(jsonCall(partial, { params: { kind: 'payout' } })));
		expect((await deliver(jsonCall(withToken, { params: { kind: 'collection' } }))).items).toHaveLength(1);
	});

	it('never acknowledges a forged callback just because it would be filtered out', async () => {
		const forged = { ...signedByPlatform(payoutCallback({ status: 3 })), status: 2 };
		expectRejected(await deliver(jsonCall(forged, { params: { statuses: ['failed'] } })), /signature/);
	});
});

describe('HaiPay Trigger: collections and the MIT card token', () => {
	const mit = (overrides: Record<string, unknown> = {}) => signedByPlatform(callbackBody('collection', overrides), 'test-only-secret-usd');
	const usd = credentials({ appId: APP_IDS.USD, currency: 'USD', secretKey: 'test-only-secret-usd' });

	it('puts tokenID at the top level of the item', async () => {
		const { json } = await deliver(jsonCall(mit(), { credentials: usd, params: { kind: 'collection' } }));
		expect(json).toMatchObject({ tokenID: 'tok_abc', kind: 'collection', statusLabel: 'success', verified: true });
	});

	it('copies a token sent as tokenId to tokenID', async () => {
		const body = mit({ tokenID: undefined, tokenId: 'tok_xyz' });
		const { json } = await deliver(jsonCall(body, { credentials: usd, params: { kind: 'collection' } }));
		expect(json).toMatchObject({ tokenID: 'tok_xyz', tokenId: 'tok_xyz' });
	});

	it('has tokenID: null on a collection without a token, so expressions keep one shape', async () => {
		const { json } = await deliver(jsonCall(mit({ tokenID: undefined }), { credentials: usd, params: { kind: 'collection' } }));
		expect(json).toHaveProperty('tokenID', null);
	});

	it('labels collection-only statuses', async () => {
		const { json } = await deliver(jsonCall(mit({ status: 5 }), { credentials: usd, params: { kind: 'collection' } }));
		expect(json).toMatchObject({ statusLabel: 'over-collected', statusGroup: 'partial' });
	});

	it('says "collection" on an either-kind trigger only when the body proves it', async () => {
		expect((await deliver(jsonCall(mit(), { credentials: usd }))).json?.kind).toBe('collection');
		const plain = signedByPlatform(payoutCallback());
		expect((await deliver(jsonCall(plain))).json?.kind).toBe('unknown');
	});

	it('has no tokenID on a payout item', async () => {
		const { json } = await deliver(jsonCall(signedByPlatform(payoutCallback()), { params: { kind: 'payout' } }));
		expect(json).not.toHaveProperty('tokenID');
	});
});

describe('HaiPay Trigger: raw body on request', () => {
	it('adds the body text as received, with the signature value redacted', async () => {
		const body = signedByPlatform(payoutCallback());
		const raw = JSON.stringify(body, null, 1);
		const { json } = await deliver({ raw, parsed: JSON.parse(raw), params: { options: { includeRawBody: true } } });
		expect(json?.rawBody).toBe(raw.replace(String(body.sign), '[redacted]'));
		expectNoSecrets(json, body.sign);
	});

	it('is off by default', async () => {
		const { json } = await deliver(jsonCall(signedByPlatform(payoutCallback())));
		expect(json).not.toHaveProperty('rawBody');
	});
});

describe('HaiPay Trigger: repeated callbacks', () => {
	it('emits the first, acknowledges the repeats, and emits a new status of the same order', async () => {
		const staticData: IDataObject = {};
		const body = signedByPlatform(payoutCallback({ status: 4 }));
		const first = await deliver(jsonCall(body, { staticData }));
		const second = await deliver(jsonCall(body, { staticData }));
		const third = await deliver(jsonCall(body, { staticData }));
		expect(first.items).toHaveLength(1);
		expectAcknowledgedOnly(second);
		expectAcknowledgedOnly(third);
		expect(second.logs.some((line) => /repeated callback/.test(line.message))).toBe(true);

		const settled = await deliver(jsonCall(signedByPlatform(payoutCallback({ status: 2 })), { staticData }));
		expect(settled.items).toHaveLength(1);
	});

	it('remembers across a restart: the state is plain data that n8n saves with the workflow', async () => {
		const body = signedByPlatform(payoutCallback());
		const before: IDataObject = {};
		await deliver(jsonCall(body, { staticData: before }));
		const restored = JSON.parse(JSON.stringify(before)) as IDataObject;
		expectAcknowledgedOnly(await deliver(jsonCall(body, { staticData: restored })));
	});

	it('remembers callbacks that arrive together, although n8n gives each request its own copy and the last save wins', async () => {
		// n8n loads the static data for each webhook request and saves the whole object after answering, when changed.
		const saved: IDataObject = {};
		const workflowId = 'simultaneous';
		const bodies = ['HP1', 'HP2', 'HP3'].map((orderNo) => signedByPlatform(payoutCallback({ orderNo })));
		const copies = bodies.map(() => JSON.parse(JSON.stringify(saved)) as IDataObject);
		const first = await Promise.all(bodies.map(async (body, index) => await deliver(jsonCall(body, { staticData: copies[index], workflowId }))));
		for (const delivery of first) expect(delivery.items).toHaveLength(1);
		// The first is saved at once; of the other two, one waits out the rest of FLUSH_MS and saves both, writing
		// the memory into its own copy and every recent one, so whichever n8n saves last holds all three.
		const changed = copies.filter((copy) => copy.repeatMemory !== undefined);
		expect(changed.length).toBeGreaterThanOrEqual(2);
		for (const copy of changed) expect((copy.repeatMemory as IDataObject).entries).toHaveLength(3 * RECORD_LENGTH);
		const later = changed[changed.length - 1];
		const afterRestart = JSON.parse(JSON.stringify(later)) as IDataObject;
		for (const body of bodies) expectAcknowledgedOnly(await deliver(jsonCall(body, { staticData: afterRestart, workflowId: 'restarted' })));
		// And while the process lives, a repeat is known even to a request whose copy predates it.
		expectAcknowledgedOnly(await deliver(jsonCall(bodies[1], { staticData: {}, workflowId })));
	});

	it('emits again once the window has passed', async () => {
		const staticData: IDataObject = {};
		const body = signedByPlatform(payoutCallback());
		const params = { options: { deduplicationWindow: 10 } };
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
		try {
			expect((await deliver(jsonCall(body, { staticData, params }))).items).toHaveLength(1);
			clock.mockReturnValue(now + 9 * 60_000);
			expectAcknowledgedOnly(await deliver(jsonCall(body, { staticData, params })));
			clock.mockReturnValue(now + 11 * 60_000);
			expect((await deliver(jsonCall(body, { staticData, params }))).items).toHaveLength(1);
		} finally {
			clock.mockRestore();
		}
	});

	it('emits every delivery when turned off', async () => {
		const staticData: IDataObject = {};
		const body = signedByPlatform(payoutCallback());
		const params = { options: { deduplicate: false } };
		expect((await deliver(jsonCall(body, { staticData, params }))).items).toHaveLength(1);
		expect((await deliver(jsonCall(body, { staticData, params }))).items).toHaveLength(1);
		// Still remembered, so that an earlier status of the order after this final one is never emitted.
		expect((staticData.repeatMemory as IDataObject).entries).toHaveLength(RECORD_LENGTH);
	});

	it('does not remember refused or filtered-out callbacks', async () => {
		const staticData: IDataObject = {};
		const body = signedByPlatform(payoutCallback({ status: 3 }));
		await deliver(jsonCall({ ...body, status: 2 }, { staticData }));
		await deliver(jsonCall(body, { staticData, params: { statuses: ['success'] } }));
		expect(staticData).toEqual({});
		expect((await deliver(jsonCall(body, { staticData }))).items).toHaveLength(1);
	});

	it('tells orders apart by orderNo, and falls back to orderId without one', async () => {
		const staticData: IDataObject = {};
		const a = signedByPlatform(payoutCallback({ orderNo: undefined, orderId: 'A' }));
		const b = signedByPlatform(payoutCallback({ orderNo: undefined, orderId: 'B' }));
		expect((await deliver(jsonCall(a, { staticData }))).items).toHaveLength(1);
		expect((await deliver(jsonCall(b, { staticData }))).items).toHaveLength(1);
		expectAcknowledgedOnly(await deliver(jsonCall(a, { staticData })));
	});
});
