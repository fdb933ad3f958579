/**
 * HaiPay's global cashier (Collection → Create Cashier Payment, Get Cashier Payment) in real n8n-core executions
 * against the sandbox over HTTP: the Cashier-specific App ID chosen by the `/global/` path, the transaction currency
 * sent as HaiPay's `currency`, each rule on both sides of its edge, and a gateway that lies, echoes the request,
 * answers late or loses the answer. The cashier's query needs HaiPay's orderNo, so a create without a signed answer
 * stays unknown at once: never resent, never not_found.
 */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { HaiPayApi } from '../../credentials/HaiPayApi.credentials';
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { testHaiPayCredential } from '../../nodes/shared/gateway/credentialTest';
import type { Sandbox } from '../../sandbox';
import { CASHIER_APP_ID } from '../../sandbox/merchants';
import { CASHIER_PAYMENT } from '../fixtures/bodies';
import { HarnessCredentialsHelper } from '../harness';
import { buildAdditionalData } from '../harness/additional-data';
import { HarnessCredentialTypes, HarnessNodeTypes } from '../harness/registry';
import { until } from '../sandbox/helpers';
import { credentialFor, NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const APPLY = '/global/cashier/collect/apply';
const QUERY = '/global/cashier/collect/query';
const [CASHIER_ID] = CASHIER_APP_ID;

const running = sandboxPerFile({ manual: true, hangMs: 4_000 });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const keepGoing = { onError: 'continueRegularOutput' };

/** A TZS credential with the cashier's App ID under Other Currencies, or without it. */
function credential(withCashier = true): ICredentialDataDecryptedObject {
	const cashier = {
		otherCurrencies: ['CASHIER'],
		appIdCashier: CASHIER_ID,
		secretKeyCashier: 'test-only-secret-cashier',
	};
	return credentialFor(sandbox, 'TZS', withCashier ? cashier : {});
}

function row(overrides: IDataObject = {}): IDataObject {
	return {
		orderId: uniqueOrderId('CASHIER'),
		...CASHIER_PAYMENT,
		...overrides,
	};
}

const createParameters = (options: IDataObject = {}): INodeParameters => ({
	resource: 'collection',
	operation: 'createCashier',
	fieldsFrom: 'input',
	options: { timeout: 1000, resolveWithin: 10, notFoundAfter: 1, ...options },
});

async function create(rows: IDataObject[], options: IDataObject = {}, withCashier = true): Promise<IDataObject[]> {
	const result = await runNode(sandbox, {
		parameters: createParameters(options),
		items: rows,
		settings: keepGoing,
		credential: credential(withCashier),
	});
	return result.jsonOf(NODE);
}

async function get(orderId: string, orderNo: string): Promise<IDataObject> {
	const parameters = { resource: 'collection', operation: 'getCashier', orderId, orderNo };
	const result = await runNode(sandbox, { parameters, settings: keepGoing, credential: credential() });
	return result.jsonOf(NODE)[0];
}

const ordersWith = (orderId: unknown) => sandbox.orders.filter((order) => order.orderId === orderId);
const requestsTo = (path: string, orderId: unknown) =>
	sandbox.requests.filter((request) => request.path === path && request.orderId === orderId);

describe('a global cashier payment', () => {
	it("is signed with the CASHIER App ID, sends the transaction currency as currency, and gives HaiPay's page", async () => {
		const entry = row();
		const [item] = await create([entry]);
		const [order] = ordersWith(entry.orderId);
		expect(item).toMatchObject({
			outcome: 'accepted',
			orderId: entry.orderId,
			orderNo: order.orderNo,
			currency: 'USD',
			verified: true,
		});
		expect(String(item.payUrl)).toMatch(/^http/);
		const [sent] = requestsTo(APPLY, entry.orderId);
		expect(sent.appId).toBe(CASHIER_ID);
		expect(sent.body).toMatchObject({ currency: 'USD', region: 'US', amount: '19.99' });
		expect(sent.body).not.toHaveProperty('transactionCurrency');
	});

	it('Get Cashier Payment reads it by orderId and orderNo together; either alone is refused before sending', async () => {
		const entry = row();
		const [created] = await create([entry]);
		const item = await get(String(entry.orderId), String(created.orderNo));
		expect(item).toMatchObject({
			orderId: entry.orderId,
			orderNo: created.orderNo,
			status: 0,
			amount: '19.99',
			verified: true,
		});
		expect(requestsTo(QUERY, entry.orderId)).toHaveLength(1);
		const before = sandbox.requests.length;
		// n8n refuses an empty required parameter itself; an expression that comes out empty reaches the node's check.
		expect(await get(String(entry.orderId), '={{ "" }}')).toMatchObject({ errorType: 'invalid', field: 'orderNo' });
		expect(await get('={{ "" }}', String(created.orderNo))).toMatchObject({ errorType: 'invalid', field: 'orderId' });
		expect(sandbox.requests.length).toBe(before);
	});

	it('without a CASHIER App ID in the credential, nothing is sent', async () => {
		const entry = row();
		const [item] = await create([entry], {}, false);
		expect(item).toMatchObject({ outcome: 'invalid', field: 'currency' });
		expect(String(item.error)).toMatch(/CASHIER/);
		expect(requestsTo(APPLY, entry.orderId)).toHaveLength(0);
	});
});

describe('rules on both sides of each edge, in one run', () => {
	it('valid rows reach the sandbox and its own schema takes them; the others are invalid and never sent', async () => {
		const valid = [
			{ amount: '0.99' },
			{ amount: '0.50', transactionCurrency: 'EUR' },
			{ region: 'br' },
			{ transactionCurrency: 'BRL' },
			{ partnerUserId: 'user-7' },
			{ name: 'Ana Maria Souza' },
		];
		const invalid: Array<[IDataObject, string]> = [
			[{ amount: '0.98' }, 'amount'],
			[{ amount: '19.9' }, 'amount'],
			[{ amount: '19.999' }, 'amount'],
			[{ amount: '1,000.00' }, 'amount'],
			[{ transactionCurrency: 'usd' }, 'transactionCurrency'],
			[{ transactionCurrency: 'US' }, 'transactionCurrency'],
			[{ region: 'USA' }, 'region'],
			[{ region: 'U1' }, 'region'],
			[{ name: 'Maria' }, 'name'],
			[{ subject: '' }, 'subject'],
			[{ callBackFailUrl: '' }, 'callBackFailUrl'],
			[{ partnerUserId: 'a b' }, 'partnerUserId'],
			[{ email: 'maria' }, 'email'],
		];
		const rows = [...valid.map((overrides) => row(overrides)), ...invalid.map(([overrides]) => row(overrides))];
		const before = sandbox.appliesReceived(CASHIER_ID);
		const out = await create(rows);
		expect(out.map((item) => item.outcome)).toEqual([...valid.map(() => 'accepted'), ...invalid.map(() => 'invalid')]);
		expect(out.slice(valid.length).map((item) => item.field)).toEqual(invalid.map(([, field]) => field));
		expect(sandbox.appliesReceived(CASHIER_ID) - before).toBe(valid.length);
	});
});

describe('a hostile gateway: without a signed orderNo the cashier order cannot be queried, so it stays unknown', () => {
	function expectUnknownAtOnce(item: IDataObject, orderId: unknown): void {
		expect(item).toMatchObject({ outcome: 'unknown', orderId });
		expect(String(item.error)).toMatch(/needs the order's orderNo/);
		expect(String(item.advice)).toMatch(/merchant backend/);
		expect(requestsTo(APPLY, orderId)).toHaveLength(1);
		expect(requestsTo(QUERY, orderId)).toHaveLength(0);
	}

	it('a signed lie ("no such order") answering the order it made is not an acceptance', async () => {
		const lie = row();
		sandbox.control.addFault({
			type: 'replaceData',
			path: APPLY,
			times: 1,
			data: { orderId: String(lie.orderId), status: 3, errorMsg: 'order does not exist' },
		});
		const started = Date.now();
		const [item] = await create([lie]);
		expectUnknownAtOnce(item, lie.orderId);
		expect(Date.now() - started).toBeLessThan(8_000);
		expect(ordersWith(lie.orderId)).toHaveLength(1);
	});

	it('an answer echoing the request (signed, no orderNo) is not an acceptance', async () => {
		const echoed = row();
		sandbox.control.addFault({ type: 'replaceData', path: APPLY, times: 1, data: { ...echoed } });
		const [item] = await create([echoed]);
		expectUnknownAtOnce(item, echoed.orderId);
	});

	it('an answer after the time-out: the order HaiPay made is never sent again, nor called not_found', async () => {
		const slow = row();
		sandbox.control.addFault({ type: 'latency', when: 'before', path: APPLY, times: 1, ms: 2_500 });
		const [item] = await create([slow]);
		// The late request makes its order and is logged once the sandbox answers it, both after the node gave up on it:
		// wait for both, not for a time (the order alone can be there before the answer is logged).
		await until(() => ordersWith(slow.orderId).length > 0 && requestsTo(APPLY, slow.orderId).length > 0);
		expectUnknownAtOnce(item, slow.orderId);
		expect(ordersWith(slow.orderId)).toHaveLength(1);
	});

	it('an answer lost before HaiPay took the request stays unknown, never not_found', async () => {
		const lost = row();
		sandbox.control.addFault({ type: 'drop', when: 'before', path: APPLY, times: 1 });
		const [item] = await create([lost]);
		expectUnknownAtOnce(item, lost.orderId);
		expect(ordersWith(lost.orderId)).toHaveLength(0);
	});

	it('a refusal is not signed, and the query cannot confirm it: unknown, not rejected', async () => {
		const refused = row({ name: 'No Permission' });
		const [item] = await create([refused]);
		expectUnknownAtOnce(item, refused.orderId);
		expect(String(item.error)).toMatch(/refusal is not signed/);
	});

	/** The orderNo the sandbox gives its next order: its numbers count up within the day. */
	function nextOrderNo(): string {
		const last =
			sandbox.orders
				.map((order) => order.orderNo)
				.sort()
				.at(-1) ?? '';
		return `${last.slice(0, -10)}${String(Number(last.slice(-10)) + 1).padStart(10, '0')}`;
	}

	it("a signed answer that names the order's own orderNo but says failed is settled by the cashier query", async () => {
		const entry = row();
		const orderNo = nextOrderNo();
		sandbox.control.addFault({
			type: 'replaceData',
			path: APPLY,
			times: 1,
			data: { orderId: String(entry.orderId), orderNo, status: 3, errorMsg: 'failed' },
		});
		const [item] = await create([entry]);
		expect(ordersWith(entry.orderId)).toEqual([expect.objectContaining({ orderNo })]);
		expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderNo, status: 0, verified: true });
		expect(requestsTo(QUERY, entry.orderId).map((request) => request.body)).toContainEqual(
			expect.objectContaining({ orderId: entry.orderId, orderNo }),
		);
		expect(requestsTo(APPLY, entry.orderId)).toHaveLength(1);
	});

	it("a signed answer naming another order's orderNo is never taken for this one, nor for its absence", async () => {
		const [other] = await create([row()]);
		const entry = row();
		sandbox.control.addFault({
			type: 'replaceData',
			path: APPLY,
			times: 1,
			data: { orderId: String(entry.orderId), orderNo: String(other.orderNo), status: 3, errorMsg: 'failed' },
		});
		const [item] = await create([entry], { resolveWithin: 3 });
		expect(item).toMatchObject({ outcome: 'unknown', orderId: entry.orderId });
		expect(String(item.error)).toMatch(/proves nothing/);
		expect(requestsTo(APPLY, entry.orderId)).toHaveLength(1);
		expect(ordersWith(entry.orderId)).toHaveLength(1);
	});
});

