/**
 * The HaiPay node's payout creates in real n8n-core executions against the sandbox gateway over HTTP: one currency
 * at a time, expressions, bad input, the gateway's answers and lost answers (reads and secrets: payout-reads.cases.ts).
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS, PAYOUTS } from '../fixtures/bodies';
import { bareBase64, TEST_KEYS } from '../helpers/keys';
import {
	credentialFor,
	NODE,
	sandboxPerFile,
	payoutFromItem,
	runNode,
	TZS_FIELDS,
	tzsRow,
	uniqueOrderId,
} from './helpers';

const running = sandboxPerFile({ manual: true, hangMs: 4_000 });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

/** Refused creates are confirmed by a query once Not Found After has passed: kept short here. */
const createTzs = { ...payoutFromItem('TZS', TZS_FIELDS, ['notifyUrl', 'subject']), options: { notFoundAfter: 1 } };
/** The same, with "Resolve Unknown Outcomes" off: an unknown outcome is reported as it happened. */
const createTzsAsIs = { ...createTzs, options: { resolveUnknown: false } };

function ordersWith(orderId: string) {
	return sandbox.orders.filter((order) => order.orderId === orderId);
}

describe('payout create, one currency at a time', () => {
	const rows = {
		TZS: { fields: TZS_FIELDS, row: tzsRow() },
		ZAR: { fields: TZS_FIELDS, row: { orderId: uniqueOrderId('ZAR'), ...PAYOUTS.ZAR, amount: '2500.50' } },
		NGN: {
			fields: ['orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name'],
			row: { orderId: uniqueOrderId('NGN'), ...PAYOUTS.NGN },
		},
		EGP: { fields: TZS_FIELDS, row: { orderId: uniqueOrderId('EGP'), ...PAYOUTS.EGP } },
		BDT: { fields: TZS_FIELDS, row: { orderId: uniqueOrderId('BDT'), ...PAYOUTS.BDT, amount: 500 } },
	} as const;

	it.each(Object.keys(rows) as Array<keyof typeof rows>)(
		'%s: accepted, verified, one order at the gateway',
		async (currency) => {
			const { fields, row } = rows[currency];
			const result = await runNode(sandbox, {
				currency,
				parameters: payoutFromItem(currency, [...fields]),
				items: [row],
			});
			expect(result.status).toBe('success');
			const [item] = result.outputOf(NODE);
			expect(item.json).toMatchObject({ orderId: row.orderId, currency, outcome: 'accepted', verified: true });
			expect(typeof item.json.orderNo).toBe('string');
			expect(item.json).not.toHaveProperty('sign');
			expect(item.pairedItem).toEqual({ item: 0 });
			const orders = ordersWith(String(row.orderId));
			expect(orders).toHaveLength(1);
			expect(orders[0].orderNo).toBe(item.json.orderNo);
			expect(Number(orders[0].amount)).toBe(Number(row.amount));
		},
	);

	it('NGN answers with payUrl, passed through', async () => {
		const row = { ...rows.NGN.row, orderId: uniqueOrderId('NGN') };
		const result = await runNode(sandbox, {
			currency: 'NGN',
			parameters: payoutFromItem('NGN', [...rows.NGN.fields]),
			items: [row],
		});
		expect(result.outputOf(NODE)[0].json).toHaveProperty('payUrl');
	});
});

