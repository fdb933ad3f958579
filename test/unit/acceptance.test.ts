/**
 * The one rule that decides whether a create's answer is HaiPay's acceptance (nodes/shared/gateway/acceptance.ts),
 * on both sides of each of its edges, and the declarations every create takes it by. The same cases run through real
 * HTTP and n8n-core in test/integration/acceptance-orders.cases.ts and acceptance-refunds.cases.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { OPERATIONS } from '../../nodes/HaiPay/resources';
import { ORDER_ACCEPTANCE, REFUND_ACCEPTANCE } from '../../nodes/shared/contract/acceptance';
import { ENDPOINTS, type Endpoint } from '../../nodes/shared/contract/endpoints';
import { saysFailure, whyNotAccepted } from '../../nodes/shared/gateway/acceptance';

const signed = (data: IDataObject) => ({ type: 'data' as const, data, verification: 'verified' as const });
const order = (data: IDataObject) => whyNotAccepted(signed({ orderId: 'PO-1', ...data }), 'PO-1', ORDER_ACCEPTANCE);
const refund = (data: IDataObject) => whyNotAccepted(signed({ orderId: 'RF-1', ...data }), 'RF-1', REFUND_ACCEPTANCE);

describe('an order create', () => {
	it.each([
		["orderNo alone (the contract's answer)", { orderNo: 'HP1' }],
		['orderNo and status 1', { orderNo: 'HP1', status: 1 }],
		['orderNo and status "1"', { orderNo: 'HP1', status: '1' }],
		['orderNo as a whole number', { orderNo: 20250001 }],
		['orderNo with an empty errorMsg and a null status', { orderNo: 'HP1', errorMsg: '', status: null }],
		['orderNo with a word status that says nothing of failure', { orderNo: 'HP1', status: 'PROCESSING' }],
	])('accepted: %s', (_what, data) => {
		expect(order(data)).toBeUndefined();
	});

	it.each([
		['no orderNo', { status: 1 }, /carries no orderNo/],
		['an empty orderNo', { orderNo: '' }, /carries no orderNo/],
		['an orderNo of spaces', { orderNo: ' \t' }, /carries no orderNo/],
		['an orderNo that is a rounded number', { orderNo: 2 ** 60 }, /carries no orderNo/],
		['an orderNo that is an object', { orderNo: { no: 'HP1' } }, /carries no orderNo/],
		[
			'status 3 with "order does not exist"',
			{ orderNo: 'HP1', status: 3, errorMsg: 'order does not exist' },
			/status 3 is HaiPay's "failed"/,
		],
		['status "3"', { orderNo: 'HP1', status: '3' }, /status 3/],
		['status "FAILED"', { orderNo: 'HP1', status: 'FAILED' }, /says the request failed/],
		[
			'status "03", which no status is written as',
			{ orderNo: 'HP1', status: '03' },
			/not a value HaiPay's statuses are written as/,
		],
		['status 2.5', { orderNo: 'HP1', status: 2.5 }, /not a value/],
		['status [1]', { orderNo: 'HP1', status: [1] }, /not a value/],
		['status true', { orderNo: 'HP1', status: true }, /not a value/],
		[
			'status 1 with errorMsg "order does not exist"',
			{ orderNo: 'HP1', status: 1, errorMsg: 'order does not exist' },
			/errorMsg "order does not exist"/,
		],
		['errorMsg "订单不存在"', { orderNo: 'HP1', errorMsg: '订单不存在' }, /errorMsg/],
	])('not accepted: %s', (_what, data, why) => {
		expect(order(data)).toMatch(why);
	});

	it.each([0, 2, 4, 5, -1])('accepted: orderNo and status %s, none of them failed', (status) => {
		expect(order({ orderNo: 'HP1', status })).toBeUndefined();
	});

	it("names the row's own orderId, and no other", () => {
		expect(whyNotAccepted(signed({ orderNo: 'HP1' }), 'PO-1', ORDER_ACCEPTANCE)).toBe(
			"the answer does not name the request's orderId",
		);
		expect(whyNotAccepted(signed({ orderId: 'PO-2', orderNo: 'HP1' }), 'PO-1', ORDER_ACCEPTANCE)).toBe(
			'the answer is about the orderId "PO-2", not "PO-1"',
		);
		expect(whyNotAccepted({ type: 'text', text: 'ok', verification: 'unverified' }, 'PO-1', ORDER_ACCEPTANCE)).toMatch(
			/without a data object/,
		);
	});
});

describe('a refund create', () => {
	it('accepted with refundNo and a status that is not a failure', () => {
		expect(refund({ orderNo: 'HPC1', refundNo: 'RN1', status: 'PROCESSING', errorMsg: '' })).toBeUndefined();
		expect(refund({ refundNo: 'RN1', status: 'SUCCESS' })).toBeUndefined();
	});

	it.each([
		['{status 3, "order does not exist"}', { status: 3, errorMsg: 'order does not exist' }, /carries no refundNo/],
		['{status "FAILED"}', { status: 'FAILED' }, /carries no refundNo/],
		['an orderNo but no refundNo', { orderNo: 'HPC1', status: 'PROCESSING' }, /carries no refundNo/],
		['refundNo with status "FAILED"', { refundNo: 'RN1', status: 'FAILED' }, /says the request failed/],
		['refundNo with status "refundFailed"', { refundNo: 'RN1', status: 'refundFailed' }, /says the request failed/],
	])('not accepted: %s', (_what, data, why) => {
		expect(refund(data)).toMatch(why);
		expect(refund(data)).toContain('refund');
	});

	it('speaks of the Refund ID, not of an orderId', () => {
		expect(whyNotAccepted(signed({ refundNo: 'RN1' }), 'RF-1', REFUND_ACCEPTANCE)).toBe(
			"the answer does not name the request's Refund ID",
		);
	});
});

describe('what a status or a message says', () => {
	it.each([
		'FAILED',
		'fail',
		'Failure',
		'REFUND_FAIL',
		'refundFailed',
		'ORDER_NOT_FOUND',
		'order not exist',
		'Order does not exist',
		'no such order',
		'NOTFOUND',
		'rejected',
		'CANCELLED',
		'Error',
		'支付失败',
		'订单不存在',
	])('%s: a failure', (value) => {
		expect(saysFailure(value)).toBe(true);
	});

	it.each([
		'PROCESSING',
		'SUCCESS',
		'success',
		'PENDING',
		'',
		'paid',
		'failover-free',
		'NOTE',
		'Nothing found missing',
		'notify sent',
	])('%s: no failure', (value) => {
		expect(saysFailure(value)).toBe(false);
	});
});

describe('every create takes the rule by declaring its identifier', () => {
	const endpoints = Object.entries(ENDPOINTS) as Array<[string, Endpoint]>;

	it.each(endpoints.filter(([, endpoint]) => endpoint.kind !== 'read'))(
		'%s declares an identifier its answer carries',
		(_name, endpoint) => {
			if (endpoint.kind === 'read') throw new Error('a sent-once request was expected');
			expect(endpoint.response).toContain(endpoint.accepts.identifier);
		},
	);

	it('payouts and both collections are orders (orderNo); refunds are refunds (refundNo)', () => {
		expect([ENDPOINTS.payoutApply.accepts, ENDPOINTS.mitApply.accepts, ENDPOINTS.localCollectionApply.accepts]).toEqual(
			[ORDER_ACCEPTANCE, ORDER_ACCEPTANCE, ORDER_ACCEPTANCE],
		);
		expect(ENDPOINTS.refundApply.accepts).toBe(REFUND_ACCEPTANCE);
	});

	it("each create operation of the node carries its endpoint's declaration", () => {
		const creates = OPERATIONS.flatMap((operation) =>
			operation.kind !== 'read' ? [[`${operation.resource}.${operation.operation}`, operation.accepts.identifier]] : [],
		);
		expect(creates).toEqual([
			['payout.create', 'orderNo'],
			['payout.check', 'orderNo'],
			['collection.create', 'orderNo'],
			['collection.refund', 'refundNo'],
			['subscription.create', 'subscriptionNo'],
			['subscription.cancel', 'subscriptionNo'],
			['collection.createCashier', 'orderNo'],
		]);
	});
});
