/**
 * The HaiPay node's payout reads, and what never reaches an item, an error or a log line, in real n8n-core
 * executions against the sandbox gateway over HTTP (the creates: payout.cases.ts).
 */
import type { Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { bareBase64, TEST_KEYS } from '../helpers/keys';
import { NODE, sandboxPerFile, payoutFromItem, runNode, TZS_FIELDS, tzsRow, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true, hangMs: 4_000 });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

/** Refused creates are confirmed by a query once Not Found After has passed: kept short here. */
const createTzs = { ...payoutFromItem('TZS', TZS_FIELDS, ['notifyUrl', 'subject']), options: { notFoundAfter: 1 } };

describe('payout get', () => {
	const getParameters = (currency: string, by: Record<string, string>) => ({
		resource: 'payout',
		operation: 'get',
		currency,
		...by,
	});

	it('reads an order by orderId or orderNo with a readable status', async () => {
		const row = tzsRow();
		const created = await runNode(sandbox, { parameters: createTzs, items: [row] });
		const orderNo = created.jsonOf(NODE)[0].orderNo as string;
		sandbox.control.settle(orderNo, 'success');
		const lookups: Array<Record<string, string>> = [{ orderId: String(row.orderId) }, { orderNo }];
		for (const by of lookups) {
			const result = await runNode(sandbox, { parameters: getParameters('TZS', by) });
			expect(result.jsonOf(NODE)[0]).toMatchObject({
				orderId: row.orderId,
				orderNo,
				status: 2,
				statusLabel: 'success',
				verified: true,
			});
			expect(typeof result.jsonOf(NODE)[0].fee).toBe('string');
		}
	});

	it("BRL and MYR, the contract's own queries, with MYR payTime", async () => {
		for (const currency of ['BRL', 'MYR'] as const) {
			const order = sandbox.control.createOrder({
				appId: APP_IDS[currency],
				kind: 'payout',
				orderId: uniqueOrderId(currency),
				amount: '100.00',
			});
			sandbox.control.settle(order.orderNo, 'success');
			const result = await runNode(sandbox, {
				currency,
				parameters: getParameters(currency, { orderNo: order.orderNo }),
			});
			const [item] = result.jsonOf(NODE);
			expect(item).toMatchObject({ orderNo: order.orderNo, status: 2, statusLabel: 'success', currency });
			if (currency === 'MYR') expect(item.payTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		}
	});

	it('an unknown order answers status 3 with errorMsg, as the contract says', async () => {
		const result = await runNode(sandbox, { parameters: getParameters('TZS', { orderId: 'NO-SUCH-ORDER' }) });
		expect(result.jsonOf(NODE)[0]).toMatchObject({ status: 3, statusLabel: 'failed' });
		expect(String(result.jsonOf(NODE)[0].errorMsg)).not.toBe('');
	});

	it('needs orderId or orderNo', async () => {
		const result = await runNode(sandbox, { parameters: getParameters('TZS', {}) });
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('Give "orderId"');
	});

	it('retries a read after a 503 and answers', async () => {
		sandbox.control.addFault({ type: 'httpError', status: 503, path: '/tzs/pay/query', times: 2 });
		const result = await runNode(sandbox, {
			parameters: { ...getParameters('TZS', { orderId: 'X-1' }), options: { retries: 2 } },
		});
		expect(result.status).toBe('success');
		expect(sandbox.control.faults()).toEqual([]);
	});

	it('gives up on a read after its retries, with an error that says so', async () => {
		sandbox.control.addFault({ type: 'httpError', status: 503, path: '/tzs/pay/query', times: 5 });
		const result = await runNode(sandbox, {
			parameters: { ...getParameters('TZS', { orderId: 'X-2' }), options: { retries: 1 } },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('HTTP 503');
	});

	it('refuses a wrongly signed answer to a read', async () => {
		sandbox.control.addFault({ type: 'badSignature', path: '/tzs/pay/query', times: 1 });
		const result = await runNode(sandbox, { parameters: getParameters('TZS', { orderId: 'X-3' }) });
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('signature does not verify');
	});
});

describe('secrets', () => {
	it('never reach an output item, an error or a log line', async () => {
		const result = await runNode(sandbox, {
			parameters: createTzs,
			items: [tzsRow(), tzsRow({ name: 'No Permission' }), tzsRow({ name: 'Reset Connection' })],
			settings: { onError: 'continueRegularOutput' },
		});
		const everything = JSON.stringify(result.run) + result.logs.map((line) => line.text).join('\n');
		expect(everything).not.toContain('test-only-secret-tzs');
		expect(everything).not.toContain(bareBase64(TEST_KEYS.merchantPkcs8).slice(100, 140));
		const signatures = sandbox.requests
			.map((entry) => (entry as { body?: { sign?: string } }).body?.sign)
			.filter(Boolean) as string[];
		for (const signature of signatures.slice(-3)) expect(everything).not.toContain(signature.slice(0, 40));
	});
});
