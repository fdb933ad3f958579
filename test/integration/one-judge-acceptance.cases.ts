/**
 * One judge of a create's signed answer: it is `accepted` only when every member agrees that HaiPay took this very
 * request. A status-like member (any key holding "status") must be absent, empty or a published non-failure status
 * (0, 1, 2); a message-like member (errorMsg, msg, message, error, reason) absent, empty or "success"; no other text
 * may say failure; an amount or currency it names must be the row's (by decimal value); and a refund's answer must
 * name the payment asked to be refunded. Anything else leaves the outcome `unknown`, for HaiPay's query. Real n8n-core
 * executions over real HTTP to a small gateway that signs with the test platform key.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { CASHIER_APP_ID } from '../../sandbox/merchants';
import { CASHIER_PAYMENT, COIN_COLLECTION, PAYOUTS, SUBSCRIPTION, type PayoutCurrency } from '../fixtures/bodies';
import { TEST_KEYS } from '../helpers/keys';
import { signBody } from '../helpers/signing';
import { uniqueOrderId } from './helpers';
import {
	credentialOf,
	NO_SUCH_ORDER,
	runAgainst,
	secretOf,
	pathGatewayPerFile,
	type SigningGateway,
} from './signing-gateway';

/** What the gateway answers each path with; a test sets the ones it uses. */
const { answers, gateway: running } = pathGatewayPerFile();
let gateway: SigningGateway;

beforeAll(() => {
	gateway = running();
});

const resolveOff = { resolveUnknown: false };
const resolveOn = { timeout: 1000, resolveWithin: 3, notFoundAfter: 1 };

function payout(currency: PayoutCurrency, options: INodeParameters = resolveOff): INodeParameters {
	return { resource: 'payout', operation: 'create', currency, fieldsFrom: 'input', options };
}

function payoutRow(currency: PayoutCurrency, overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId(`ONE-${currency}`), ...PAYOUTS[currency], ...overrides };
}

/** Pays one row, the create answered with `data` beside the row's orderId; the item and the row. */
async function payOne(
	currency: PayoutCurrency,
	data: IDataObject,
	row: IDataObject = payoutRow(currency),
	options: INodeParameters = resolveOff,
): Promise<{ item: IDataObject; row: IDataObject }> {
	answers[`/${currency.toLowerCase()}/pay/apply`] = (body) => ({ data: { orderId: body.orderId, ...data } });
	const [item] = await runAgainst(credentialOf(gateway.url, [currency]), payout(currency, options), [row]);
	return { item, row };
}

describe('1. every status-like and message-like member is read, on a TZS payout (resolve off)', () => {
	it.each([
		['status "DENIED"', { status: 'DENIED' }],
		['status "UNSUCCESSFUL"', { status: 'UNSUCCESSFUL' }],
		['status "REVERSED"', { status: 'REVERSED' }],
		['status "BLOCKED"', { status: 'BLOCKED' }],
		['status "ＦＡＩＬＥＤ" (fullwidth)', { status: 'ＦＡＩＬＥＤ' }],
		['status "SUCCESS" (no published order status)', { status: 'SUCCESS' }],
		['errorMsg "insufficient balance"', { errorMsg: 'insufficient balance' }],
		['errorMsg "余额不足"', { errorMsg: '余额不足' }],
		['errorMsg "账户异常"', { errorMsg: '账户异常' }],
		['errorMsg "账户冻结"', { errorMsg: '账户冻结' }],
		['errorMsg "订单无效"', { errorMsg: '订单无效' }],
		['errorMsg "risk control blocked"', { errorMsg: 'risk control blocked' }],
		['msg "order does not exist"', { msg: NO_SUCH_ORDER }],
		['message "FAILED"', { message: 'FAILED' }],
		['payStatus "FAILED" beside status "SUCCESS"', { status: 'SUCCESS', payStatus: 'FAILED' }],
		['orderStatus "3" beside status 2', { status: 2, orderStatus: '3' }],
	])('orderNo with %s: unknown, never accepted', async (_what, fields) => {
		const { item, row } = await payOne('TZS', { orderNo: 'HP1', ...fields });
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId });
	});

	it.each([
		['{orderNo} alone', {}],
		['{orderNo, status 2, errorMsg ""}', { status: 2, errorMsg: '' }],
		['{orderNo, status 1}', { status: 1 }],
		['{orderNo, status "0"}', { status: '0' }],
		['{orderNo, msg "success"}', { msg: 'success' }],
		['{orderNo, payUrl}', { payUrl: 'https://pay.example/x' }],
	])('%s: accepted, verified', async (_what, fields) => {
		const { item, row } = await payOne('TZS', { orderNo: 'HP1', ...fields });
		expect(item).toMatchObject({ outcome: 'accepted', orderId: row.orderId, orderNo: 'HP1', verified: true });
	});
});

