/**
 * A create's signed answer is an acceptance only when it says so: it names the row's orderId, carries HaiPay's own
 * `orderNo`, and states no failed or not-found status. Any other signed answer leaves the item `unknown`, to be
 * settled by HaiPay's order query as a lost answer is. Payouts of every currency, USD card and local collections,
 * through real n8n-core executions over real HTTP to a small gateway that signs with the test platform key.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PAYOUT_CURRENCIES } from '../../nodes/shared/contract/rules/payout';
import { LOCAL_COLLECTIONS, MIT_COLLECTION, PAYOUTS, type SandboxCurrency } from '../fixtures/bodies';
import { uniqueOrderId } from './helpers';
import {
	credentialOf,
	NO_SUCH_ORDER,
	runAgainst,
	signingGateway,
	type Reply,
	type SigningGateway,
} from './signing-gateway';

/** What the gateway answers a create with, for the row's orderId; a test sets it. */
let answerCreate: (orderId: string) => Reply;
/** What it answers an order query with: "no such order", signed, unless a test says otherwise. */
let answerQuery: (orderId: string) => Reply;
let gateway: SigningGateway;

beforeAll(async () => {
	gateway = await signingGateway((path, body) =>
		(/\/(pay|collect)\/query$/.test(path) ? answerQuery : answerCreate)(String(body.orderId)),
	);
});

beforeEach(() => {
	answerQuery = (orderId) => ({ data: { orderId, orderNo: '', status: 3, errorMsg: NO_SUCH_ORDER } });
});

afterAll(async () => {
	await gateway.close();
});

const LOCAL = Object.keys(LOCAL_COLLECTIONS) as Array<keyof typeof LOCAL_COLLECTIONS>;
const EVERY: SandboxCurrency[] = [...new Set<SandboxCurrency>([...PAYOUT_CURRENCIES, 'USD', ...LOCAL])];
const credential = () => credentialOf(gateway.url, EVERY);

const resolveOff = { resolveUnknown: false };
const payouts = (options: INodeParameters = resolveOff): INodeParameters => ({
	resource: 'payout',
	operation: 'create',
	currency: '={{ $json.currency }}',
	fieldsFrom: 'input',
	options,
});
const collections: INodeParameters = { ...payouts(), resource: 'collection' };

const payoutRow = (currency: (typeof PAYOUT_CURRENCIES)[number]): IDataObject => ({
	currency,
	orderId: uniqueOrderId(`ACC-${currency}`),
	...PAYOUTS[currency],
});

describe('a payout resent on not_found, answered with the node\'s own earlier signed "no such order"', () => {
	it('is not accepted: it carries no orderNo; queried, it is not_found again, and no item says verified', async () => {
		const row = payoutRow('TZS');
		const resolving = payouts({ timeout: 1000, resolveWithin: 4, notFoundAfter: 1 });
		// The first send is lost (503); HaiPay's signed query answer says it has no such order.
		answerCreate = () => ({ status: 503, text: 'Service Unavailable' });
		const [first] = await runAgainst(credential(), resolving, [row]);
		expect(first).toMatchObject({ outcome: 'not_found', orderId: row.orderId });
		const proof = gateway
			.to('/tzs/pay/query')
			.filter((request) => request.body.orderId === row.orderId)
			.at(-1)?.answered;
		expect(proof).toMatchObject({ orderId: row.orderId, status: 3, sign: expect.any(String) });

		// The resend that not_found advises is answered with that very signed data, replayed.
		answerCreate = () => ({ data: proof as IDataObject });
		const queriesBefore = gateway.to('/tzs/pay/query').length;
		const [resent] = await runAgainst(credential(), resolving, [row]);
		expect(resent.outcome).not.toBe('accepted');
		expect(resent).toMatchObject({ outcome: 'not_found', orderId: row.orderId });
		expect(resent).not.toHaveProperty('verified');
		expect(gateway.to('/tzs/pay/query').length).toBeGreaterThan(queriesBefore);
	});

	it('with Resolve Unknown Outcomes off it is unknown, with advice to query first', async () => {
		const row = payoutRow('TZS');
		answerCreate = (orderId) => ({ data: { orderId, orderNo: '', status: 3, errorMsg: NO_SUCH_ORDER } });
		const [item] = await runAgainst(credential(), payouts(), [row]);
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId });
		expect(String(item.error)).toContain('orderNo');
		expect(String(item.advice)).toContain('before sending it again');
	});
});