describe('payout create, expressions', () => {
	it('reads simple references from the item and leaves every other expression to n8n, with the same result', async () => {
		const row = {
			id: uniqueOrderId('EXPR'),
			first: 'Amina',
			last: 'Juma',
			cents: 1500000,
			account: '255712345678',
			note: 'Salary',
		};
		const parameters = {
			resource: 'payout',
			operation: 'create',
			currency: '={{ "TZS" }}',
			orderId: '={{ $json["id"] }}',
			amount: '={{ $json.cents / 100 }}',
			accountType: 'EWALLET',
			bankCode: 'VODACOM',
			accountNo: '={{ $json.account }}',
			name: '={{ $json.first + " " + $json.last }}',
			phone: '={{ $json.account }}',
			email: '={{ $json.first.toLowerCase() }}@example.com',
			partnerUserId: '={{ "emp-" + $json.first }}',
			additionalFields: { subject: '={{ $json.note }}', body: 'fixed text' },
		};
		const result = await runNode(sandbox, { parameters, items: [row] });
		expect(result.status).toBe('success');
		const sent = sandbox.requests.filter((entry) => entry.path === '/tzs/pay/apply').pop()?.body as Record<
			string,
			unknown
		>;
		expect(sent).toMatchObject({
			orderId: row.id,
			amount: '15000',
			accountNo: '255712345678',
			name: 'Amina Juma',
			email: 'amina@example.com',
			partnerUserId: 'emp-Amina',
			subject: 'Salary',
			body: 'fixed text',
		});
	});
});

