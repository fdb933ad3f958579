/**
 * The HaiPay node's bounds: every wait and body has a deadline or a cap, Extra Fields stay within the operation,
 * advice fits the operation, and an unknown outcome is settled by a query, never by a second create. Real n8n-core
 * executions against the sandbox over HTTP.
 */
import type { Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { asIs, createTzs, faultyGatewayPerFile, keepGoing, ZAR_FIELDS, zarRow } from './faulty-gateway';
import { credentialFor, NODE, payoutFromItem, runNode, tzsRow } from './helpers';

const gateway = faultyGatewayPerFile();
const ordersWith = gateway.ordersWith;
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = gateway.sandbox();
});

describe('deadlines and sizes', () => {
	it('a create whose answer drips one byte at a time ends at its deadline, as unknown', async () => {
		sandbox.control.addFault({
			type: 'slowBody',
			when: 'after',
			path: '/tzs/pay/apply',
			ms: 500,
			bytes: 400,
			times: 1,
		});
		const ended = new Promise<{ bytesWritten: number; closedByClient: boolean }>((resolve) =>
			sandbox.events.once('fault', resolve),
		);
		const [item] = (
			await runNode(sandbox, { parameters: asIs(createTzs, { timeout: 2000 }), items: [tzsRow()], settings: keepGoing })
		).jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'unknown', cause: 'ETIMEDOUT' });
		expect(String(item.error)).toContain('no complete answer within 2000 ms');
		const fault = await ended;
		expect(fault.closedByClient).toBe(true);
		expect(fault.bytesWritten).toBeLessThan(400);
	});

	it('an endless JSON answer to a create stops at the cap, as unknown', async () => {
		sandbox.control.addFault({ type: 'endlessBody', when: 'after', path: '/tzs/pay/apply', times: 1 });
		const ended = new Promise<{ bytesWritten: number; closedByClient: boolean }>((resolve) =>
			sandbox.events.once('fault', resolve),
		);
		const [item] = (
			await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing })
		).jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'unknown' });
		expect(String(item.error)).toContain('larger than 1048576 bytes');
		const fault = await ended;
		expect(fault.closedByClient).toBe(true);
		expect(fault.bytesWritten).toBeLessThan(8 * 1048576);
	});

	it('an endless voucher stops at the voucher cap with a read failure, and is not retried', async () => {
		sandbox.control.addFault({ type: 'endlessBody', path: '/common/voucher/pdf' });
		const ended = new Promise<{ bytesWritten: number }>((resolve) => sandbox.events.once('fault', resolve));
		const result = await runNode(sandbox, {
			parameters: { resource: 'voucher', operation: 'download', orderNos: 'HP1' },
			settings: keepGoing,
		});
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ errorType: 'untrusted' });
		expect(String(item.error)).toContain(`larger than ${64 * 1024 * 1024} bytes`);
		expect((await ended).bytesWritten).toBeLessThan(2 * 64 * 1024 * 1024);
		expect(
			sandbox.requests.filter((request) => request.path === '/common/voucher/pdf' && request.outcome === 'fault'),
		).toHaveLength(1);
	});

	it('refuses voucher order numbers longer than 64 characters before sending', async () => {
		const long = 'H'.repeat(65);
		const [item] = (
			await runNode(sandbox, {
				parameters: { resource: 'voucher', operation: 'download', orderNos: `HP1, ${long}` },
				settings: keepGoing,
			})
		).jsonOf(NODE);
		expect(item).toMatchObject({ errorType: 'invalid', field: 'orderNos', rule: 'maxLength' });
		const [ok] = (
			await runNode(sandbox, {
				parameters: { resource: 'payout', operation: 'get', currency: 'TZS', orderNo: 'H'.repeat(64) },
				settings: keepGoing,
			})
		).jsonOf(NODE);
		expect(ok).toMatchObject({ status: 3 });
	});
});

