/**
 * What the HaiPay Trigger emits of a verified callback: the filters that acknowledge without a run, collections
 * and their MIT card token, and the raw body on request. Every callback goes over real HTTP into n8n-core's
 * webhook machinery (test/harness's webhookServer); one server per set of parameters, each order its own.
 */
import type { INodeParameters } from 'n8n-workflow';

import { APP_IDS, callbackBody } from '../fixtures/bodies';
import {
	credentials,
	deliver,
	expectAcknowledgedOnly,
	expectEmitted,
	expectNoSecrets,
	expectRejected,
	freshOrder,
	payoutCallback,
	sharedTriggers,
	signedByPlatform,
} from './callbacks';

const trigger = sharedTriggers();

describe('HaiPay Trigger: filters acknowledge without starting the workflow', () => {
	const statuses = async (selected: string[], status: number) =>
		await deliver(await trigger({ statuses: selected }), signedByPlatform(payoutCallback({ ...freshOrder(), status })));
	const emitted = async (selected: string[], status: number) => expectEmitted(await statuses(selected, status));

	it('passes only the selected statuses', async () => {
		await emitted(['success'], 2);
		expectAcknowledgedOnly(await statuses(['success'], 3));
		await emitted(['failed'], 3);
		await emitted(['success', 'failed'], 3);
		await emitted(['partial'], 4);
		await emitted(['partial'], 5);
		expectAcknowledgedOnly(await statuses(['partial'], 2));
		await emitted(['other'], 1);
		await emitted(['other'], -1);
		expectAcknowledgedOnly(await statuses(['other'], 2));
	});

	it('passes everything with "any", alone or with others, and with an empty selection', async () => {
		// Sent together: one trigger saves its repeat memory at most once a second, and a burst waits for one save.
		const sends = [0, 1, 2, 3, 4, 5, -1, 9].flatMap((status) =>
			[['any'], ['success', 'any'], []].map(async (selected) => await emitted(selected, status)),
		);
		await Promise.all(sends);
	});

	it('logs why a verified callback was not emitted', async () => {
		const outcome = await statuses(['success'], 3);
		expectAcknowledgedOnly(outcome);
		expect(
			outcome.logs.some((line) => line.level === 'info' && /not one of the selected statuses/.test(line.message)),
		).toBe(true);
	});

	it("filters on the callback's currency, or the credential's when the callback has none", async () => {
		const tzs = signedByPlatform(payoutCallback(freshOrder()));
		expectEmitted(await deliver(await trigger({ currency: 'TZS' }), tzs));
		expectAcknowledgedOnly(await deliver(await trigger({ currency: 'ZAR' }), tzs));

		const bare = signedByPlatform(payoutCallback({ ...freshOrder(), currency: undefined }));
		expectEmitted(await deliver(await trigger({ currency: 'TZS' }), bare));
		expectAcknowledgedOnly(await deliver(await trigger({ currency: 'ZAR' }), bare));
		expectAcknowledgedOnly(await deliver(await trigger({ currency: 'TZS' }, credentials({ currency: '' })), bare));
	});

	it('lets a payouts-only trigger skip what is evidently a collection', async () => {
		const withToken = signedByPlatform(payoutCallback({ ...freshOrder(), tokenID: 'tok_1' }));
		expectAcknowledgedOnly(await deliver(await trigger({ kind: 'payout' }), withToken));
		const partial = signedByPlatform(payoutCallback({ ...freshOrder(), status: 4 }));
		expectAcknowledgedOnly(await deliver(await trigger({ kind: 'payout' }), partial));
		expectEmitted(await deliver(await trigger({ kind: 'collection' }), withToken));
	});

	it('never acknowledges a forged callback just because it would be filtered out', async () => {
		const forged = { ...signedByPlatform(payoutCallback({ ...freshOrder(), status: 3 })), status: 2 };
		expectRejected(await deliver(await trigger({ statuses: ['failed'] }), forged), /signature/);
	});
});

