/**
 * The one judge of HaiPay's signed answers (nodes/shared/products/judge.ts): what an answer says of a request
 * (`this`, `other`, `unknown`) and whether a create's answer is an acceptance, on both sides of each edge, per
 * product. The same cases run through real HTTP and n8n-core in test/integration/acceptance-orders.cases.ts,
 * acceptance-refunds.cases.ts and one-judge-*.cases.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { OPERATIONS } from '../../nodes/HaiPay/resources';
import { ENDPOINTS, type Endpoint, type ProductName } from '../../nodes/shared/contract/endpoints';
import { PRODUCTS } from '../../nodes/shared/products';
import { saysFailure } from '../../nodes/shared/products/failureWords';
import { judge, whyNotAccepted } from '../../nodes/shared/products/judge';
import { COLLECTION_ORDER, PAYOUT_ORDER } from '../../nodes/shared/products/order';
import { REFUND } from '../../nodes/shared/products/refund';
import { CANCELLATION, SUBSCRIPTION } from '../../nodes/shared/products/subscription';
import type { Asked, Product } from '../../nodes/shared/products/types';

const signed = (data: IDataObject) => ({ type: 'data' as const, data, verification: 'verified' as const });
const asked: Asked = { ownId: 'PO-1', amount: '100', currencies: ['ZAR'] };
const order = (data: IDataObject, product: Product = PAYOUT_ORDER) =>
	whyNotAccepted(product, signed({ orderId: 'PO-1', ...data }), asked);
const refundAsked: Asked = { ownId: 'RF-1', payment: 'HPC1' };
const refund = (data: IDataObject) => whyNotAccepted(REFUND, signed({ orderId: 'RF-1', ...data }), refundAsked);

describe('an order create', () => {
	it.each([
		["orderNo alone (the contract's answer)", { orderNo: 'HP1' }],
		['orderNo and status 1', { orderNo: 'HP1', status: 1 }],
		['orderNo and status "0"', { orderNo: 'HP1', status: '0' }],
		['orderNo and status 2 with an empty errorMsg', { orderNo: 'HP1', status: 2, errorMsg: '' }],
		['orderNo as a whole number', { orderNo: 20250001 }],
		['orderNo with a null status', { orderNo: 'HP1', status: null }],
		['msg "success", error "00000000"', { orderNo: 'HP1', msg: 'success', error: '00000000' }],
		['the same amount written "100.00"', { orderNo: 'HP1', amount: '100.00' }],
		['the same currency', { orderNo: 'HP1', currency: 'ZAR', payUrl: 'https://pay.example/x' }],
		['a payUrl whose page path says "failed"', { orderNo: 'HP1', payUrl: 'https://pay.example/cashier?back=/failed' }],
		['a referrer beside it (not a message member)', { orderNo: 'HP1', referrer: 'shop' }],
	])('accepted: %s', (_what, data) => {
		expect(order(data)).toBeUndefined();
	});

	it.each([
		['no orderNo', { status: 1 }, /carries no orderNo/],
		['an orderNo of spaces', { orderNo: ' \t' }, /carries no orderNo/],
		['an orderNo that is a rounded number', { orderNo: 2 ** 60 }, /carries no orderNo/],
		['status 3', { orderNo: 'HP1', status: 3 }, /status 3 is not one HaiPay publishes for an order it has taken/],
		['status "03"', { orderNo: 'HP1', status: '03' }, /status "03" is not one HaiPay publishes/],
		['status 2.5', { orderNo: 'HP1', status: 2.5 }, /status 2.5 is not one/],
		['status "SUCCESS"', { orderNo: 'HP1', status: 'SUCCESS' }, /status "SUCCESS" is not one/],
		['status "DENIED"', { orderNo: 'HP1', status: 'DENIED' }, /status "DENIED"/],
		['fullwidth "ＦＡＩＬＥＤ"', { orderNo: 'HP1', status: 'ＦＡＩＬＥＤ' }, /not one HaiPay publishes/],
		["status 4 (a collection's, never a payout's)", { orderNo: 'HP1', status: 4 }, /status 4 is not one/],
		['payStatus "FAILED" beside status 2', { orderNo: 'HP1', status: 2, payStatus: 'FAILED' }, /payStatus/],
		['orderStatus "3" beside status 2', { orderNo: 'HP1', status: 2, orderStatus: '3' }, /orderStatus/],
		['errorMsg "insufficient balance"', { orderNo: 'HP1', errorMsg: 'insufficient balance' }, /errorMsg/],
		['errorMsg "余额不足"', { orderNo: 'HP1', errorMsg: '余额不足' }, /errorMsg/],
		['msg "order does not exist"', { orderNo: 'HP1', msg: 'order does not exist' }, /its msg/],
		['message "FAILED"', { orderNo: 'HP1', message: 'FAILED' }, /its message/],
		[
			'a remark saying it failed, not a link',
			{ orderNo: 'HP1', remark: 'payout blocked by risk' },
			/remark.*says something failed/,
		],
		['another amount', { orderNo: 'HP1', amount: '999.00' }, /for the amount 999.00, not 100/],
		['an amount that is no decimal', { orderNo: 'HP1', amount: '1e2' }, /amount "1e2" is not a decimal/],
		['another currency', { orderNo: 'HP1', currency: 'USD' }, /is in USD, not ZAR/],
	])('not accepted: %s', (_what, data, why) => {
		expect(order(data)).toMatch(why);
	});

	it('a collection may end partly or over-collected, a payout may not; neither is an acceptance', () => {
		expect(judge(COLLECTION_ORDER, { orderId: 'PO-1', orderNo: 'HP1', status: 4 }, asked)).toEqual({
			verdict: 'this',
			state: 'done',
		});
		expect(judge(PAYOUT_ORDER, { orderId: 'PO-1', orderNo: 'HP1', status: 4 }, asked)).toMatchObject({
			verdict: 'this',
			state: 'unlisted',
		});
		expect(order({ orderNo: 'HP1', status: 4 }, COLLECTION_ORDER)).toMatch(/status 4/);
	});

	it("names the row's own orderId, and no other", () => {
		expect(whyNotAccepted(PAYOUT_ORDER, signed({ orderNo: 'HP1' }), asked)).toBe(
			"the answer does not name the request's orderId",
		);
		expect(whyNotAccepted(PAYOUT_ORDER, signed({ orderId: 'PO-2', orderNo: 'HP1' }), asked)).toBe(
			'the answer is about the orderId "PO-2", not "PO-1"',
		);
		expect(whyNotAccepted(PAYOUT_ORDER, { type: 'text', text: 'ok', verification: 'unverified' }, asked)).toMatch(
			/without a data object/,
		);
	});
});

describe('what the judge says of a query answer', () => {
	const of = (data: IDataObject) => judge(PAYOUT_ORDER, { orderId: 'PO-1', orderNo: 'HP1', ...data }, asked);

	it.each([
		['the same amount, paid', { amount: '100.00', status: 2 }, { verdict: 'this', state: 'done' }],
		['the same amount, failed', { amount: '100', status: 3 }, { verdict: 'this', state: 'failed' }],
		['processing', { status: '1' }, { verdict: 'this', state: 'pending' }],
		['no status', {}, { verdict: 'this', state: 'none' }],
	])("this request's: %s", (_what, data, verdict) => {
		expect(of(data)).toEqual(verdict);
	});

	it("another amount by decimal value is another request's; 100.001 is not 100", () => {
		expect(of({ amount: '100.001', status: 2 })).toMatchObject({ verdict: 'other' });
		expect(of({ amount: '0100.0', status: 2 })).toMatchObject({ verdict: 'this' });
	});

	it('a status HaiPay publishes for no order: at HaiPay, where it stands unknown', () => {
		expect(of({ status: 'DENIED' })).toMatchObject({ verdict: 'this', state: 'unlisted' });
	});
});

describe('a refund', () => {
	it('accepted: refundNo of this Refund ID, of the payment asked, with no status', () => {
		expect(refund({ orderNo: 'HPC1', refundNo: 'RN1', errorMsg: '' })).toBeUndefined();
	});

	it.each([
		['no refundNo', { orderNo: 'HPC1', status: 'PROCESSING' }, /carries no refundNo/],
		['no payment named', { refundNo: 'RN1' }, /names no collection \(orderNo\)/],
		['another payment', { orderNo: 'HPC2', refundNo: 'RN1' }, /for the collection HPC2, not HPC1/],
		['any status: none is published', { orderNo: 'HPC1', refundNo: 'RN1', status: 'PROCESSING' }, /status/],
		['errorMsg "可退金额不足"', { orderNo: 'HPC1', refundNo: 'RN1', errorMsg: '可退金额不足' }, /errorMsg/],
	])('not accepted: %s', (_what, data, why) => {
		expect(refund(data)).toMatch(why);
	});

	it('a refund query showing it in any status is this refund: HaiPay publishes no refund statuses', () => {
		const data = { orderId: 'RF-1', orderNo: 'HPC1', refundNo: 'RN1', status: 'WHATEVER' };
		expect(judge(REFUND, data, refundAsked)).toEqual({ verdict: 'this', state: 'unpublished' });
	});
});

describe('a subscription and its cancel', () => {
	const sub: Asked = { ownId: 'SUB-1', amount: '9.99', currencies: ['USD'] };
	const named = { subscriptionOrderId: 'SUB-1', subscriptionNo: 'SN1' };

	it('accepted only with the example\'s status "2", or none, at the amount asked', () => {
		expect(whyNotAccepted(SUBSCRIPTION, signed({ ...named, status: '2', amount: '9.99' }), sub)).toBeUndefined();
		expect(whyNotAccepted(SUBSCRIPTION, signed(named), sub)).toBeUndefined();
		expect(whyNotAccepted(SUBSCRIPTION, signed({ ...named, status: '3' }), sub)).toMatch(/status "3"/);
		expect(whyNotAccepted(SUBSCRIPTION, signed({ ...named, amount: '99.90' }), sub)).toMatch(/99.90, not 9.99/);
	});

	it('a cancel is shown only in the cancelled status "4"', () => {
		const cancel: Asked = { ownId: 'SN1' };
		expect(whyNotAccepted(CANCELLATION, signed({ subscriptionNo: 'SN1', status: '4' }), cancel)).toBeUndefined();
		expect(whyNotAccepted(CANCELLATION, signed({ subscriptionNo: 'SN1', status: '1' }), cancel)).toMatch(/status "1"/);
		expect(whyNotAccepted(CANCELLATION, signed({ subscriptionNo: 'SN1' }), cancel)).toMatch(/does not show/);
	});
});

describe('failure text, a second line behind the allow-lists', () => {
	it.each([
		'FAILED',
		'refundFailed',
		'ORDER_NOT_FOUND',
		'no such order',
		'ＦＡＩＬＥＤ',
		'DENIED',
		'risk control blocked',
		'支付失败',
		'账户冻结',
		'余额不足',
		'订单无效',
	])('%s: a failure', (value) => {
		expect(saysFailure(value)).toBe(true);
	});

	it.each(['PROCESSING', 'SUCCESS', '', 'paid', 'failover-free', 'NOTE', 'notify sent'])('%s: no failure', (value) => {
		expect(saysFailure(value)).toBe(false);
	});
});

describe('every create declares the product it makes', () => {
	const endpoints = Object.entries(ENDPOINTS) as Array<[string, Endpoint<ProductName>]>;

	it.each(endpoints.filter(([, endpoint]) => endpoint.kind !== 'read'))(
		"%s: its answer carries its product's number",
		(_name, endpoint) => {
			if (endpoint.kind === 'read') throw new Error('a sent-once request was expected');
			expect(endpoint.response).toContain(PRODUCTS[endpoint.makes].identifier);
		},
	);

	it("each create operation of the node makes its endpoint's product", () => {
		const creates = OPERATIONS.flatMap((operation) =>
			operation.kind !== 'read' ? [[`${operation.resource}.${operation.operation}`, operation.makes]] : [],
		);
		expect(creates).toEqual([
			['payout.create', 'payoutOrder'],
			['payout.check', 'payoutOrder'],
			['collection.create', 'collectionOrder'],
			['collection.refund', 'refund'],
			['subscription.create', 'subscription'],
			['subscription.cancel', 'cancellation'],
			['collection.createCashier', 'cashierOrder'],
		]);
	});
});