describe('2. an answer about this ID for another amount or currency is not this request accepted', () => {
	const zarRow = () => payoutRow('ZAR', { amount: '100' });

	it.each([
		['amount "999.00"', { amount: '999.00' }],
		['currency "USD"', { currency: 'USD' }],
	])('ZAR 100 answered {orderId, orderNo, %s}: unknown (resolve off)', async (_what, fields) => {
		const { item, row } = await payOne('ZAR', { orderNo: 'HP-ZAR', ...fields }, zarRow());
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId });
	});

	it('ZAR 100 answered for 999.00, and the query shows that order for 999.00: duplicate, never accepted', async () => {
		answers['/zar/pay/query'] = (body) => ({
			data: { orderId: body.orderId, orderNo: 'HP-ZAR', amount: '999.00', status: 1, errorMsg: '' },
		});
		const { item, row } = await payOne('ZAR', { orderNo: 'HP-ZAR', amount: '999.00' }, zarRow(), resolveOn);
		expect(item).toMatchObject({ outcome: 'duplicate', errorType: 'duplicate', orderId: row.orderId });
		const mine = (path: string) => gateway.to(path).filter((request) => request.body.orderId === row.orderId);
		expect(mine('/zar/pay/query').length).toBeGreaterThanOrEqual(1);
		expect(mine('/zar/pay/apply')).toHaveLength(1);
	});

	it.each(['100.00', '100'])('ZAR 100 answered with amount "%s": accepted (decimal equality)', async (amount) => {
		const { item, row } = await payOne('ZAR', { orderNo: 'HP-ZAR', amount }, zarRow());
		expect(item).toMatchObject({ outcome: 'accepted', orderId: row.orderId, orderNo: 'HP-ZAR', verified: true });
	});

	it('a subscription of 9.99 answered for 99.90: unknown (resolve off)', async () => {
		const subscriptionOrderId = uniqueOrderId('ONE-SUB');
		answers['/subscription/apply'] = (body) => ({
			data: { subscriptionOrderId: body.subscriptionOrderId, subscriptionNo: 'SN1', status: '2', amount: '99.90' },
		});
		const parameters = {
			resource: 'subscription',
			operation: 'create',
			currency: 'USD',
			subscriptionOrderId,
			...SUBSCRIPTION,
			options: resolveOff,
		} as INodeParameters;
		const [item] = await runAgainst(credentialOf(gateway.url, ['USD']), parameters, [{}]);
		expect(SUBSCRIPTION.amount).toBe('9.99');
		// A failure item names the request's own ID as orderId (execute/failures.ts), here the subscriptionOrderId.
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: subscriptionOrderId });
	});

	it('a global cashier payment of 19.99 answered for 1999.00: unknown (resolve off)', async () => {
		const [appId, ccy] = CASHIER_APP_ID;
		const platform = parsePrivateKey(TEST_KEYS.platformPrivate);
		// Signed here with the cashier's secret: the shared gateway signs only for the currencies' App IDs.
		answers['/global/cashier/collect/apply'] = (body) => {
			const data = { orderId: body.orderId, orderNo: 'HPC-1', payUrl: 'https://pay.example/x', amount: '1999.00' };
			return { data: { ...data, sign: signBody(data, secretOf(ccy), platform) } };
		};
		const credential: ICredentialDataDecryptedObject = {
			...credentialOf(gateway.url, ['USD']),
			otherCurrencies: [ccy],
			appIdCashier: appId,
			secretKeyCashier: secretOf(ccy),
		};
		const row = { orderId: uniqueOrderId('ONE-CASHIER'), ...CASHIER_PAYMENT, amount: '19.99' };
		const parameters = { resource: 'collection', operation: 'createCashier', fieldsFrom: 'input', options: resolveOff };
		const [item] = await runAgainst(credential, parameters, [row]);
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId });
	});

	it('a USDT collection of 100.00 answered for 10000.00: unknown (resolve off)', async () => {
		answers['/usdt/collect/apply'] = (body) => ({
			data: { orderId: body.orderId, orderNo: 'HPU-1', payUrl: 'https://pay.example/x', amount: '10000.00' },
		});
		const row = { orderId: uniqueOrderId('ONE-USDT'), ...COIN_COLLECTION };
		const parameters = {
			resource: 'collection',
			operation: 'create',
			currency: 'USDT',
			fieldsFrom: 'input',
			options: resolveOff,
		};
		const [item] = await runAgainst(credentialOf(gateway.url, ['USDT']), parameters, [row]);
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId });
	});
});

describe('3. a card refund accepted only when its answer names the payment asked (resolve off)', () => {
	const PAYMENT = 'HPC100';

	async function refundOne(fields: IDataObject): Promise<{ item: IDataObject; refundId: string }> {
		answers['/usd/refund/apply'] = (body) => ({ data: { orderId: body.orderId, ...fields } });
		const refundId = uniqueOrderId('ONE-RF');
		const parameters = {
			resource: 'collection',
			operation: 'refund',
			currency: 'USD',
			orderId: '={{ $json.refundId }}',
			orderNo: '={{ $json.orderNo }}',
			options: resolveOff,
		};
		const [item] = await runAgainst(credentialOf(gateway.url, ['USD']), parameters, [{ refundId, orderNo: PAYMENT }]);
		return { item, refundId };
	}

	it.each([
		['no orderNo (the payment)', { refundNo: 'RN1' }],
		['the orderNo of another payment', { orderNo: 'HPC999', refundNo: 'RN1' }],
		['errorMsg "可退金额不足"', { orderNo: PAYMENT, refundNo: 'RN1', errorMsg: '可退金额不足' }],
	])('{orderId, refundNo} with %s: unknown, never accepted', async (_what, fields) => {
		const { item, refundId } = await refundOne(fields);
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: refundId });
	});

	it('{orderId, orderNo of the payment asked, refundNo}, no status: accepted', async () => {
		const { item, refundId } = await refundOne({ orderNo: PAYMENT, refundNo: 'RN1' });
		expect(item).toMatchObject({ outcome: 'accepted', orderId: refundId, refundNo: 'RN1', verified: true });
	});
});
