/**
 * Collection → Create in local currencies through real n8n-core executions against the sandbox over HTTP: what the
 * payer pays with comes out on the item, each rule is checked before anything is signed, and a collection whose
 * answer is lost is settled by its collection query (`/{ccy}/collect/query`), never sent again.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import type { Sandbox } from '../../sandbox';
import { NO_OP_NODE_TYPE, webhookServer } from '../harness';
import { APP_IDS, LOCAL_COLLECTIONS, type LocalCollectionCurrency } from '../fixtures/bodies';
import { credentialFor, named, NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true, hangMs: 4_000, callbackSchedule: [50] });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const keepGoing = { onError: 'continueRegularOutput' };

function collect(currency: LocalCollectionCurrency, options: INodeParameters = {}): INodeParameters {
	return { resource: 'collection', operation: 'create', currency, fieldsFrom: 'input', options };
}

function row(currency: LocalCollectionCurrency, overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId(currency), ...LOCAL_COLLECTIONS[currency], ...overrides };
}

const ordersWith = (orderId: unknown) => sandbox.orders.filter((order) => order.orderId === orderId);
const requestsTo = (path: string, orderId: unknown) =>
	sandbox.requests.filter((request) => request.path === path && request.orderId === orderId);

async function createOne(
	currency: LocalCollectionCurrency,
	item: IDataObject,
	options: INodeParameters = {},
): Promise<IDataObject> {
	const result = await runNode(sandbox, {
		currency,
		parameters: collect(currency, options),
		items: [item],
		settings: keepGoing,
	});
	return result.jsonOf(NODE)[0];
}

describe('a PIX QR collection (BRL)', () => {
	it('returns its qrCode, payUrl, bankNo and bankCode on the item; settled, called back to the trigger and queried', async () => {
		const server = await webhookServer({
			nodeTypes: [HaiPayTrigger],
			credentials: { hp: { type: 'haiPayApi', data: credentialFor(sandbox, 'BRL') } },
			nodes: [
				{ name: 'HaiPay Trigger', type: 'haiPayTrigger', parameters: { kind: 'collection' } },
				{ name: 'Next', type: NO_OP_NODE_TYPE },
			],
		});
		try {
			await pixCollection(server.url('HaiPay Trigger'), async () => {
				await server.waitForExecutions(1);
				expect(server.executions[0].items[0].json).toMatchObject({
					currency: 'BRL',
					status: 2,
					statusGroup: 'success',
					kind: 'collection',
					verified: true,
				});
				// HaiPay names no zone for this payTime: it is shown as sent, with no offset made up for it.
				expect(server.executions[0].items[0].json.payTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
				expect(server.executions[0].items[0].json).not.toHaveProperty('payTimeIso');
			});
		} finally {
			await server.close();
		}
	});
});

/** A PIX QR collection created, its answer checked against the sandbox's order, then paid and queried. */
async function pixCollection(notifyUrl: string, calledBack: () => Promise<void>): Promise<void> {
	const item = row('BRL', { notifyUrl });
	const out = await createOne('BRL', item);
	const [order] = ordersWith(item.orderId);
	expect(out).toMatchObject({
		outcome: 'accepted',
		verified: true,
		currency: 'BRL',
		orderId: item.orderId,
		orderNo: order.orderNo,
		payUrl: `${sandbox.baseUrl}/cashier/${order.orderNo}`,
		bankCode: 'PIX',
		bankNo: order.local?.bankNo,
		qrCode: order.local?.qrCode,
	});
	expect(String(out.qrCode)).toMatch(/^000201.*br\.gov\.bcb\.pix/);
	expect(out).not.toHaveProperty('sign');
	expect(requestsTo('/brl/collect/apply', item.orderId)).toHaveLength(1);

	sandbox.control.settle(order.orderNo, 'success');
	await calledBack();
	const query = await runNode(sandbox, {
		currency: 'BRL',
		parameters: { resource: 'collection', operation: 'get', currency: 'BRL', orderId: String(item.orderId) },
	});
	expect(query.jsonOf(NODE)[0]).toMatchObject({
		orderNo: order.orderNo,
		status: 2,
		statusLabel: 'success',
		amount: '300.00',
		verified: true,
	});
}