describe('payouts of every currency', () => {
	it('a signed {orderId, status 3, "order does not exist"} is unknown for every currency, never accepted', async () => {
		answerCreate = (orderId) => ({ data: { orderId, status: 3, errorMsg: NO_SUCH_ORDER } });
		const rows = PAYOUT_CURRENCIES.map(payoutRow);
		const items = await runAgainst(credential(), payouts(), rows);
		expect(items.map((item) => [item.currency, item.outcome])).toEqual(rows.map((row) => [row.currency, 'unknown']));
	});

	it('a signed {orderId, orderNo} is accepted for every currency, verified', async () => {
		answerCreate = (orderId) => ({ data: { orderId, orderNo: `HP-${orderId}` } });
		const rows = PAYOUT_CURRENCIES.map(payoutRow);
		const items = await runAgainst(credential(), payouts(), rows);
		expect(items.map((item) => [item.outcome, item.verified, item.orderNo])).toEqual(
			rows.map((row) => ['accepted', true, `HP-${String(row.orderId)}`]),
		);
	});
});

describe('both sides of the edge, on a TZS payout', () => {
	it.each([
		['orderNo and status 1', { orderNo: 'HP1', status: 1 }],
		['orderNo and status 0', { orderNo: 'HP1', status: 0 }],
		['orderNo, status 2 and an empty errorMsg', { orderNo: 'HP1', status: 2, errorMsg: '' }],
	])('%s: accepted', async (_what, fields) => {
		answerCreate = (orderId) => ({ data: { orderId, ...fields } });
		const [item] = await runAgainst(credential(), payouts(), [payoutRow('TZS')]);
		expect(item).toMatchObject({ outcome: 'accepted', orderNo: 'HP1', verified: true });
	});

	it.each([
		['orderNo with status 3 and "order does not exist"', { orderNo: 'HP1', status: 3, errorMsg: NO_SUCH_ORDER }],
		['orderNo with status "3"', { orderNo: 'HP1', status: '3' }],
		['orderNo with status "FAILED"', { orderNo: 'HP1', status: 'FAILED' }],
		['orderNo with a status that reads as no number exactly ("03")', { orderNo: 'HP1', status: '03' }],
		['orderNo with status 1 and "order does not exist"', { orderNo: 'HP1', status: 1, errorMsg: NO_SUCH_ORDER }],
		['an empty-string orderNo', { orderNo: '' }],
		['an orderNo of spaces', { orderNo: '   ' }],
		['no orderNo, status 1', { status: 1 }],
	])('%s: unknown', async (_what, fields) => {
		answerCreate = (orderId) => ({ data: { orderId, ...fields } });
		const row = payoutRow('TZS');
		const [item] = await runAgainst(credential(), payouts(), [row]);
		expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
	});

	it('unknown goes to Resolve Unknown Outcomes: the query that shows the order settles it accepted', async () => {
		answerCreate = (orderId) => ({ data: { orderId, orderNo: 'HP7', status: 3, errorMsg: NO_SUCH_ORDER } });
		answerQuery = (orderId) => ({
			data: { orderId, orderNo: 'HP7', amount: '15000', fee: '10.00', status: 1, errorMsg: '' },
		});
		const row = payoutRow('TZS');
		const [item] = await runAgainst(credential(), payouts({ timeout: 1000, resolveWithin: 4, notFoundAfter: 1 }), [
			row,
		]);
		expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderNo: 'HP7', status: 1 });
		expect(gateway.to('/tzs/pay/query').some((request) => request.body.orderId === row.orderId)).toBe(true);
	});
});

describe('collections: the USD card (MIT) and every local currency', () => {
	const collectionRows = (): IDataObject[] => [
		{ currency: 'USD', orderId: uniqueOrderId('ACC-MIT'), ...MIT_COLLECTION },
		...LOCAL.map((currency) => ({
			currency,
			orderId: uniqueOrderId(`ACC-COL-${currency}`),
			...LOCAL_COLLECTIONS[currency],
		})),
	];

	it('a signed {orderId, status 3, "order does not exist"} is unknown for each', async () => {
		answerCreate = (orderId) => ({ data: { orderId, status: 3, errorMsg: NO_SUCH_ORDER } });
		const rows = collectionRows();
		const items = await runAgainst(credential(), collections, rows);
		expect(items.map((item) => [item.currency, item.outcome])).toEqual(rows.map((row) => [row.currency, 'unknown']));
	});

	it('a signed {orderId, orderNo, payUrl} is accepted for each; an empty orderNo is not', async () => {
		answerCreate = (orderId) => ({
			data: { orderId, orderNo: orderId.includes('BRL') ? '' : `HPC-${orderId}`, payUrl: 'https://pay.example/x' },
		});
		const rows = collectionRows();
		const items = await runAgainst(credential(), collections, rows);
		expect(items.map((item) => [item.currency, item.outcome])).toEqual(
			rows.map((row) => [row.currency, row.currency === 'BRL' ? 'unknown' : 'accepted']),
		);
	});
});