describe('Extra Fields (JSON)', () => {
	const zar = payoutFromItem('ZAR', ZAR_FIELDS);

	it('reaches the gateway, signed', async () => {
		const row = zarRow();
		const result = await runNode(sandbox, {
			currency: 'ZAR',
			parameters: { ...zar, options: { extraFields: '{"branchCode": "250655"}' } },
			items: [row],
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted' });
		const sent = sandbox.requests.find((request) => request.orderId === row.orderId);
		expect(sent?.body).toMatchObject({ branchCode: '250655' });
	});

	it.each([
		['{"sign": "x"}', 'extraFields', 'reserved'],
		['{"appId": 1}', 'extraFields', 'reserved'],
		['{"AppId": 1}', 'extraFields', 'reserved'],
		['{"Amount": "9000000"}', 'extraFields', 'reserved'],
		['{"__proto__": {"x": 1}}', '__proto__', 'unknownField'],
		['{"constructor": "x"}', 'constructor', 'unknownField'],
		['{"prototype": "x"}', 'prototype', 'unknownField'],
	])('refuses %s', async (json, field, rule) => {
		const row = zarRow();
		const result = await runNode(sandbox, {
			currency: 'ZAR',
			parameters: { ...zar, options: { extraFields: json } },
			items: [row],
			settings: keepGoing,
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field, rule });
		expect(ordersWith(row.orderId)).toHaveLength(0);
	});
});

describe('advice fits the operation', () => {
	it('a read refused for a wrong secret says nothing about creating or resending an orderId', async () => {
		const credential = credentialFor(sandbox, 'TZS', { secretKey: 'wrong-test-only-secret' });
		for (const parameters of [
			{ resource: 'account', operation: 'getBalance', currency: 'TZS' },
			{ resource: 'voucher', operation: 'download', orderNos: 'HP1' },
		]) {
			const [item] = (await runNode(sandbox, { parameters, credential, settings: keepGoing })).jsonOf(NODE);
			expect(item).toMatchObject({ errorType: 'rejected' });
			expect(item).not.toHaveProperty('outcome');
			expect(String(item.advice)).not.toMatch(/created|orderId/);
			expect(String(item.advice)).toContain('secret');
		}
	});
});

describe('Resolve Unknown Outcomes', () => {
	const resolving = (within = 20) => ({
		...createTzs,
		options: { timeout: 1500, resolveWithin: within, notFoundAfter: 1 },
	});

	it.each([
		['a time-out after the order was created', { name: 'Time Out' }],
		['a 502 after the order was created', { name: 'Server Error' }],
	])('%s: accepted by query, sent once', async (_what, overrides) => {
		const row = tzsRow(overrides);
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const [item] = (await runNode(sandbox, { parameters: resolving(), items: [row], settings: keepGoing })).jsonOf(
			NODE,
		);
		const [order] = ordersWith(row.orderId as string);
		expect(item).toMatchObject({
			outcome: 'accepted',
			resolvedBy: 'query',
			orderId: row.orderId,
			orderNo: order.orderNo,
			status: order.status,
			verified: true,
		});
		expect(sandbox.appliesReceived(APP_IDS.TZS) - before).toBe(1);
	});

	it('a reset before the request reached the gateway: not_found, safe to send again with the same orderId', async () => {
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		const row = tzsRow();
		const [item] = (await runNode(sandbox, { parameters: resolving(), items: [row], settings: keepGoing })).jsonOf(
			NODE,
		);
		expect(item).toMatchObject({ outcome: 'not_found', orderId: row.orderId });
		expect(String(item.advice)).toContain('send it again with the same orderId');
		expect(ordersWith(row.orderId as string)).toHaveLength(0);
	});

	it('the query itself failing leaves the outcome unknown, with why', async () => {
		sandbox.control.addFault({ type: 'httpError', path: '/tzs/pay/query', status: 503 });
		const row = tzsRow({ name: 'Server Error' });
		const [item] = (await runNode(sandbox, { parameters: resolving(2), items: [row], settings: keepGoing })).jsonOf(
			NODE,
		);
		expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
		expect(String(item.error)).toContain('querying it for 2 s did not settle it');
		expect(ordersWith(row.orderId as string)).toHaveLength(1);
	});

	it('without Continue On Fail, a resolved item does not stop the run', async () => {
		const rows = [tzsRow({ name: 'Server Error' }), tzsRow()];
		const result = await runNode(sandbox, { parameters: resolving(), items: rows });
		expect(result.status).toBe('success');
		expect(result.jsonOf(NODE).map((item) => item.outcome)).toEqual(['accepted', 'accepted']);
	});
});
