/**
 * Collection → Refund and Get Refund through real n8n-core executions against the sandbox over HTTP. A refund is a
 * create: sent once, never retried; its lost answer is settled by the refund query, never by sending it again; a
 * Refund ID (or a payment) twice in one run is refused unsent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { loadPrivateKey, signBody } from '../../sandbox/signing';
import { APP_IDS, mitBody } from '../fixtures/bodies';
import { TEST_KEYS } from '../helpers/keys';
import { NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true, hangMs: 4_000 });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const keepGoing = { onError: 'continueRegularOutput' };

function refund(options: INodeParameters = {}): INodeParameters {
	return {
		resource: 'collection',
		operation: 'refund',
		currency: 'USD',
		orderId: '={{ $json.refundId }}',
		orderNo: '={{ $json.orderNo }}',
		options,
	};
}

/** A USD card collection waiting for its payer, made by signed HTTP as a merchant's app would. */
async function cardCollection(): Promise<string> {
	const body = mitBody(uniqueOrderId('MIT'));
	const sign = signBody(body, 'test-only-secret-usd', loadPrivateKey(TEST_KEYS.merchantPkcs8), 'json');
	const response = await fetch(`${sandbox.baseUrl}/usd/mit/apply`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ ...body, sign }),
	});
	return String(((await response.json()) as { data: IDataObject }).data.orderNo);
}

/** A USD card collection, paid on its page: what a refund returns. */
async function paidCollection(): Promise<string> {
	const orderNo = await cardCollection();
	sandbox.control.payCashier(orderNo, 'pay');
	return orderNo;
}

const refundsOf = (orderId: unknown) => sandbox.refunds.filter((item) => item.orderId === orderId);
const requestsTo = (path: string, orderId: unknown) =>
	sandbox.requests.filter((request) => request.path === path && request.orderId === orderId);

async function refundOne(item: IDataObject, options: INodeParameters = {}): Promise<IDataObject> {
	const result = await runNode(sandbox, {
		currency: 'USD',
		parameters: refund(options),
		items: [item],
		settings: keepGoing,
	});
	return result.jsonOf(NODE)[0];
}

describe('a refund accepted, then queried', () => {
	it("answers the refundNo and HaiPay's status as it came (no label); Get Refund follows it to its end", async () => {
		const orderNo = await paidCollection();
		const refundId = uniqueOrderId('RF');
		const out = await refundOne({ refundId, orderNo });
		const [made] = refundsOf(refundId);
		expect(out).toMatchObject({
			outcome: 'accepted',
			verified: true,
			currency: 'USD',
			orderId: refundId,
			orderNo,
			refundNo: made.refundNo,
			status: 'PROCESSING',
			appId: String(APP_IDS.USD),
		});
		expect(out).not.toHaveProperty('statusLabel');
		expect(out).not.toHaveProperty('sign');
		expect(requestsTo('/usd/refund/apply', refundId)[0].body).toMatchObject({
			appId: APP_IDS.USD,
			orderId: refundId,
			orderNo,
		});

		sandbox.control.settleRefund(made.refundNo, 'success');
		const byNumber = await runNode(sandbox, {
			currency: 'USD',
			parameters: { resource: 'collection', operation: 'getRefund', currency: 'USD', refundNo: made.refundNo },
		});
		expect(byNumber.jsonOf(NODE)[0]).toMatchObject({
			refundNo: made.refundNo,
			orderId: refundId,
			orderNo,
			status: 'SUCCESS',
			verified: true,
		});
		expect(byNumber.jsonOf(NODE)[0]).not.toHaveProperty('statusLabel');
		const byId = await runNode(sandbox, {
			currency: 'USD',
			parameters: { resource: 'collection', operation: 'getRefund', currency: 'USD', orderId: refundId },
		});
		expect(byId.jsonOf(NODE)[0]).toMatchObject({ refundNo: made.refundNo, status: 'SUCCESS' });
	});

	it('Get Refund refuses an answer about another refund, however genuinely signed', async () => {
		const refundId = uniqueOrderId('RF');
		await refundOne({ refundId, orderNo: await paidCollection() });
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/usd/refund/refundQuery',
			data: { orderId: 'RF-OTHER', refundNo: 'RF999', status: 'SUCCESS' },
			times: 1,
		});
		const result = await runNode(sandbox, {
			currency: 'USD',
			parameters: {
				resource: 'collection',
				operation: 'getRefund',
				currency: 'USD',
				orderId: refundId,
				options: { retries: 0 },
			},
			settings: keepGoing,
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ errorType: 'untrusted' });
		expect(String(result.jsonOf(NODE)[0].error)).toContain('RF-OTHER');
	});

	it('HaiPay refusing a refund of an unpaid collection: rejected (Resolve off), nothing created', async () => {
		const orderNo = await cardCollection();
		const refundId = uniqueOrderId('RF');
		const out = await refundOne({ refundId, orderNo }, { resolveUnknown: false });
		expect(out).toMatchObject({ outcome: 'rejected', errorCode: '4012', orderId: refundId });
		expect(String(out.advice)).toContain('same Refund ID');
		expect(refundsOf(refundId)).toHaveLength(0);
	});
});

