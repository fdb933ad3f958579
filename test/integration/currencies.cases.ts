/**
 * One credential holding an App ID and secret for each of a merchant's currencies: one HaiPay node pays a sheet of
 * mixed currencies, each row checked by its own currency's rules, signed with its own App ID and secret and sent to
 * its own path; one HaiPay Trigger receives every currency's callbacks, each verified with its own App ID's secret;
 * the credential test reads every App ID's balance and names the one that fails. Real HTTP to the sandbox, real
 * n8n-core executions and webhooks, n8n-core's own request helper for the credential test.
 */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { HaiPayApi } from '../../credentials/HaiPayApi.credentials';
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { testHaiPayCredential } from '../../nodes/shared/gateway/credentialTest';
import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS, callbackBody, PAYOUTS, type PayoutCurrency } from '../fixtures/bodies';
import { HarnessCredentialsHelper, type WebhookServer } from '../harness';
import { buildAdditionalData } from '../harness/additional-data';
import { HarnessCredentialTypes, HarnessNodeTypes } from '../harness/registry';
import { multiCurrencyCredential, secretOf } from '../helpers/credentials';
import { TEST_KEYS } from '../helpers/keys';
import { withSignature } from '../helpers/signing';
import { NODE, payoutTrigger, runNode, uniqueOrderId } from './helpers';

/** A credential whose first App ID is TZS's and whose Other Currencies are `others`, with the sandbox's secrets. */
function multiCredential(
	sandbox: Sandbox,
	others: PayoutCurrency[],
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return { ...multiCurrencyCredential(sandbox.baseUrl, ['TZS', ...others]), ...overrides };
}

/** The credential test as n8n's server runs it: n8n-core's own test context and its request helper. */
async function credentialTest(data: ICredentialDataDecryptedObject) {
	const credentialsHelper = new HarnessCredentialsHelper(
		{},
		new HarnessCredentialTypes([HaiPayApi]),
		new HarnessNodeTypes([HaiPay, HaiPayTrigger]),
	);
	const additionalData = buildAdditionalData({ credentialsHelper, executionId: 'credential-test', workflowId: '' });
	return await testHaiPayCredential.call(new CredentialTestContext(additionalData), {
		id: 'c1',
		name: 'HaiPay',
		type: 'haiPayApi',
		data,
	});
}

/** A row of the sheet: the gateway's field names, its currency and a fresh order ID. */
function row(currency: PayoutCurrency, overrides: IDataObject = {}): IDataObject {
	return { currency, orderId: uniqueOrderId(`MIX-${currency}`), ...PAYOUTS[currency], ...overrides };
}

const mixedSheet = {
	resource: 'payout',
	operation: 'create',
	currency: '={{ $json.currency }}',
	fieldsFrom: 'input',
	options: { notFoundAfter: 1 },
};