describe('payout create, bad input', () => {
	it('names the item, the field and the rule, and sends nothing', async () => {
		const before = sandbox.appliesReceived();
		const result = await runNode(sandbox, {
			parameters: createTzs,
			items: [tzsRow(), tzsRow({ amount: '999', name: 'Amina Juma2' })],
		});
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 1 });
		expect(result.error?.message).toContain('"amount" must be at least 1,000 TZS (got 999)');
		expect(result.error?.message).toContain('"name"');
		expect(result.error?.message).toContain('found "2"');
		expect(sandbox.appliesReceived()).toBe(before);
	});

	it('refuses a currency the credential does not belong to, before sending', async () => {
		const before = sandbox.appliesReceived();
		const result = await runNode(sandbox, {
			currency: 'NGN',
			parameters: createTzs,
			items: [tzsRow()],
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain(
			'This HaiPay credential is for NGN (App ID 1003), but the operation is in TZS',
		);
		expect(sandbox.appliesReceived()).toBe(before);
	});

	it('fails the run before any item when a key cannot be read, naming the key', async () => {
		const result = await runNode(sandbox, {
			parameters: createTzs,
			items: [tzsRow()],
			credential: credentialFor(sandbox, 'TZS', { privateKey: bareBase64(TEST_KEYS.merchantPkcs8).slice(0, 200) }),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/merchant private key could not be read/);
		expect(JSON.stringify(result.run)).not.toContain(bareBase64(TEST_KEYS.merchantPkcs8).slice(50, 90));
	});
});

describe('payout create, gateway answers', () => {
	it('a refusal is a NodeApiError with the gateway code and message', async () => {
		const result = await runNode(sandbox, { parameters: createTzs, items: [tzsRow({ name: 'No Permission' })] });
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ name: 'NodeApiError', itemIndex: 0 });
		expect(result.error?.message).toContain('No permission to pay for products');
		expect(result.error?.message).toContain('4010');
	});

	it('with Continue On Fail, a refusal comes out as an item and the run goes on', async () => {
		const rows = [tzsRow(), tzsRow({ bankCode: 'VODACOM', name: 'No Channel' }), tzsRow()];
		const result = await runNode(sandbox, {
			parameters: createTzs,
			items: rows,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.status).toBe('success');
		const out = result.jsonOf(NODE);
		expect(out.map((item) => item.outcome)).toEqual(['accepted', 'rejected', 'accepted']);
		expect(out[1]).toMatchObject({
			errorCode: '4002',
			gatewayMessage: 'channel code does not exist',
			orderId: rows[1].orderId,
			errorType: 'rejected',
		});
		expect(ordersWith(rows[1].orderId as string)).toHaveLength(0);
	});

	it('a duplicate orderId is refused and the first order is untouched', async () => {
		const row = tzsRow();
		await runNode(sandbox, { parameters: createTzs, items: [row] });
		const first = { ...ordersWith(row.orderId as string)[0] };
		const again = await runNode(sandbox, {
			parameters: createTzs,
			items: [{ ...row, amount: '20000' }],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(again.jsonOf(NODE)[0]).toMatchObject({
			outcome: 'duplicate',
			errorType: 'duplicate',
			errorCode: '4006',
			orderId: row.orderId,
		});
		expect(String(again.jsonOf(NODE)[0].advice)).toContain('Query it by its orderId');
		expect(ordersWith(row.orderId as string)).toHaveLength(1);
		expect(ordersWith(row.orderId as string)[0].amount).toBe(first.amount);
	});

	it('without the HaiPay public key, answers are marked not verified', async () => {
		const result = await runNode(sandbox, {
			parameters: createTzs,
			items: [tzsRow()],
			credential: credentialFor(sandbox, 'TZS', { haipayPublicKey: '' }),
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted', verified: false });
	});

	it('a wrongly signed answer to a create is an unknown outcome, not a success', async () => {
		sandbox.control.addFault({ type: 'badSignature', path: '/tzs/pay/apply', times: 1 });
		const row = tzsRow();
		const result = await runNode(sandbox, {
			parameters: createTzsAsIs,
			items: [row],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
		expect(ordersWith(row.orderId as string)).toHaveLength(1);
	});
});

describe('payout create, unknown outcomes: the order exists but the answer is lost', () => {
	const lost = [
		['the gateway never answers', { name: 'Time Out' }],
		['the connection is reset', { name: 'Reset Connection' }],
		['the gateway answers 502', { name: 'Server Error' }],
	] as const;

	it.each(lost)('%s: outcome unknown with the orderId, sent exactly once', async (_what, overrides) => {
		const row = tzsRow(overrides);
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const result = await runNode(sandbox, {
			parameters: { ...createTzs, options: { timeout: 1500, resolveUnknown: false } },
			items: [row],
			settings: { onError: 'continueRegularOutput' },
		});
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId });
		expect(String(item.error)).toContain('HaiPay may have taken this order');
		expect(String(item.advice)).toContain('Query it by its orderId');
		expect(sandbox.appliesReceived(APP_IDS.TZS) - before).toBe(1);
		expect(ordersWith(row.orderId as string)).toHaveLength(1);
	});

	it('without Continue On Fail it is a NodeApiError that says to query first', async () => {
		const row = tzsRow({ name: 'Reset Connection' });
		const result = await runNode(sandbox, { parameters: createTzsAsIs, items: [row] });
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('The outcome is unknown');
		expect(result.error?.description).toContain(`Order ID: ${row.orderId}`);
	});

	it('a fault after the order was created is unknown too', async () => {
		sandbox.control.addFault({ type: 'httpError', when: 'after', status: 503, path: '/tzs/pay/apply', times: 1 });
		const row = tzsRow();
		const result = await runNode(sandbox, {
			parameters: createTzsAsIs,
			items: [row],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'unknown' });
		expect(ordersWith(row.orderId as string)).toHaveLength(1);
	});

	it('a 5xx before anything was created is still unknown to the node, and still sent once', async () => {
		sandbox.control.addFault({ type: 'httpError', when: 'before', status: 502, path: '/tzs/pay/apply', times: 1 });
		const row = tzsRow();
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const result = await runNode(sandbox, {
			parameters: createTzsAsIs,
			items: [row],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'unknown' });
		expect(sandbox.appliesReceived(APP_IDS.TZS) - before).toBe(1);
		expect(ordersWith(row.orderId as string)).toHaveLength(0);
	});

	it('a refused connection means nothing was sent', async () => {
		const closed = await startSandbox({ manual: true });
		const credential = credentialFor(closed, 'TZS');
		await closed.close();
		const result = await runNode(sandbox, {
			parameters: createTzs,
			items: [tzsRow()],
			credential,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'not_sent', errorType: 'not_sent', cause: 'ECONNREFUSED' });
	});
});
