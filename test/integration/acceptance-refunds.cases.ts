/**
 * A refund's signed answer is an acceptance only when it carries HaiPay's `refundNo` and states no failed or
 * not-found status; any other signed answer is `unknown`, and Resolve Unknown Outcomes asks the refund query, as for
 * a lost answer. Real n8n-core executions over real HTTP to a small gateway that signs with the test platform key.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { uniqueOrderId } from './helpers';
import {
	credentialOf,
	NO_SUCH_ORDER,
	runAgainst,
	signingGateway,
	type Reply,
	type SigningGateway,
} from './signing-gateway';

const QUERY = '/usd/refund/refundQuery';

let answerApply: (body: IDataObject) => Reply;
/** The refund query's answer: by default a signed answer that shows no refund (no refundNo), which settles nothing. */
let answerQuery: (body: IDataObject) => Reply;
let gateway: SigningGateway;

beforeAll(async () => {
	gateway = await signingGateway((path, body) => (path === QUERY ? answerQuery : answerApply)(body));
});

beforeEach(() => {
	answerQuery = (body) => ({ data: { orderId: body.orderId, status: 3, errorMsg: NO_SUCH_ORDER } });
});

afterAll(async () => {
	await gateway.close();
});

function refund(options: INodeParameters): INodeParameters {
	return {
		resource: 'collection',
		operation: 'refund',
		currency: 'USD',
		orderId: '={{ $json.refundId }}',
		orderNo: '={{ $json.orderNo }}',
		options,
	};
}

const resolving = { timeout: 1000, resolveWithin: 2, notFoundAfter: 1 };

async function refundOne(
	options: INodeParameters = resolving,
): Promise<{ item: IDataObject; refundId: string; queries: number }> {
	const refundId = uniqueOrderId('ACC-RF');
	const [item] = await runAgainst(credentialOf(gateway.url, ['USD']), refund(options), [
		{ refundId, orderNo: 'HPC100' },
	]);
	return { item, refundId, queries: gateway.to(QUERY).filter((request) => request.body.orderId === refundId).length };
}

describe('a refund answered, signed, with no refundNo: unknown, and the refund query is asked', () => {
	it.each([
		['{orderId, status 3, "order does not exist"}', { status: 3, errorMsg: NO_SUCH_ORDER }],
		['{orderId, status "FAILED"}', { status: 'FAILED' }],
		['{orderId, orderNo, status "PROCESSING"} (no refundNo)', { orderNo: 'HPC100', status: 'PROCESSING' }],
		['{orderId, orderNo, refundNo ""}', { orderNo: 'HPC100', refundNo: '', status: 'PROCESSING' }],
	])('%s', async (_what, fields) => {
		answerApply = (body) => ({ data: { appId: String(body.appId), orderId: body.orderId, ...fields } });
		const { item, refundId, queries } = await refundOne();
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: refundId });
		expect(item).not.toHaveProperty('verified');
		expect(String(item.error)).toContain('did not settle it');
		expect(queries).toBeGreaterThanOrEqual(1);
	});

	it('with Resolve off: unknown, nothing asked, advice to look it up with Get Refund', async () => {
		answerApply = (body) => ({ data: { orderId: body.orderId, status: 3, errorMsg: NO_SUCH_ORDER } });
		const { item, queries } = await refundOne({ resolveUnknown: false });
		expect(item).toMatchObject({ outcome: 'unknown' });
		expect(String(item.error)).toContain('refundNo');
		expect(String(item.advice)).toContain('Get Refund');
		expect(queries).toBe(0);
	});
});

describe('both sides of the edge', () => {
	it('refundNo and the payment named, no status: accepted at once, verified, nothing asked', async () => {
		answerApply = (body) => ({
			data: { appId: String(body.appId), orderId: body.orderId, orderNo: 'HPC100', refundNo: 'RN1', errorMsg: '' },
		});
		const { item, queries } = await refundOne();
		expect(item).toMatchObject({ outcome: 'accepted', refundNo: 'RN1', verified: true });
		expect(item).not.toHaveProperty('resolvedBy');
		expect(queries).toBe(0);
	});

	it('refundNo present, status "PROCESSING": HaiPay publishes no refund status, so the refund query decides', async () => {
		const shown = { orderNo: 'HPC100', refundNo: 'RN1', status: 'PROCESSING', errorMsg: '' };
		answerApply = (body) => ({ data: { appId: String(body.appId), orderId: body.orderId, ...shown } });
		answerQuery = (body) => ({ data: { appId: String(body.appId), orderId: body.orderId, ...shown } });
		const { item, queries } = await refundOne();
		expect(item).toMatchObject({ outcome: 'accepted', refundNo: 'RN1', status: 'PROCESSING', resolvedBy: 'query' });
		expect(queries).toBe(1);
		const { item: off } = await refundOne({ resolveUnknown: false });
		expect(off).toMatchObject({ outcome: 'unknown' });
		expect(String(off.error)).toContain('is not one HaiPay publishes for a refund it has taken');
	});

	it.each([
		['"FAILED"', 'FAILED'],
		['"refund_fail"', 'refund_fail'],
		['3', 3],
	])(
		'refundNo present with status %s: unknown, and the refund query that shows it settles it',
		async (_what, status) => {
			answerApply = (body) => ({ data: { orderId: body.orderId, orderNo: 'HPC100', refundNo: 'RN2', status } });
			answerQuery = (body) => ({
				data: { orderId: body.orderId, orderNo: 'HPC100', refundNo: 'RN2', status: 'FAILED', errorMsg: 'card closed' },
			});
			const { item, queries } = await refundOne();
			// HaiPay has the refund: the query, which HaiPay asks merchants to rely on, shows how it stands.
			expect(item).toMatchObject({
				outcome: 'accepted',
				resolvedBy: 'query',
				refundNo: 'RN2',
				status: 'FAILED',
				errorMsg: 'card closed',
			});
			expect(queries).toBeGreaterThanOrEqual(1);
		},
	);
});