describe('one credential, several currencies', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ manual: true });
	});
	afterAll(async () => await sandbox.close());

	it('pays a mixed sheet from one node: each row to its own path, under its own App ID, signed with its own secret', async () => {
		const rows = [row('TZS'), row('ZAR'), row('NGN'), row('ZAR'), row('TZS')];
		const result = await runNode(sandbox, {
			parameters: mixedSheet,
			items: rows,
			credential: multiCredential(sandbox, ['ZAR', 'NGN']),
		});
		const out = result.jsonOf(NODE);
		expect(out.map((item) => [item.orderId, item.outcome, item.currency])).toEqual(
			rows.map((entry) => [entry.orderId, 'accepted', entry.currency]),
		);
		// The sandbox refuses an appId used on another currency's path, and a signature made with another secret.
		for (const entry of rows) {
			const order = sandbox.orders.find((candidate) => candidate.orderId === entry.orderId);
			expect(order).toMatchObject({ appId: APP_IDS[entry.currency as PayoutCurrency] });
			const request = sandbox.requests.find(
				(logged) => (logged.body as IDataObject | undefined)?.orderId === entry.orderId,
			);
			expect(request?.path).toBe(`/${String(entry.currency).toLowerCase()}/pay/apply`);
		}
	});

	it("checks every row by its own currency's rules, naming the field and the item", async () => {
		// The same amount is valid in ZAR (from 1) and not in TZS (from 1,000); a TZS wallet number is no NGN account.
		const rows = [
			row('ZAR', { amount: '150' }),
			row('TZS', { amount: '150' }),
			row('NGN', { accountNo: PAYOUTS.TZS.accountNo }),
		];
		const before = sandbox.appliesReceived();
		const result = await runNode(sandbox, {
			parameters: mixedSheet,
			items: rows,
			credential: multiCredential(sandbox, ['ZAR', 'NGN']),
			settings: { onError: 'continueRegularOutput' },
		});
		const out = result.jsonOf(NODE);
		expect(out[0]).toMatchObject({ outcome: 'accepted', currency: 'ZAR' });
		expect(out[1]).toMatchObject({ outcome: 'invalid', currency: 'TZS', field: 'amount', orderId: rows[1].orderId });
		expect(out[2]).toMatchObject({ outcome: 'invalid', currency: 'NGN', field: 'accountNo', orderId: rows[2].orderId });
		expect(result.outputOf(NODE).map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(sandbox.appliesReceived() - before).toBe(1);
	});

	it('refuses a row in a currency the credential holds no App ID for, before anything is sent', async () => {
		const rows = [row('TZS'), row('EGP')];
		const before = sandbox.appliesReceived();
		const result = await runNode(sandbox, {
			parameters: mixedSheet,
			items: rows,
			credential: multiCredential(sandbox, ['ZAR']),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(
			/holds App IDs for TZS \(App ID 1001\), ZAR \(App ID 1002\), but the operation is in EGP/,
		);
		expect(result.error).toMatchObject({ itemIndex: 1 });
		expect(sandbox.appliesReceived() - before).toBe(0);
	});

	it('keeps a credential with one App ID and a currency as strict as before', async () => {
		const single = multiCredential(sandbox, []);
		const result = await runNode(sandbox, {
			parameters: mixedSheet,
			items: [row('ZAR')],
			credential: single,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field: 'currency' });
		expect(String(result.jsonOf(NODE)[0].error)).toMatch(/is for TZS \(App ID 1001\), but the operation is in ZAR/);
	});

	it('reads orders of several currencies from one node, each under its own App ID', async () => {
		const rows = [row('ZAR'), row('NGN')];
		const credential = multiCredential(sandbox, ['ZAR', 'NGN']);
		await runNode(sandbox, { parameters: mixedSheet, items: rows, credential });
		const reads = await runNode(sandbox, {
			parameters: {
				resource: 'payout',
				operation: 'get',
				currency: '={{ $json.currency }}',
				orderId: '={{ $json.orderId }}',
			},
			items: rows,
			credential,
		});
		expect(reads.jsonOf(NODE).map((item) => [item.orderId, item.verified])).toEqual(
			rows.map((entry) => [entry.orderId, true]),
		);
	});

	it('refuses a credential whose other currencies have no currency of the first App ID, a missing secret, or an App ID twice', async () => {
		const cases: Array<[ICredentialDataDecryptedObject, RegExp]> = [
			[multiCredential(sandbox, ['ZAR'], { currency: '' }), /set the Currency of its first App ID too/],
			[multiCredential(sandbox, ['ZAR'], { secretKeyZar: '' }), /needs the ZAR secret key/],
			[multiCredential(sandbox, ['ZAR'], { appIdZar: APP_IDS.TZS }), /App ID 1001 for both TZS and ZAR/],
			[multiCredential(sandbox, ['ZAR'], { appIdZar: 0 }), /needs the ZAR App ID/],
			[multiCredential(sandbox, ['TZS']), /lists TZS under Other Currencies, but its first App ID is already for TZS/],
		];
		const before = sandbox.appliesReceived();
		for (const [credential, message] of cases) {
			const result = await runNode(sandbox, { parameters: mixedSheet, items: [row('TZS')], credential });
			expect(result.status).toBe('error');
			expect(result.error?.message).toMatch(message);
		}
		expect(sandbox.appliesReceived() - before).toBe(0);
	});

	it("downloads a ZAR payout's voucher under the ZAR App ID, and refuses a currency the credential does not hold", async () => {
		const credential = multiCredential(sandbox, ['ZAR']);
		const created = await runNode(sandbox, { parameters: mixedSheet, items: [row('ZAR')], credential });
		const orderNo = String(created.jsonOf(NODE)[0].orderNo);
		sandbox.control.settle(orderNo, 'success');
		const voucher = (ordersCurrency: string) => ({
			resource: 'voucher',
			operation: 'download',
			orderNos: orderNo,
			ordersCurrency,
		});
		// The sandbox gives vouchers only of the asking App ID's own orders.
		const first = await runNode(sandbox, {
			parameters: voucher(''),
			credential,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(String(first.jsonOf(NODE)[0].error)).toMatch(/HaiPay refused/);
		const zar = await runNode(sandbox, { parameters: voucher('ZAR'), credential });
		expect(zar.jsonOf(NODE)[0]).toMatchObject({ orderNos: [orderNo], mimeType: 'application/pdf' });
		const lastSeen = sandbox.requests.at(-1)?.seq;
		const egp = await runNode(sandbox, {
			parameters: voucher('EGP'),
			credential,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(egp.jsonOf(NODE)[0]).toMatchObject({ errorType: 'invalid', field: 'currency' });
		expect(String(egp.jsonOf(NODE)[0].error)).toMatch(/holds no App ID for EGP/);
		expect(sandbox.requests.at(-1)?.seq).toBe(lastSeen);
	});

	describe('the credential test', () => {
		it('reads the balance of every App ID and names them', async () => {
			const result = await credentialTest(multiCredential(sandbox, ['ZAR', 'NGN']));
			expect(result).toEqual({
				status: 'OK',
				message: 'HaiPay accepted the signed balance read of every App ID: 1001 (TZS), 1002 (ZAR), 1003 (NGN)',
			});
		});

		it('names the App ID whose secret is wrong, and only that one', async () => {
			const result = await credentialTest(
				multiCredential(sandbox, ['ZAR', 'NGN'], { secretKeyZar: 'test-only-wrong-secret' }),
			);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^App ID 1002 \(ZAR\): HaiPay refused the signed request/);
			expect(result.message).not.toMatch(/1001|1003/);
			expect(result.message).not.toContain('test-only-wrong-secret');
		});

		it('says when the HaiPay public key does not verify the answers', async () => {
			const result = await credentialTest(multiCredential(sandbox, [], { haipayPublicKey: TEST_KEYS.otherPublic }));
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/App ID 1001 \(TZS\): .*HaiPay Public Key in the credential does not verify its answer/,
			);
		});

		it('asks for the currency of a single App ID, and for what a credential with other currencies lacks', async () => {
			expect((await credentialTest(multiCredential(sandbox, [], { currency: '' }))).message).toMatch(
				/To test this credential, set its Currency/,
			);
			expect((await credentialTest(multiCredential(sandbox, ['ZAR'], { currency: '' }))).message).toMatch(
				/set the Currency of its first App ID too/,
			);
		});

		it('says when HaiPay cannot be reached', async () => {
			const result = await credentialTest(multiCredential(sandbox, [], { baseUrl: 'http://127.0.0.1:1' }));
			expect(result).toMatchObject({ status: 'Error' });
			expect(result.message).toMatch(/could not be reached at http:\/\/127\.0\.0\.1:1/);
		});
	});

	describe('one trigger for every currency', () => {
		let server: WebhookServer | undefined;
		afterEach(async () => {
			await server?.close();
			server = undefined;
		});

		async function serve(credential: ICredentialDataDecryptedObject): Promise<WebhookServer> {
			server = await payoutTrigger(credential);
			return server;
		}

		it("receives each currency's real callbacks, verified with the secret of the callback's own App ID", async () => {
			const trigger = await serve(multiCredential(sandbox, ['ZAR', 'NGN']));
			const orders = (['TZS', 'ZAR', 'NGN'] as const).map((currency) =>
				sandbox.control.createOrder({
					appId: APP_IDS[currency],
					kind: 'payout',
					orderId: uniqueOrderId(`CB-${currency}`),
					amount: PAYOUTS[currency].amount,
					notifyUrl: trigger.url('Trigger'),
				}),
			);
			for (const order of orders) sandbox.control.settle(order.orderNo, 'success');
			const executions = await trigger.waitForExecutions(3);
			const received = executions
				.map((execution) => [execution.items[0].json.orderId, execution.items[0].json.appId])
				.sort();
			expect(received).toEqual(orders.map((order) => [order.orderId, order.appId]).sort());
			expect(executions.every((execution) => execution.items[0].json.verified === true)).toBe(true);
		});

		it("refuses a callback signed with another App ID's secret, and an App ID the credential does not hold", async () => {
			const trigger = await serve(multiCredential(sandbox, ['ZAR']));
			const platform = parsePrivateKey(TEST_KEYS.platformPrivate);
			const zarWithTzsSecret = withSignature(
				callbackBody('payout', { appId: APP_IDS.ZAR, currency: 'ZAR', orderId: uniqueOrderId('X') }),
				secretOf('TZS'),
				platform,
			);
			const notHeld = withSignature(
				callbackBody('payout', { appId: APP_IDS.NGN, currency: 'NGN', orderId: uniqueOrderId('Y') }),
				secretOf('NGN'),
				platform,
			);
			const genuine = withSignature(
				callbackBody('payout', { appId: APP_IDS.ZAR, currency: 'ZAR', orderId: uniqueOrderId('Z') }),
				secretOf('ZAR'),
				platform,
			);
			expect((await trigger.send('Trigger', zarWithTzsSecret)).status).toBe(401);
			expect((await trigger.send('Trigger', notHeld)).status).toBe(401);
			expect((await trigger.send('Trigger', genuine)).status).toBe(200);
			await trigger.idle();
			expect(trigger.executions.map((execution) => execution.items[0].json.orderId)).toEqual([genuine.orderId]);
		});
	});
});
