/**
 * Resolve Unknown Outcomes says only what HaiPay proved: attacks by a slow gateway whose order lands after the
 * node's time-out, a proxy that answers 503 and delivers the create later, a path that replays signed answers that
 * name no order, and one that answers "refused" to a create it delivered. Real n8n-core executions against the
 * sandbox over HTTP; the proxy is a real HTTP server in front of it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { credentialFor, NODE, sandboxPerFile, payoutFromItem, runNode, TZS_FIELDS, tzsRow } from './helpers';

const running = sandboxPerFile({ manual: true, hangMs: 4_000 });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const createTzs = payoutFromItem('TZS', TZS_FIELDS);
const keepGoing = { onError: 'continueRegularOutput' };
const resolving = (options: Record<string, unknown> = {}): INodeParameters => ({
	...createTzs,
	options: { timeout: 1000, resolveWithin: 20, notFoundAfter: 2, ...options },
});

function ordersWith(orderId: unknown) {
	return sandbox.orders.filter((order) => order.orderId === orderId);
}

function queriesOf(orderId: unknown) {
	return sandbox.requests.filter((request) => request.path === '/tzs/pay/query' && request.orderId === orderId);
}

async function createOne(
	row: IDataObject,
	parameters = resolving(),
	credential: ICredentialDataDecryptedObject = credentialFor(sandbox, 'TZS'),
) {
	const result = await runNode(sandbox, { parameters, items: [row], settings: keepGoing, credential });
	return result.jsonOf(NODE)[0];
}

describe('an answer that names no order settles nothing', () => {
	const BALANCE = { bal: '1000000.00', availableBal: '1000000.00', frzBal: '0.00', unSettleBal: '0.00' };

	it.each([
		['a replayed balance answer', () => BALANCE],
		['{amount, status: 2}', () => ({ amount: '15000', status: 2 })],
		[
			'{orderNo, amount, status: 2} without the orderId',
			() => ({ orderNo: 'HP-REPLAYED-1', amount: '15000', status: 2 }),
		],
		[
			'an order answer without its orderNo',
			(orderId: string) => ({ orderId, amount: '15000', status: 2, errorMsg: '' }),
		],
	])('a create that timed out, queried and answered with %s (signed), stays unknown', async (_what, answer) => {
		// The create is lost before HaiPay handles it: the payout was never made.
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		const row = tzsRow();
		sandbox.control.addFault({ type: 'replaceData', path: '/tzs/pay/query', data: answer(String(row.orderId)) });
		const item = await createOne(row, resolving({ resolveWithin: 3 }));
		expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
		expect(item).not.toHaveProperty('orderNo');
		expect(item).not.toHaveProperty('verified');
		expect(String(item.error)).toContain('did not settle it');
		expect(ordersWith(row.orderId)).toHaveLength(0);
	});

	it('an unsigned answer (no HaiPay public key in the credential) proves nothing: unknown at once, nothing queried', async () => {
		const row = tzsRow({ name: 'Server Error' });
		const credential = credentialFor(sandbox, 'TZS', { haipayPublicKey: '' });
		const item = await createOne(row, resolving(), credential);
		expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
		expect(String(item.error)).toContain('no HaiPay public key');
		expect(queriesOf(row.orderId)).toHaveLength(0);
		expect(ordersWith(row.orderId)).toHaveLength(1);
	});

	it("the genuine answer naming the orderId and HaiPay's orderNo still settles it: accepted", async () => {
		const row = tzsRow({ name: 'Server Error' });
		const item = await createOne(row);
		const [order] = ordersWith(row.orderId);
		expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderNo: order.orderNo, verified: true });
	});
});

describe('not_found only when the order cannot still be on its way', () => {
	it('a gateway that stores the order 3 s after the request, with a 1 s time-out: accepted, not not_found', async () => {
		sandbox.control.addFault({ type: 'latency', when: 'before', path: '/tzs/pay/apply', ms: 3_000, times: 1 });
		const row = tzsRow();
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const item = await createOne(row, resolving({ notFoundAfter: 6 }));
		expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderId: row.orderId });
		expect(ordersWith(row.orderId)).toHaveLength(1);
		expect(sandbox.appliesReceived(APP_IDS.TZS) - before).toBe(1);
		// The first query came while the create was still on its way, and HaiPay said, signed, "no such order".
		expect(queriesOf(row.orderId).length).toBeGreaterThanOrEqual(2);
	});

	it('a proxy that answers 503 and delivers the create once the first query has been answered: accepted', async () => {
		const proxy = await delayingProxy(sandbox.baseUrl);
		try {
			const row = tzsRow();
			const credential = credentialFor(sandbox, 'TZS', { baseUrl: proxy.url });
			const item = await createOne(row, resolving({ notFoundAfter: 3 }), credential);
			expect(proxy.delivered).toBe(1);
			expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderId: row.orderId });
			expect(ordersWith(row.orderId)).toHaveLength(1);
		} finally {
			await proxy.close();
		}
	});

	it('the same proxy never delivering the create: not_found once the span has passed', async () => {
		const proxy = await delayingProxy(sandbox.baseUrl, { deliver: false });
		try {
			const row = tzsRow();
			const credential = credentialFor(sandbox, 'TZS', { baseUrl: proxy.url });
			const item = await createOne(row, resolving({ notFoundAfter: 1 }), credential);
			expect(item).toMatchObject({ outcome: 'not_found', orderId: row.orderId });
			expect(ordersWith(row.orderId)).toHaveLength(0);
		} finally {
			await proxy.close();
		}
	});

	it('Resolve Within shorter than Not Found After: never not_found, the item stays unknown and says why', async () => {
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		const row = tzsRow();
		const item = await createOne(row, resolving({ resolveWithin: 2, notFoundAfter: 30 }));
		expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
		expect(String(item.error)).toContain('Not Found After');
		expect(queriesOf(row.orderId).length).toBeGreaterThanOrEqual(1);
	});

	const notFoundWith = (status: unknown) => (orderId: string) => ({
		orderId,
		orderNo: '',
		status,
		errorMsg: 'order does not exist',
	});

	it.each([
		['"0x3"', '0x3'],
		['[3]', [3]],
		['" 3 "', ' 3 '],
		['"03"', '03'],
		['"3.0"', '3.0'],
		['3.5', 3.5],
		['"+3"', '+3'],
	])('a signed "no such order" whose status is %s is not 3: unknown', async (_what, status) => {
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		const row = tzsRow();
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/query',
			data: notFoundWith(status)(String(row.orderId)),
		});
		const item = await createOne(row, resolving({ resolveWithin: 3, notFoundAfter: 1 }));
		expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
	});

	it.each([
		['the number 3', 3],
		['the string "3"', '3'],
	])('a signed "no such order" whose status is %s is not_found', async (_what, status) => {
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		const row = tzsRow();
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/query',
			data: notFoundWith(status)(String(row.orderId)),
		});
		const item = await createOne(row, resolving({ resolveWithin: 10, notFoundAfter: 1 }));
		expect(item).toMatchObject({ outcome: 'not_found', orderId: row.orderId });
	});

	it('many creates waiting out Not Found After wait together, not one after another', async () => {
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 6 });
		const rows = Array.from({ length: 6 }, () => tzsRow());
		const parameters = resolving({ notFoundAfter: 2, resolveWithin: 8, concurrency: 1 });
		const result = await runNode(sandbox, { parameters, items: rows, settings: keepGoing });
		// One query slot, six items each waiting 2 s: only a shared wait fits in Resolve Within (8 s).
		expect(result.jsonOf(NODE).map((item) => item.outcome)).toEqual(Array(6).fill('not_found'));
	});
});

describe('a refusal on a create is not proof', () => {
	const refusal = {
		type: 'statusZero' as const,
		path: '/tzs/pay/apply',
		code: '5001',
		msg: 'Insufficient balance',
		times: 1,
	};

	it('a proxy creates the order and answers "refused": with Resolve on, the query finds it: accepted', async () => {
		sandbox.control.addFault({ ...refusal, when: 'after' });
		const row = tzsRow();
		const item = await createOne(row);
		const [order] = ordersWith(row.orderId);
		expect(order).toBeDefined();
		expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderNo: order.orderNo });
	});

	it("a genuine refusal (nothing created): rejected, once HaiPay's signed query confirms there is no such order", async () => {
		sandbox.control.addFault({ ...refusal, when: 'before' });
		const row = tzsRow();
		const item = await createOne(row, resolving({ notFoundAfter: 1 }));
		expect(item).toMatchObject({ outcome: 'rejected', errorCode: '5001', gatewayMessage: 'Insufficient balance' });
		expect(String(item.error)).toContain('confirms it has no order');
		expect(queriesOf(row.orderId).length).toBeGreaterThanOrEqual(1);
	});

	it('a refusal whose query cannot settle it is unknown, not rejected', async () => {
		sandbox.control.addFault({ ...refusal, when: 'before' });
		sandbox.control.addFault({ type: 'httpError', path: '/tzs/pay/query', status: 503 });
		const row = tzsRow();
		const item = await createOne(row, resolving({ resolveWithin: 2 }));
		expect(item).toMatchObject({ outcome: 'unknown', errorCode: '5001' });
		expect(String(item.error)).toContain('that refusal is not signed');
	});

	it('with Resolve off, or without the HaiPay public key, a refusal is reported as it came, with no query', async () => {
		for (const [parameters, credential] of [
			[{ ...createTzs, options: { resolveUnknown: false } }, credentialFor(sandbox, 'TZS')],
			[resolving(), credentialFor(sandbox, 'TZS', { haipayPublicKey: '' })],
		] as Array<[INodeParameters, ICredentialDataDecryptedObject]>) {
			sandbox.control.addFault({ ...refusal, when: 'before' });
			const row = tzsRow();
			const item = await createOne(row, parameters, credential);
			expect(item).toMatchObject({ outcome: 'rejected', errorCode: '5001' });
			expect(queriesOf(row.orderId)).toHaveLength(0);
		}
	});

	it('an order under the same orderId for another amount is a duplicate, not this create accepted', async () => {
		const row = tzsRow();
		expect(await createOne(row)).toMatchObject({ outcome: 'accepted' });
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		const item = await createOne({ ...row, amount: '20000' });
		expect(item).toMatchObject({ outcome: 'duplicate', orderId: row.orderId });
		expect(String(item.error)).toContain('for the amount 15000.00, not 20000');
		expect(ordersWith(row.orderId)).toHaveLength(1);
	});
});

interface DelayingProxy {
	url: string;
	delivered: number;
	close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/**
 * A proxy in front of the sandbox that answers every create with 503 at once and holds it; queries pass through.
 * Once the first query's answer has gone back, it delivers the held create to the sandbox (when `deliver`).
 */
async function delayingProxy(target: string, { deliver = true } = {}): Promise<DelayingProxy> {
	const held: Buffer[] = [];
	const state = { delivered: 0 };
	const forward = async (path: string, payload: Buffer) =>
		await fetch(`${target}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
	const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
		void (async () => {
			const payload = await body(req);
			const path = req.url ?? '/';
			if (path.endsWith('/pay/apply')) {
				held.push(payload);
				res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
				return;
			}
			const answer = await forward(path, payload);
			res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
			const create = held.shift();
			if (deliver && create !== undefined) {
				// Counted as it goes: HaiPay makes the order before it answers, so the node can find it first.
				state.delivered += 1;
				await forward('/tzs/pay/apply', create);
			}
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		get delivered() {
			return state.delivered;
		},
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