describe('the credential test', () => {
	async function credentialTest(data: ICredentialDataDecryptedObject) {
		const credentialsHelper = new HarnessCredentialsHelper(
			{},
			new HarnessCredentialTypes([HaiPayApi]),
			new HarnessNodeTypes([HaiPay]),
		);
		const additionalData = buildAdditionalData({ credentialsHelper, executionId: 'credential-test', workflowId: '' });
		return await testHaiPayCredential.call(new CredentialTestContext(additionalData), {
			id: 'c1',
			name: 'HaiPay',
			type: 'haiPayApi',
			data,
		});
	}
	const ledgerReads = () =>
		sandbox.requests.filter((request) => request.path.endsWith('/account/ledger')).map((request) => request.path);

	it('without a CASHIER App ID: the balance read of each App ID, as before', async () => {
		expect(await credentialTest(credential(false))).toEqual({
			status: 'OK',
			message: 'HaiPay accepted the signed balance read of every App ID: 1001 (TZS)',
		});
	});

	it('with one: no balance read is tried for CASHIER, and the message says it was not tested', async () => {
		const before = ledgerReads().length;
		const result = await credentialTest(credential());
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/^HaiPay accepted the signed balance read of every App ID: 1001 \(TZS\)\. Not tested: 1022 \(CASHIER\)/,
		);
		expect(ledgerReads().slice(before)).toEqual(['/tzs/account/ledger']);
	});

	it('a credential whose only App ID is the cashier one reads nothing', async () => {
		const before = sandbox.requests.length;
		const only = credentialFor(sandbox, 'TZS', {
			appId: CASHIER_ID,
			currency: 'CASHIER',
			secretKey: 'test-only-secret-cashier',
		});
		const result = await credentialTest(only);
		expect(result).toMatchObject({ status: 'OK' });
		expect(result.message).toMatch(/no App ID of this credential has a balance read/);
		expect(sandbox.requests.length).toBe(before);
	});
});