describe('a refund whose answer is lost is settled by the refund query, never sent twice', () => {
	const resolving = { timeout: 1000, resolveWithin: 20, notFoundAfter: 2 };

	it.each([
		['the connection is reset', { type: 'drop' }],
		['the gateway answers 502', { type: 'httpError' }],
		['the gateway never answers', { type: 'timeout' }],
	] as const)('%s after HaiPay took it: accepted by the refund query, sent once', async (_what, fault) => {
		const orderNo = await paidCollection();
		const refundId = uniqueOrderId('RF');
		sandbox.control.addFault({ ...fault, when: 'after', path: '/usd/refund/apply', times: 1 });
		const before = sandbox.appliesReceived(APP_IDS.USD);
		const out = await refundOne({ refundId, orderNo }, resolving);
		const [made] = refundsOf(refundId);
		expect(out).toMatchObject({
			outcome: 'accepted',
			resolvedBy: 'query',
			orderId: refundId,
			orderNo,
			refundNo: made.refundNo,
			status: 'PROCESSING',
			verified: true,
		});
		expect(sandbox.appliesReceived(APP_IDS.USD) - before).toBe(1);
		expect(refundsOf(refundId)).toHaveLength(1);
		expect(requestsTo('/usd/refund/refundQuery', refundId).length).toBeGreaterThanOrEqual(1);
		expect(requestsTo('/usd/collect/query', refundId)).toHaveLength(0);
	});

	it('lost before HaiPay took it: unknown (HaiPay publishes no "no such refund"), and never sent again', async () => {
		const orderNo = await paidCollection();
		const refundId = uniqueOrderId('RF');
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/usd/refund/apply', times: 1 });
		const before = sandbox.appliesReceived(APP_IDS.USD);
		const out = await refundOne({ refundId, orderNo }, { ...resolving, resolveWithin: 3 });
		expect(out).toMatchObject({ outcome: 'unknown', orderId: refundId });
		expect(String(out.error)).toContain('did not settle it');
		expect(String(out.advice)).toContain('Get Refund');
		expect(sandbox.appliesReceived(APP_IDS.USD) - before).toBe(1);
		expect(refundsOf(refundId)).toHaveLength(0);
		expect(requestsTo('/usd/refund/refundQuery', refundId).length).toBeGreaterThanOrEqual(2);
	});

	it('a signed refund answer that names the refund ID but no refund number proves nothing: unknown, not resent', async () => {
		const orderNo = await paidCollection();
		const refundId = uniqueOrderId('RF');
		sandbox.control.addFault({ type: 'drop', when: 'after', path: '/usd/refund/apply', times: 1 });
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/usd/refund/refundQuery',
			data: { orderId: refundId, orderNo, status: 'SUCCESS' },
		});
		const out = await refundOne({ refundId, orderNo }, { ...resolving, resolveWithin: 2 });
		expect(out).toMatchObject({ outcome: 'unknown' });
		expect(String(out.error)).toContain('names no HaiPay refund number');
		expect(refundsOf(refundId)).toHaveLength(1);
		expect(requestsTo('/usd/refund/apply', refundId)).toHaveLength(1);
	});

	it('a signed refund answer that names no collection (orderNo) does not show this refund: unknown, not accepted, not resent', async () => {
		const orderNo = await paidCollection();
		const refundId = uniqueOrderId('RF');
		sandbox.control.addFault({ type: 'drop', when: 'after', path: '/usd/refund/apply', times: 1 });
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/usd/refund/refundQuery',
			data: { orderId: refundId, refundNo: 'RF-NO-COLLECTION', status: 'SUCCESS' },
		});
		const out = await refundOne({ refundId, orderNo }, { ...resolving, resolveWithin: 2 });
		expect(out).toMatchObject({ outcome: 'unknown', orderId: refundId });
		expect(String(out.error)).toContain(`names no collection (orderNo), so it does not show a refund of ${orderNo}`);
		expect(requestsTo('/usd/refund/apply', refundId)).toHaveLength(1);
		expect(requestsTo('/usd/refund/refundQuery', refundId).length).toBeGreaterThanOrEqual(2);
	});

	it('HaiPay showing this Refund ID on another payment: duplicate, this request created nothing', async () => {
		const orderNo = await paidCollection();
		const other = await paidCollection();
		const refundId = uniqueOrderId('RF');
		await refundOne({ refundId, orderNo: other });
		sandbox.control.addFault({
			type: 'statusZero',
			when: 'before',
			path: '/usd/refund/apply',
			msg: 'System busy, please query the order',
			times: 1,
		});
		const out = await refundOne({ refundId, orderNo }, resolving);
		expect(out).toMatchObject({ outcome: 'duplicate', orderId: refundId });
		expect(String(out.error)).toContain(`for the collection ${other}, not ${orderNo}`);
		expect(refundsOf(refundId)).toHaveLength(1);
	});
});

