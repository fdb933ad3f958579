/**
 * The HaiPay node against a faulty gateway and a hostile network: every answer must be proven before it is
 * believed, and failures land where n8n's error handling expects them (waits and sizes: bounds.cases.ts). Real
 * n8n-core executions against the sandbox over HTTP.
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { asIs, createTzs, faultyGatewayPerFile, keepGoing, ZAR_FIELDS, zarRow } from './faulty-gateway';
import { NODE, payoutFromItem, runNode, tzsRow } from './helpers';

const gateway = faultyGatewayPerFile();
const ordersWith = gateway.ordersWith;
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = gateway.sandbox();
});

describe('one signature, one body', () => {
	it('refuses a value that would re-split the signed text, and sends nothing', async () => {
		const forged = '62000000000&accountType=BANK_ACCOUNT&amount=9000000&orderId=EVIL-1';
		const row = zarRow({ accountNo: forged });
		const before = sandbox.appliesReceived(APP_IDS.ZAR);
		const result = await runNode(sandbox, {
			currency: 'ZAR',
			parameters: payoutFromItem('ZAR', ZAR_FIELDS),
			items: [row],
			settings: keepGoing,
		});
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'invalid', field: 'accountNo', rule: 'separator', orderId: row.orderId });
		expect(String(item.error)).toContain('"accountNo" must not contain "&"');
		expect(sandbox.appliesReceived(APP_IDS.ZAR)).toBe(before);
		expect(ordersWith('EVIL-1')).toHaveLength(0);
	});

	it.each([
		['an equals sign in a note', { subject: 'a=b' }, 'subject', '='],
		['a line break in a note', { subject: 'line\nbreak' }, 'subject', 'U+000A'],
	])('refuses %s on a create', async (_what, overrides, field, character) => {
		const row = tzsRow(overrides);
		const params = { ...createTzs, additionalFields: { subject: '={{ $json.subject }}' } };
		const result = await runNode(sandbox, { parameters: params, items: [row], settings: keepGoing });
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'invalid', field });
		expect(String(item.error)).toContain(character);
	});

	it('refuses separators in queries, voucher order numbers and extra fields', async () => {
		const query = await runNode(sandbox, {
			parameters: { resource: 'payout', operation: 'get', currency: 'TZS', orderId: 'A&orderNo=B' },
			settings: keepGoing,
		});
		expect(query.jsonOf(NODE)[0]).toMatchObject({ errorType: 'invalid', field: 'orderId', rule: 'separator' });
		const voucher = await runNode(sandbox, {
			parameters: { resource: 'voucher', operation: 'download', orderNos: '["HP1","HP2&lang=zh"]' },
			settings: keepGoing,
		});
		expect(voucher.jsonOf(NODE)[0]).toMatchObject({ errorType: 'invalid', field: 'orderNos', rule: 'separator' });
		const extra = await runNode(sandbox, {
			currency: 'ZAR',
			parameters: { ...payoutFromItem('ZAR', ZAR_FIELDS), options: { extraFields: '{"branch": "x&amount=1"}' } },
			items: [zarRow()],
			settings: keepGoing,
		});
		expect(extra.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field: 'branch', rule: 'separator' });
		expect(sandbox.requests.some((request) => JSON.stringify(request.body).includes('x&amount'))).toBe(false);
	});
});

describe('On Error: Continue (using error output)', () => {
	it('routes failed items to the error output with their outcome, orderId and advice', async () => {
		const rows = [
			tzsRow(),
			tzsRow({ amount: '5' }),
			tzsRow({ name: 'No Channel' }),
			tzsRow({ name: 'Reset Connection' }),
		];
		const result = await runNode(sandbox, {
			parameters: asIs(createTzs),
			items: rows,
			settings: { onError: 'continueErrorOutput' },
		});
		expect(result.status).toBe('success');
		const success = result.jsonOf(NODE, 0, 0);
		const failed = result.jsonOf(NODE, 0, 1);
		expect(success.map((item) => item.orderId)).toEqual([rows[0].orderId]);
		expect(success[0]).toMatchObject({ outcome: 'accepted' });
		const details = failed.map((item) => item.details as Record<string, unknown>);
		expect(details.map((item) => [item.orderId, item.outcome])).toEqual([
			[rows[1].orderId, 'invalid'],
			[rows[2].orderId, 'rejected'],
			[rows[3].orderId, 'unknown'],
		]);
		for (const [index, item] of failed.entries()) {
			expect(typeof item.error).toBe('string');
			expect(typeof details[index].advice).toBe('string');
		}
		expect(details[1]).toMatchObject({ errorCode: '4002', gatewayMessage: 'channel code does not exist' });
		expect(details[0]).toMatchObject({ field: 'amount', rule: 'amount' });
	});

	it('keeps every item on the regular output under "Continue (using regular output)"', async () => {
		const rows = [tzsRow(), tzsRow({ amount: '5' })];
		const result = await runNode(sandbox, { parameters: asIs(createTzs), items: rows, settings: keepGoing });
		expect(result.jsonOf(NODE).map((item) => item.outcome)).toEqual(['accepted', 'invalid']);
		expect(result.outputOf(NODE)[1].error).toBeUndefined();
	});
});

describe('success that is not proven is not success', () => {
	it('a create answered with a string data is unknown', async () => {
		sandbox.control.addFault({ type: 'replaceData', path: '/tzs/pay/apply', data: 'OK', times: 1 });
		const row = tzsRow();
		const [item] = (await runNode(sandbox, { parameters: asIs(createTzs), items: [row], settings: keepGoing })).jsonOf(
			NODE,
		);
		expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
		expect(String(item.error)).toContain('without a data object');
	});

	it("a create answered with another order's genuinely signed answer is unknown, and keeps its own orderId", async () => {
		const other = tzsRow();
		const first = (await runNode(sandbox, { parameters: createTzs, items: [other] })).jsonOf(NODE)[0];
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/apply',
			data: { orderId: other.orderId, orderNo: first.orderNo },
			times: 1,
		});
		const row = tzsRow();
		const [item] = (await runNode(sandbox, { parameters: asIs(createTzs), items: [row], settings: keepGoing })).jsonOf(
			NODE,
		);
		expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
		expect(item).not.toHaveProperty('orderNo');
		expect(String(item.error)).toContain(`not "${row.orderId}"`);
	});

	it('a create answered with a signed balance is unknown', async () => {
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/apply',
			data: { bal: '1.00', availableBal: '1.00', frzBal: '0.00', unSettleBal: '0.00' },
			times: 1,
		});
		const [item] = (
			await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing })
		).jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'unknown' });
	});

	it("a query answered with another order's signed success is refused as untrusted", async () => {
		const failed = tzsRow({ name: 'Fail Payout' });
		const good = tzsRow();
		const [a, b] = (await runNode(sandbox, { parameters: createTzs, items: [failed, good] })).jsonOf(NODE);
		sandbox.control.settle(a.orderNo as string, 'failed');
		sandbox.control.settle(b.orderNo as string, 'success');
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/query',
			data: {
				orderId: good.orderId,
				orderNo: b.orderNo,
				amount: '15000',
				fee: '0.00',
				status: 2,
				payTime: '',
				errorMsg: '',
			},
			times: 1,
		});
		const result = await runNode(sandbox, {
			parameters: { resource: 'payout', operation: 'get', currency: 'TZS', orderId: String(failed.orderId) },
			settings: keepGoing,
		});
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ errorType: 'untrusted' });
		expect(item).not.toHaveProperty('status');
		expect(String(item.advice)).not.toContain('orderId');
	});

	it('a balance answered with an order is refused', async () => {
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/account/ledger',
			data: { orderId: 'X', orderNo: 'HP1', status: 2 },
			times: 1,
		});
		const [item] = (
			await runNode(sandbox, {
				parameters: { resource: 'account', operation: 'getBalance', currency: 'TZS' },
				settings: keepGoing,
			})
		).jsonOf(NODE);
		expect(item).toMatchObject({ errorType: 'untrusted' });
	});
});

describe("the gateway's own text is repeated only in part", () => {
	it('a long refusal message (an echoed signature, say) is cut to 200 characters in the error and the item', async () => {
		const echoed = `sign ${'A'.repeat(340)}== does not verify`;
		sandbox.control.addFault({ type: 'statusZero', path: '/tzs/pay/apply', msg: echoed, code: '4003', times: 1 });
		const [item] = (
			await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing })
		).jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'rejected' });
		expect(String(item.gatewayMessage)).toBe(`${echoed.slice(0, 200)}…`);
		expect(JSON.stringify(item)).not.toContain('A'.repeat(201));
	});

	it('a 199-character message is repeated whole', async () => {
		const msg = `sign ${'B'.repeat(194)}`;
		sandbox.control.addFault({ type: 'statusZero', path: '/tzs/pay/apply', msg, code: '4003', times: 1 });
		const [item] = (
			await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing })
		).jsonOf(NODE);
		expect(item.gatewayMessage).toBe(msg);
	});

	it("another order's ID in a signed answer is cut short in the error", async () => {
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/apply',
			data: { orderId: 'X'.repeat(5000), orderNo: 'HP1' },
			times: 1,
		});
		const [item] = (
			await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing })
		).jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'unknown' });
		expect(String(item.error)).toContain(`${'X'.repeat(200)}…`);
		expect(String(item.error)).not.toContain('X'.repeat(201));
	});
});

describe('redirects are never followed', () => {
	it('a 307 to a create is sent once and its outcome is unknown', async () => {
		sandbox.control.addFault({ type: 'redirect', when: 'after', path: '/tzs/pay/apply', times: 1 });
		const row = tzsRow();
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const [item] = (await runNode(sandbox, { parameters: asIs(createTzs), items: [row], settings: keepGoing })).jsonOf(
			NODE,
		);
		expect(item).toMatchObject({ outcome: 'unknown', httpStatus: 307 });
		expect(sandbox.appliesReceived(APP_IDS.TZS) - before).toBe(1);
		expect(ordersWith(row.orderId as string)).toHaveLength(1);
	});

	it('a redirect to a host that refuses connections is unknown, not "not sent"', async () => {
		const closed = await startSandbox({ manual: true });
		const location = `${closed.baseUrl}/tzs/pay/apply`;
		await closed.close();
		sandbox.control.addFault({
			type: 'redirect',
			when: 'after',
			status: 308,
			location,
			path: '/tzs/pay/apply',
			times: 1,
		});
		const [item] = (
			await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing })
		).jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'unknown', httpStatus: 308 });
	});

	it('a redirect to a read is a clear failure', async () => {
		sandbox.control.addFault({ type: 'redirect', path: '/tzs/account/ledger', times: 1 });
		const [item] = (
			await runNode(sandbox, {
				parameters: { resource: 'account', operation: 'getBalance', currency: 'TZS' },
				settings: keepGoing,
			})
		).jsonOf(NODE);
		expect(item).toMatchObject({ errorType: 'untrusted', httpStatus: 307 });
		expect(String(item.error)).toContain('redirect');
	});
});

describe('status "0": rejected only when the request itself was refused', () => {
	it.each(['504 Gateway Time-out', 'connect time-out', 'System busy, please query the order', '系统异常', 'NULL', ''])(
		'"%s" is unknown',
		async (msg) => {
			sandbox.control.addFault({
				type: 'statusZero',
				when: 'after',
				path: '/tzs/pay/apply',
				msg,
				code: '9999',
				times: 1,
			});
			const row = tzsRow();
			const [item] = (
				await runNode(sandbox, { parameters: asIs(createTzs), items: [row], settings: keepGoing })
			).jsonOf(NODE);
			expect(item).toMatchObject({ outcome: 'unknown', gatewayMessage: msg });
			expect(ordersWith(row.orderId as string)).toHaveLength(1);
		},
	);

	it.each(['sign does not verify', 'No permission to pay for products', 'insufficient balance'])(
		'"%s" is rejected',
		async (msg) => {
			sandbox.control.addFault({ type: 'statusZero', path: '/tzs/pay/apply', msg, code: '4999', times: 1 });
			const [item] = (
				await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing })
			).jsonOf(NODE);
			expect(item).toMatchObject({ outcome: 'rejected', gatewayMessage: msg });
		},
	);
});