describe('a PIX QR collection (BRL), mapped and checked', () => {
	it('maps its fields from parameters too, the CPF among them', async () => {
		const orderId = uniqueOrderId('BRL');
		const result = await runNode(sandbox, {
			currency: 'BRL',
			parameters: named({
				resource: 'collection',
				operation: 'create',
				currency: 'BRL',
				...LOCAL_COLLECTIONS.BRL,
				orderId,
				additionalFields: { subject: 'Order 7' },
			}),
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted', orderId });
		const [request] = requestsTo('/brl/collect/apply', orderId);
		expect(request.body).toMatchObject({
			inBankNo: '12345678909',
			payType: 'QR',
			inBankCode: 'PIX',
			subject: 'Order 7',
			appId: APP_IDS.BRL,
		});
	});

	it.each([
		['an amount without its two decimals', { amount: '300' }, 'amount'],
		['a CPF with dots', { inBankNo: '123.456.789-09' }, 'inBankNo'],
		['no success redirect', { callBackUrl: '' }, 'callBackUrl'],
	])('refuses %s before anything is signed', async (_what, overrides, field) => {
		const item = row('BRL', overrides);
		const before = sandbox.appliesReceived(APP_IDS.BRL);
		const out = await createOne('BRL', item);
		expect(out).toMatchObject({ outcome: 'invalid', field, orderId: item.orderId });
		expect(sandbox.appliesReceived(APP_IDS.BRL)).toBe(before);
	});
});

describe('IDR, PHP and BDT collections', () => {
	it.each([
		['IDR', { payType: 'VA' }, { bankNo: expect.stringMatching(/^88\d+$/), bankCode: '014', qrCode: '' }],
		['IDR', { payType: 'QR' }, { qrCode: expect.stringMatching(/ID\.CO\.QRIS/) }],
		['PHP', {}, { qrCode: expect.stringMatching(/ph\.ppmi\.p2m/), bankCode: 'PH_QRPH_DYNAMIC' }],
	] as Array<[LocalCollectionCurrency, IDataObject, IDataObject]>)(
		'%s %j: accepted with what the payer pays with',
		async (currency, overrides, expected) => {
			const item = row(currency, overrides);
			expect(await createOne(currency, item)).toMatchObject({
				outcome: 'accepted',
				currency,
				payUrl: expect.stringContaining('/cashier/'),
				...expected,
			});
		},
	);

	it('BDT answers its payment page only', async () => {
		const out = await createOne('BDT', row('BDT'));
		expect(out).toMatchObject({ outcome: 'accepted', payUrl: expect.stringContaining('/cashier/') });
		expect(out).not.toHaveProperty('qrCode');
	});

	it("signs each item with its currency's App ID, USD card and local collections in one run", async () => {
		const usd = {
			orderId: uniqueOrderId('USD'),
			currency: 'USD',
			amount: '25.00',
			payType: 'CARD',
			inBankCode: 'VISA',
			name: 'John Smith',
			phone: '14155550100',
			email: 'john@example.com',
			clientIp: '203.0.113.7',
			partnerUserId: 'user-5',
		};
		const php = { ...row('PHP'), currency: 'PHP' } as IDataObject;
		const credential = credentialFor(sandbox, 'USD', {
			otherCurrencies: ['PHP'],
			appIdPhp: APP_IDS.PHP,
			secretKeyPhp: 'test-only-secret-php',
		});
		const result = await runNode(sandbox, {
			credential,
			parameters: {
				resource: 'collection',
				operation: 'create',
				currency: '={{ $json.currency }}',
				fieldsFrom: 'input',
			},
			items: [usd, php],
		});
		expect(result.jsonOf(NODE).map((item) => [item.currency, item.outcome])).toEqual([
			['USD', 'accepted'],
			['PHP', 'accepted'],
		]);
		expect(requestsTo('/usd/mit/apply', usd.orderId)[0].appId).toBe(APP_IDS.USD);
		expect(requestsTo('/php/collect/apply', php.orderId)[0].appId).toBe(APP_IDS.PHP);
	});
});

describe('a local collection whose answer is lost is settled by its query, never sent again', () => {
	const resolving = { timeout: 1000, resolveWithin: 20, notFoundAfter: 2 };

	it.each([
		['the gateway answers 502', { name: 'Server Error' }],
		['the connection is reset', { name: 'Reset Connection' }],
		['the gateway never answers', { name: 'Time Out' }],
	])('%s: accepted by the BRL collection query, sent once', async (_what, overrides) => {
		const item = row('BRL', overrides);
		const before = sandbox.appliesReceived(APP_IDS.BRL);
		const out = await createOne('BRL', item, resolving);
		const [order] = ordersWith(item.orderId);
		expect(out).toMatchObject({
			outcome: 'accepted',
			resolvedBy: 'query',
			orderNo: order.orderNo,
			status: 0,
			statusLabel: 'not started',
			verified: true,
		});
		expect(sandbox.appliesReceived(APP_IDS.BRL) - before).toBe(1);
		expect(ordersWith(item.orderId)).toHaveLength(1);
		expect(requestsTo('/brl/collect/query', item.orderId).length).toBeGreaterThanOrEqual(1);
		expect(requestsTo('/brl/pay/query', item.orderId)).toHaveLength(0);
	});

	it('a PHP collection lost before HaiPay took it: not_found once the span has passed, sent once', async () => {
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/php/collect/apply', times: 1 });
		const item = row('PHP');
		const before = sandbox.appliesReceived(APP_IDS.PHP);
		const out = await createOne('PHP', item, { ...resolving, notFoundAfter: 1 });
		expect(out).toMatchObject({ outcome: 'not_found', orderId: item.orderId });
		expect(sandbox.appliesReceived(APP_IDS.PHP) - before).toBe(1);
		expect(ordersWith(item.orderId)).toHaveLength(0);
		expect(requestsTo('/php/collect/query', item.orderId).length).toBeGreaterThanOrEqual(1);
	});

	it('with Resolve off, an IDR collection whose answer is lost is unknown and says to query it', async () => {
		const item = row('IDR', { name: 'Server Error' });
		const out = await createOne('IDR', item, { timeout: 1000, resolveUnknown: false });
		expect(out).toMatchObject({ outcome: 'unknown', orderId: item.orderId });
		expect(String(out.advice)).toContain('Query it by its orderId');
		expect(ordersWith(item.orderId)).toHaveLength(1);
	});
});