describe('in one run', () => {
	it('a Refund ID given twice, or one payment refunded twice, is refused unsent', async () => {
		const [first, second] = [await paidCollection(), await paidCollection()];
		const refundId = uniqueOrderId('RF');
		const before = sandbox.appliesReceived(APP_IDS.USD);
		const result = await runNode(sandbox, {
			currency: 'USD',
			parameters: refund(),
			items: [
				{ refundId, orderNo: first },
				{ refundId, orderNo: second },
				{ refundId: uniqueOrderId('RF'), orderNo: first },
			],
			settings: keepGoing,
		});
		const [ok, sameId, samePayment] = result.jsonOf(NODE);
		expect(ok).toMatchObject({ outcome: 'accepted', orderId: refundId });
		expect(sameId).toMatchObject({ outcome: 'invalid', field: 'orderId', rule: 'unique' });
		expect(samePayment).toMatchObject({ outcome: 'invalid', field: 'orderNo', rule: 'unique' });
		expect(String(samePayment.error)).toContain('a payment is refunded once');
		expect(sandbox.appliesReceived(APP_IDS.USD) - before).toBe(1);
	});

	it('refuses to run under Retry On Fail, sending nothing', async () => {
		const before = sandbox.appliesReceived(APP_IDS.USD);
		const result = await runNode(sandbox, {
			currency: 'USD',
			parameters: refund(),
			items: [{ refundId: uniqueOrderId('RF'), orderNo: 'HP1' }],
			settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 },
		});
		expect(result.error?.message).toContain(
			'Collection → Refund does not run with the node setting "Retry On Fail" on',
		);
		expect(sandbox.appliesReceived(APP_IDS.USD)).toBe(before);
	});

	it("takes the Refund ID from its parameter, never from the input item's own orderId", async () => {
		const orderNo = await paidCollection();
		const refundId = uniqueOrderId('RF');
		const out = await runNode(sandbox, {
			currency: 'USD',
			parameters: { ...refund(), fieldsFrom: 'input' },
			items: [{ refundId, orderNo, orderId: 'THE-COLLECTION-ORDER-ID' }],
		});
		expect(out.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted', orderId: refundId });
	});
});
