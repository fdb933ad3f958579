/**
 * HaiPay's "already exists" refusal (HTTP 200, status "0") is not signed, so it proves nothing by itself: the product's
 * own signed query settles it. An order the query shows is the `duplicate` (named on the item); a signed "no such
 * order", where the currency's query publishes one, is `not_found`; a query that shows nothing where none is
 * published (USDT payouts, card refunds, subscriptions) leaves the outcome `unknown`, never `duplicate`. Real n8n-core
 * executions over real HTTP to a small gateway that signs with the test platform key.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PAYOUTS, SUBSCRIPTION, type PayoutCurrency } from '../fixtures/bodies';
import { uniqueOrderId } from './helpers';
import {
	credentialOf,
	NO_SUCH_ORDER,
	runAgainst,
	pathGatewayPerFile,
	type Reply,
	type SigningGateway,
} from './signing-gateway';

/** HaiPay's refusal envelope for a repeated ID: not signed, no data. */
const ALREADY_EXISTS: Reply = {
	status: 200,
	text: JSON.stringify({ status: '0', error: 'xxxx', msg: 'orderId already exists' }),
};

/** What the gateway answers each path with; a test sets the ones it uses. */
const { answers, gateway: running } = pathGatewayPerFile();
let gateway: SigningGateway;

beforeAll(() => {
	gateway = running();
});

const resolveOn = { timeout: 1000, resolveWithin: 4, notFoundAfter: 1 };

/** The requests to `path` that carry `member` = `id`. */
const asked = (path: string, id: unknown, member = 'orderId') =>
	gateway.to(path).filter((request) => request.body[member] === id);

/** A payout refused "already exists", its order query answered with `shown` beside the orderId asked. */
async function refusedPayout(currency: PayoutCurrency, shown: IDataObject) {
	const ccy = currency.toLowerCase();
	answers[`/${ccy}/pay/apply`] = () => ALREADY_EXISTS;
	answers[`/${ccy}/pay/query`] = (body) => ({ data: { orderId: body.orderId, ...shown } });
	const row = { orderId: uniqueOrderId(`REF-${currency}`), ...PAYOUTS[currency] };
	const parameters = { resource: 'payout', operation: 'create', currency, fieldsFrom: 'input', options: resolveOn };
	const [item] = await runAgainst(credentialOf(gateway.url, [currency]), parameters, [row]);
	return {
		item,
		orderId: row.orderId,
		applies: asked(`/${ccy}/pay/apply`, row.orderId).length,
		queries: asked(`/${ccy}/pay/query`, row.orderId).length,
	};
}

describe('4. a payout refused "already exists" is settled by its signed order query', () => {
	it('(a) TZS, the query answers signed "no such order": not_found, not duplicate; the query was asked', async () => {
		const { item, orderId, applies, queries } = await refusedPayout('TZS', { status: 3, errorMsg: NO_SUCH_ORDER });
		expect(item.outcome).not.toBe('duplicate');
		expect(item).toMatchObject({ outcome: 'not_found', errorType: 'not_found', orderId });
		expect(queries).toBeGreaterThanOrEqual(1);
		expect(applies).toBe(1);
	});

	it("(b) TZS, the query shows the order HP-EXIST for the row's amount: duplicate, naming HP-EXIST", async () => {
		const shown = { orderNo: 'HP-EXIST', amount: PAYOUTS.TZS.amount, status: 2, errorMsg: '' };
		const { item, orderId, applies, queries } = await refusedPayout('TZS', shown);
		expect(item).toMatchObject({ outcome: 'duplicate', errorType: 'duplicate', orderId });
		expect(JSON.stringify(item)).toContain('"HP-EXIST"');
		expect(queries).toBeGreaterThanOrEqual(1);
		expect(applies).toBe(1);
	});

	it('(c) USDT, the query answers status 3 with no orderNo (USDT publishes no "no such order"): unknown', async () => {
		const { item, orderId, applies, queries } = await refusedPayout('USDT', { status: 3, errorMsg: NO_SUCH_ORDER });
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId });
		expect(queries).toBeGreaterThanOrEqual(1);
		expect(applies).toBe(1);
	});
});

describe('4. a refund and a subscription refused "already exists" are settled by their own queries', () => {
	it('(d) a card refund: the refund query is asked; showing no refund, unknown, not duplicate', async () => {
		const QUERY = '/usd/refund/refundQuery';
		answers['/usd/refund/apply'] = () => ALREADY_EXISTS;
		answers[QUERY] = (body) => ({ data: { orderId: body.orderId, status: 3, errorMsg: NO_SUCH_ORDER } });
		const refundId = uniqueOrderId('REF-RF');
		const parameters: INodeParameters = {
			resource: 'collection',
			operation: 'refund',
			currency: 'USD',
			orderId: '={{ $json.refundId }}',
			orderNo: '={{ $json.orderNo }}',
			options: resolveOn,
		};
		const [item] = await runAgainst(credentialOf(gateway.url, ['USD']), parameters, [{ refundId, orderNo: 'HPC100' }]);
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: refundId });
		expect(asked(QUERY, refundId).length).toBeGreaterThanOrEqual(1);
		expect(asked('/usd/refund/apply', refundId)).toHaveLength(1);
	});

	it('(e) a subscription: /subscription/query is asked; showing no subscription, unknown', async () => {
		const QUERY = '/subscription/query';
		answers['/subscription/apply'] = () => ALREADY_EXISTS;
		answers[QUERY] = (body) => ({
			data: { subscriptionOrderId: body.subscriptionOrderId, status: '3', errorMsg: 'subscription does not exist' },
		});
		const subscriptionOrderId = uniqueOrderId('REF-SUB');
		const parameters = {
			resource: 'subscription',
			operation: 'create',
			currency: 'USD',
			subscriptionOrderId,
			...SUBSCRIPTION,
			options: resolveOn,
		} as INodeParameters;
		const [item] = await runAgainst(credentialOf(gateway.url, ['USD']), parameters, [{}]);
		// A failure item names the request's own ID as orderId (execute/failures.ts), here the subscriptionOrderId.
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: subscriptionOrderId });
		expect(asked(QUERY, subscriptionOrderId, 'subscriptionOrderId').length).toBeGreaterThanOrEqual(1);
		expect(asked('/subscription/apply', subscriptionOrderId, 'subscriptionOrderId')).toHaveLength(1);
	});
});