describe('HaiPay Trigger: collections and the MIT card token', () => {
	const mit = (overrides: Record<string, unknown> = {}) =>
		signedByPlatform(callbackBody('collection', { ...freshOrder('MIT'), ...overrides }), 'test-only-secret-usd');
	const usd = credentials({ appId: APP_IDS.USD, currency: 'USD', secretKey: 'test-only-secret-usd' });
	const collected = async (body: Record<string, unknown>, parameters: INodeParameters = { kind: 'collection' }) =>
		expectEmitted(await deliver(await trigger(parameters, usd), body));

	it('puts tokenID at the top level of the item', async () => {
		expect(await collected(mit())).toMatchObject({
			tokenID: 'tok_abc',
			kind: 'collection',
			statusLabel: 'success',
			verified: true,
		});
	});

	it('copies a token sent as tokenId to tokenID', async () => {
		expect(await collected(mit({ tokenID: undefined, tokenId: 'tok_xyz' }))).toMatchObject({
			tokenID: 'tok_xyz',
			tokenId: 'tok_xyz',
		});
	});

	it('has tokenID: null on a collection without a token, so expressions keep one shape', async () => {
		expect(await collected(mit({ tokenID: undefined }))).toHaveProperty('tokenID', null);
	});

	it('labels collection-only statuses', async () => {
		expect(await collected(mit({ status: 5 }))).toMatchObject({
			statusLabel: 'over-collected',
			statusGroup: 'partial',
		});
	});

	it('says "collection" on an either-kind trigger only when the body proves it', async () => {
		expect((await collected(mit(), {})).kind).toBe('collection');
		const plain = signedByPlatform(payoutCallback(freshOrder()));
		expect(expectEmitted(await deliver(await trigger(), plain)).kind).toBe('unknown');
	});

	it('has no tokenID on a payout item', async () => {
		const json = expectEmitted(
			await deliver(await trigger({ kind: 'payout' }), signedByPlatform(payoutCallback(freshOrder()))),
		);
		expect(json).not.toHaveProperty('tokenID');
	});

	it("gives a fixed-address deposit's payTime, in New York time by HaiPay's page, with its offset", async () => {
		const deposit = { tokenID: undefined, hash: 'a1'.repeat(32) };
		expect(await collected(mit({ ...deposit, payTime: '2024-05-01 10:20:30' }))).toMatchObject({
			payTime: '2024-05-01 10:20:30',
			payTimeIso: '2024-05-01T10:20:30-04:00',
		});
		expect(await collected(mit({ ...deposit, payTime: '2024-12-01 10:20:30' }))).toMatchObject({
			payTimeIso: '2024-12-01T10:20:30-05:00',
		});
		// The hour New York lives twice when its clocks go back is two moments: no offset is picked for it.
		expect(await collected(mit({ ...deposit, payTime: '2024-11-03 01:30:00' }))).not.toHaveProperty('payTimeIso');
	});

	it('adds no offset where HaiPay names no zone, and shows no payTimeIso a body sends under that name', async () => {
		const card = await collected(mit());
		expect(card.payTime).toBe('2024-05-01 10:20:30');
		expect(card).not.toHaveProperty('payTimeIso');
		const claimed = await collected(mit({ payTimeIso: '2024-05-01T10:20:30+08:00' }));
		expect(claimed).not.toHaveProperty('payTimeIso');
		expect(claimed.unknownFields).toEqual(['payTimeIso']);
	});
});

describe('HaiPay Trigger: raw body on request', () => {
	it('adds the body text as received, with the signature value redacted', async () => {
		const body = signedByPlatform(payoutCallback(freshOrder()));
		const raw = JSON.stringify(body, null, 1);
		const json = expectEmitted(
			await deliver(await trigger({ options: { includeRawBody: true } }), raw, { 'Content-Type': 'application/json' }),
		);
		expect(json.rawBody).toBe(raw.replace(String(body.sign), '[redacted]'));
		expectNoSecrets(json, body.sign);
	});

	it('is off by default', async () => {
		expect(
			expectEmitted(await deliver(await trigger(), signedByPlatform(payoutCallback(freshOrder())))),
		).not.toHaveProperty('rawBody');
	});
});
