/**
 * USDT and USDC collections (Collection → Create) in real n8n-core executions against the sandbox over HTTP: the
 * deposit address and its 60-minute life on the item, the pricing currency sent as HaiPay's `currency`, each rule on
 * both sides of its edge, and a gateway that lies, echoes the request or answers too late, each settled by the
 * coin's own collection query. No page publishes a "no such order" answer for it, so an open collection is never
 * called not_found.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { COIN_COLLECTION } from '../fixtures/bodies';
import { until } from '../sandbox/helpers';
import { NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

type Coin = 'USDT' | 'USDC';
const HOUR = 60 * 60 * 1000;

const running = sandboxPerFile({ manual: true, hangMs: 4_000 });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const keepGoing = { onError: 'continueRegularOutput' };

function row(coin: Coin, overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId(coin), ...COIN_COLLECTION, ...overrides };
}

function collect(coin: Coin, options: IDataObject = {}): INodeParameters {
	return {
		resource: 'collection',
		operation: 'create',
		currency: coin,
		fieldsFrom: 'input',
		options: { timeout: 1000, resolveWithin: 20, notFoundAfter: 1, ...options },
	};
}

async function create(coin: Coin, rows: IDataObject[], options: IDataObject = {}): Promise<IDataObject[]> {
	const result = await runNode(sandbox, {
		currency: coin,
		parameters: collect(coin, options),
		items: rows,
		settings: keepGoing,
	});
	return result.jsonOf(NODE);
}

const ordersWith = (orderId: unknown) => sandbox.orders.filter((order) => order.orderId === orderId);
const sent = (coin: Coin, orderId: unknown) =>
	sandbox.requests
		.filter((request) => request.path === `/${coin.toLowerCase()}/collect/apply` && request.orderId === orderId)
		.map((request) => request.body as IDataObject);

describe('a stablecoin collection', () => {
	it.each(['USDT', 'USDC'] as const)(
		'%s: accepted with its single-use deposit address and when it expires; priced in the coin itself by default',
		async (coin) => {
			const entry = row(coin);
			const before = Date.now();
			const [item] = await create(coin, [entry]);
			const after = Date.now();
			const [order] = ordersWith(entry.orderId);
			expect(item).toMatchObject({
				outcome: 'accepted',
				currency: coin,
				orderNo: order.orderNo,
				depositAddress: order.local?.bankNo,
				addressSingleUse: true,
				verified: true,
			});
			expect(String(item.depositAddress)).toMatch(/^T/);
			const expires = Date.parse(String(item.addressExpiresAt));
			expect(expires).toBeGreaterThanOrEqual(before + HOUR);
			expect(expires).toBeLessThanOrEqual(after + HOUR);
			expect(sent(coin, entry.orderId)).toEqual([expect.objectContaining({ currency: coin, clientType: 'WEB' })]);
			expect(sent(coin, entry.orderId)[0]).not.toHaveProperty('pricedIn');
		},
	);

	it('USDC priced in USD: HaiPay is sent currency USD, the amount as given', async () => {
		const entry = row('USDC', { pricedIn: 'USD', amount: '25.5' });
		const [item] = await create('USDC', [entry]);
		expect(item).toMatchObject({ outcome: 'accepted' });
		expect(sent('USDC', entry.orderId)).toEqual([expect.objectContaining({ currency: 'USD', amount: '25.5' })]);
	});
});

describe('rules on both sides of each edge, in one run', () => {
	it('valid rows reach the sandbox and its own schema takes them; the others are invalid and never sent', async () => {
		const valid = [
			{ amount: '0.01' },
			{ amount: '5000000' },
			{ amount: '12.3' },
			{ clientType: 'MINIAPP' },
			{ partnerUserId: 'user-7' },
			{ pricedIn: 'EUR' },
		];
		const invalid: Array<[IDataObject, string]> = [
			[{ amount: '0.00' }, 'amount'],
			[{ amount: '1.234' }, 'amount'],
			[{ amount: '1,000' }, 'amount'],
			[{ clientType: 'TV' }, 'clientType'],
			[{ name: 'Maria' }, 'name'],
			[{ callBackUrl: '' }, 'callBackUrl'],
			[{ pricedIn: 'usd' }, 'pricedIn'],
			[{ partnerUserId: 'a b' }, 'partnerUserId'],
		];
		const rows = [
			...valid.map((overrides) => row('USDT', overrides)),
			...invalid.map(([overrides]) => row('USDT', overrides)),
		];
		const before = sandbox.appliesReceived();
		const out = await create('USDT', rows);
		expect(out.map((item) => item.outcome)).toEqual([...valid.map(() => 'accepted'), ...invalid.map(() => 'invalid')]);
		expect(out.slice(valid.length).map((item) => item.field)).toEqual(invalid.map(([, field]) => field));
		expect(sandbox.appliesReceived() - before).toBe(valid.length);
	});

	it("the page's range is HaiPay's to apply: 5,000,000.01 is sent once and refused; unsigned, and unprovable by the query, it stays unknown", async () => {
		const entry = row('USDT', { amount: '5000000.01' });
		const [item] = await create('USDT', [entry], { resolveWithin: 3 });
		// A refusal is not signed, and the USDT query's status 3 is no proof of absence: only a person can close it.
		expect(item).toMatchObject({ outcome: 'unknown' });
		expect(sent('USDT', entry.orderId)).toHaveLength(1);
		expect(ordersWith(entry.orderId)).toHaveLength(0);
	});
});

describe("a hostile gateway, settled by the coin's own collection query", () => {
	it.each(['USDT', 'USDC'] as const)(
		'%s: a signed lie ("no such order") answering the collection it made is not an acceptance; the query shows the order',
		async (coin) => {
			const lie = row(coin);
			sandbox.control.addFault({
				type: 'replaceData',
				path: `/${coin.toLowerCase()}/collect/apply`,
				times: 1,
				data: { orderId: String(lie.orderId), status: 3, errorMsg: 'order does not exist' },
			});
			const [item] = await create(coin, [lie]);
			const [order] = ordersWith(lie.orderId);
			expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderNo: order.orderNo, verified: true });
			expect(
				sandbox.requests.some(
					(request) => request.path === `/${coin.toLowerCase()}/collect/query` && request.orderId === lie.orderId,
				),
			).toBe(true);
			expect(ordersWith(lie.orderId)).toHaveLength(1);
		},
	);

	it('USDT: an answer echoing the request (signed, no orderNo) is not an acceptance; the query settles it', async () => {
		const echoed = row('USDT');
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/usdt/collect/apply',
			times: 1,
			data: { ...echoed, currency: 'USDT' },
		});
		const [item] = await create('USDT', [echoed]);
		expect(item).toMatchObject({
			outcome: 'accepted',
			resolvedBy: 'query',
			verified: true,
			orderNo: ordersWith(echoed.orderId)[0].orderNo,
		});
		expect(sent('USDT', echoed.orderId)).toHaveLength(1);
	});

	it('USDC: a collection answered after the time-out, absent from the first queries, is waited for, never called not_found', async () => {
		const slow = row('USDC');
		sandbox.control.addFault({ type: 'latency', when: 'before', path: '/usdc/collect/apply', times: 1, ms: 2_500 });
		const [item] = await create('USDC', [slow], { resolveWithin: 15 });
		expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', verified: true });
		expect(ordersWith(slow.orderId)).toHaveLength(1);
		// Logged once its signed answer is out, which can be after the query found the order: wait for the log.
		await until(() => sent('USDC', slow.orderId).length > 0);
		expect(sent('USDC', slow.orderId)).toHaveLength(1);
	});

	it.each(['USDT', 'USDC'] as const)(
		"%s: a collection lost before HaiPay took it stays unknown (the query's status 3 proves nothing), never resent",
		async (coin) => {
			const lost = row(coin);
			sandbox.control.addFault({
				type: 'drop',
				when: 'before',
				path: `/${coin.toLowerCase()}/collect/apply`,
				times: 1,
			});
			const [item] = await create(coin, [lost], { resolveWithin: 3 });
			expect(item).toMatchObject({ outcome: 'unknown' });
			expect(String(item.error)).toMatch(/publishes no "no such order" answer/);
			expect(ordersWith(lost.orderId)).toHaveLength(0);
			expect(sent(coin, lost.orderId).length).toBeLessThanOrEqual(1);
		},
	);
});
