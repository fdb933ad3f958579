import { startSandbox, type Sandbox } from '../../sandbox';
import { verifyBody } from '../../sandbox/signing';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { localCollectionBody, payoutBody, type LocalCollectionCurrency } from '../fixtures/bodies';
import {
	APP,
	call,
	control,
	dataVerifies,
	mitApply,
	PLATFORM_PUBLIC,
	secretOf,
	startReceiver,
	uniqueId,
	until,
	withSandbox,
	type Body,
} from './helpers';

/**
 * The local-currency collections and card refunds of the sandbox, each on its own request schema (written from
 * HaiPay's pages, not from the node's rules): every rule on both sides of its edge, then the life of an order (answer,
 * settlement by the control API, callback, query) and of a refund (apply, query, settlement, refusals).
 */

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await withSandbox();
});
afterAll(() => sandbox.close());

type Case = [string, Body, true | string];

const collection = (currency: LocalCollectionCurrency, overrides: Body = {}) =>
	localCollectionBody(currency, uniqueId(currency), overrides);
const without = (body: Body, field: string): Body =>
	Object.fromEntries(Object.entries(body).filter(([name]) => name !== field));

async function expectCase(path: string, body: Body, expected: true | string): Promise<void> {
	const answer = await call(sandbox, path, body);
	if (expected === true) {
		expect({ status: answer.status, msg: answer.msg }).toEqual({ status: '1', msg: 'success' });
	} else {
		expect({ status: answer.status, error: answer.error }).toEqual({ status: '0', error: '4001' });
		expect(answer.msg).toContain(expected);
	}
}

const REQUIRED = [
	'orderId',
	'name',
	'phone',
	'email',
	'amount',
	'payType',
	'inBankCode',
	'callBackUrl',
	'callBackFailUrl',
	'partnerUserId',
];

describe.each([
	[
		'BRL',
		[
			['amount 0.01', { amount: '0.01' }, true],
			['amount 0.00', { amount: '0.00' }, 'amount'],
			['amount 99999.99', { amount: '99999.99' }, true],
			['amount 100000.00', { amount: '100000.00' }, 'amount'],
			['amount without decimals', { amount: '300' }, 'amount'],
			['amount with one decimal', { amount: '300.5' }, 'amount'],
			['CPF of 11 digits', { inBankNo: '00000000000' }, true],
			['CPF of 10 digits', { inBankNo: '1234567890' }, 'inBankNo'],
			['CPF with dots', { inBankNo: '123.456.789-09' }, 'inBankNo'],
			['name of 30', { name: 'A'.repeat(30) }, true],
			['name of 31', { name: 'A'.repeat(31) }, 'name'],
			['name with ! and -', { name: 'Ana-Maria Silva!' }, true],
			['name with an apostrophe', { name: "O'Brien" }, 'name'],
			['redirect not a URL', { callBackUrl: 'shop/paid' }, 'callBackUrl'],
		],
	],
	[
		'IDR',
		[
			['amount 1', { amount: '1' }, true],
			['amount 0', { amount: '0' }, 'amount'],
			['amount with decimals', { amount: '50000.00' }, 'amount'],
			['phone 08 + 8 digits', { phone: '0812345678' }, true],
			['phone 08 + 7 digits', { phone: '081234567' }, 'phone'],
			['phone 08 + 11 digits', { phone: '0812345678901' }, true],
			['phone 08 + 12 digits', { phone: '08123456789012' }, 'phone'],
			['payType VA', { payType: 'VA' }, true],
			['payType EWALLET', { payType: 'EWALLET' }, true],
			['payType CARD', { payType: 'CARD' }, 'payType'],
			['currency IDR', { currency: 'IDR' }, true],
			['currency USD', { currency: 'USD' }, 'currency'],
			['name with an accent', { name: 'Budi Santosó' }, 'name'],
			['name of 31', { name: 'B'.repeat(31) }, 'name'],
		],
	],
	[
		'PHP',
		[
			['amount 50', { amount: '50' }, true],
			['amount 49.99', { amount: '49.99' }, 'amount'],
			['amount 49999.99', { amount: '49999.99' }, true],
			['amount 50000', { amount: '50000' }, 'amount'],
			['amount with one decimal', { amount: '500.5' }, 'amount'],
			['amount with two decimals', { amount: '500.50' }, true],
			['phone 09 + 9 digits', { phone: '09171234567' }, true],
			['phone of 10 digits', { phone: '0917123456' }, 'phone'],
			['phone 63...', { phone: '639171234567' }, 'phone'],
		],
	],
	[
		'BDT',
		[
			['amount 500.00', { amount: '500.00' }, true],
			['amount 500', { amount: '500' }, 'amount'],
			['amount 0.00', { amount: '0.00' }, 'amount'],
			['name of one word', { name: 'Rahim' }, 'name'],
			['country 458', { country: '458' }, true],
			['country 050', { country: '050' }, 'country'],
			['without subject', { subject: undefined }, 'subject is required'],
		],
	],
] as Array<[LocalCollectionCurrency, Case[]]>)('%s collection (/{ccy}/collect/apply)', (currency, cases) => {
	const path = `/${currency.toLowerCase()}/collect/apply`;
	it.each(cases)('%s', (_name, overrides, expected) =>
		expectCase(path, JSON.parse(JSON.stringify(collection(currency, overrides))) as Body, expected),
	);
	it.each(REQUIRED)('without %s', (field) =>
		expectCase(path, without(collection(currency), field), `${field} is required`),
	);
	it('accepts an unknown field, which HaiPay may add', () =>
		expectCase(path, collection(currency, { expiryPeriod: 30 }), true));
	it("refuses another currency's App ID", async () => {
		const answer = await call(sandbox, path, { ...collection(currency), appId: APP.USD });
		expect(answer).toMatchObject({ status: '0', error: '4005' });
	});
});

describe('the life of a local collection', () => {
	it('a PIX QR collection answers its payUrl, qrCode, bankNo and bankCode, signed; waits; is settled, called back and queried', async () => {
		const receiver = await startReceiver();
		try {
			const body = collection('BRL', { notifyUrl: receiver.url });
			const answer = await call(sandbox, '/brl/collect/apply', body);
			expect(dataVerifies(answer, APP.BRL)).toBe(true);
			const data = answer.data as Body;
			expect(data).toMatchObject({
				orderId: body.orderId,
				bankCode: 'PIX',
				payUrl: `${sandbox.baseUrl}/cashier/${String(data.orderNo)}`,
			});
			expect(String(data.qrCode)).toMatch(/^000201010212.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
			expect(String(data.bankNo)).toMatch(/^PC\d+$/);
			expect(sandbox.control.order(String(data.orderNo))).toMatchObject({
				kind: 'collection',
				status: 0,
				currency: 'BRL',
			});
			const query = async () =>
				(await call(sandbox, '/brl/collect/query', { appId: APP.BRL, orderId: body.orderId })).data as Body;
			expect(await query()).toMatchObject({ status: 0, orderNo: data.orderNo });

			expect((await control(sandbox, 'POST', '/settle', { orderNo: data.orderNo, outcome: 'success' })).status).toBe(
				200,
			);
			const attempt = await sandbox.waitForCallback((entry) => entry.orderNo === data.orderNo);
			expect(attempt.body).toMatchObject({
				appId: APP.BRL,
				currency: 'BRL',
				orderId: body.orderId,
				status: 2,
				amount: '300.00',
			});
			expect(verifyBody(attempt.body, String(attempt.body.sign), secretOf(APP.BRL), PLATFORM_PUBLIC)).toBe(true);
			expect(await query()).toMatchObject({ status: 2, amount: '300.00', actualAmount: '291.00', fee: '9.00' });
		} finally {
			await receiver.close();
		}
	});

	it.each([
		['IDR', 'QR', { qrCode: expect.stringMatching(/ID\.CO\.QRIS/), bankNo: '' }],
		['IDR', 'VA', { qrCode: '', bankNo: expect.stringMatching(/^88\d+$/) }],
		['PHP', 'QR', { qrCode: expect.stringMatching(/ph\.ppmi\.p2m/), bankNo: expect.stringMatching(/^88\d+$/) }],
	])('%s %s answers what the payer pays with', async (currency, payType, expected) => {
		const answer = await call(
			sandbox,
			`/${currency.toLowerCase()}/collect/apply`,
			collection(currency as LocalCollectionCurrency, { payType }),
		);
		expect(answer.data).toMatchObject(expected);
	});

	it('BDT answers the page only', async () => {
		const answer = await call(sandbox, '/bdt/collect/apply', collection('BDT'));
		expect(Object.keys(answer.data as Body).sort()).toEqual(['orderId', 'orderNo', 'payUrl', 'sign']);
	});

	it('the payUrl page pays the order, as the payer would', async () => {
		const answer = await call(sandbox, '/php/collect/apply', collection('PHP'));
		const orderNo = String((answer.data as Body).orderNo);
		sandbox.control.payCashier(orderNo, 'pay');
		expect(sandbox.control.order(orderNo)?.status).toBe(2);
	});

	it('refuses a repeated orderId, as every apply', async () => {
		const body = collection('IDR');
		expect((await call(sandbox, '/idr/collect/apply', body)).status).toBe('1');
		expect(await call(sandbox, '/idr/collect/apply', body)).toMatchObject({ status: '0', error: '4006' });
	});
});

describe('card refunds (/usd/refund/apply, /usd/refund/refundQuery)', () => {
	async function paidCollection(): Promise<string> {
		const answer = await call(sandbox, '/usd/mit/apply', mitApply());
		const orderNo = String((answer.data as Body).orderNo);
		sandbox.control.payCashier(orderNo, 'pay');
		return orderNo;
	}

	it('refunds a paid collection, whole: a refundNo, queried by it or by the refund number, settled by the control API', async () => {
		const orderNo = await paidCollection();
		const before = sandbox.control.ledger(APP.USD);
		const refundId = uniqueId('RF');
		const answer = await call(sandbox, '/usd/refund/apply', { appId: APP.USD, orderId: refundId, orderNo });
		expect(dataVerifies(answer, APP.USD)).toBe(true);
		const data = answer.data as Body;
		expect(data).toMatchObject({
			appId: String(APP.USD),
			orderId: refundId,
			orderNo,
			status: 'PROCESSING',
			errorMsg: '',
		});
		expect(String(data.refundNo)).toMatch(/^RF\d+$/);
		expect(sandbox.control.ledger(APP.USD).frzBal).not.toBe(before.frzBal);

		for (const keys of [
			{ refundNo: data.refundNo },
			{ orderId: refundId },
			{ orderId: refundId, refundNo: data.refundNo },
		]) {
			const query = await call(sandbox, '/usd/refund/refundQuery', { appId: APP.USD, ...keys });
			expect(dataVerifies(query, APP.USD)).toBe(true);
			expect(query.data).toMatchObject({ refundNo: data.refundNo, orderId: refundId, status: 'PROCESSING' });
		}
		expect(
			(await control(sandbox, 'POST', '/refunds/settle', { refundNo: data.refundNo, outcome: 'success' })).status,
		).toBe(200);
		expect(
			(await call(sandbox, '/usd/refund/refundQuery', { appId: APP.USD, refundNo: data.refundNo })).data,
		).toMatchObject({ status: 'SUCCESS' });
		expect(sandbox.control.ledger(APP.USD).frzBal).toBe(before.frzBal);
		expect(sandbox.callbacks.filter((attempt) => attempt.orderId === refundId)).toEqual([]);
		// An attempt is logged only once answered: no callback queued either.
		const mentions = (job: { body: unknown }) =>
			[refundId, String(data.refundNo)].some((key) => JSON.stringify(job.body).includes(key));
		expect(sandbox.control.callbackJobs().filter(mentions)).toEqual([]);
	});

	it.each([
		['an unknown order', async () => 'HP-NO-SUCH-ORDER', 'is not a collection'],
		[
			'an unpaid order',
			async () => String(((await call(sandbox, '/usd/mit/apply', mitApply())).data as Body).orderNo),
			'is not paid (status 0)',
		],
		[
			'a payout',
			async () =>
				String(((await call(sandbox, '/tzs/pay/apply', payoutBody('TZS', uniqueId('TZS')))).data as Body).orderNo),
			'is not a collection',
		],
	])('refuses a refund of %s, and creates nothing', async (_what, orderOf, message) => {
		const orderNo = await orderOf();
		const refundId = uniqueId('RF');
		const answer = await call(sandbox, '/usd/refund/apply', { appId: APP.USD, orderId: refundId, orderNo });
		expect(answer).toMatchObject({ status: '0', error: '4012', data: null });
		expect(answer.msg).toContain(message);
		expect(sandbox.refunds.find((refund) => refund.orderId === refundId)).toBeUndefined();
	});

	it('refuses a repeated refund number (as a repeated orderId), and a second refund of one payment', async () => {
		const orderNo = await paidCollection();
		const refundId = uniqueId('RF');
		expect((await call(sandbox, '/usd/refund/apply', { appId: APP.USD, orderId: refundId, orderNo })).status).toBe('1');
		const repeated = await call(sandbox, '/usd/refund/apply', { appId: APP.USD, orderId: refundId, orderNo });
		expect(repeated).toMatchObject({ status: '0', error: '4006' });
		expect(repeated.msg).toContain('already exists');
		const again = await call(sandbox, '/usd/refund/apply', { appId: APP.USD, orderId: uniqueId('RF'), orderNo });
		expect(again).toMatchObject({ status: '0', error: '4012' });
		expect(again.msg).toContain('already refunded');
		expect(sandbox.refunds.filter((refund) => refund.orderNo === orderNo)).toHaveLength(1);
	});

	it('answers a query of an unknown refund with an error, and refuses a query without keys', async () => {
		expect(await call(sandbox, '/usd/refund/refundQuery', { appId: APP.USD, refundNo: 'RF-NOPE' })).toMatchObject({
			status: '0',
			error: '4013',
		});
		const none = await call(sandbox, '/usd/refund/refundQuery', { appId: APP.USD });
		expect(none).toMatchObject({ status: '0', error: '4001', msg: 'orderId or refundNo is required' });
	});

	it.each([
		['without orderNo', { orderNo: undefined }, 'orderNo is required'],
		['a refund number of 49', { orderId: 'R'.repeat(49) }, 'orderId'],
		['an orderNo of 65', { orderNo: 'H'.repeat(65) }, 'orderNo'],
	])('checks its schema: %s', (_name, overrides, message) =>
		expectCase(
			'/usd/refund/apply',
			JSON.parse(JSON.stringify({ appId: APP.USD, orderId: uniqueId('RF'), orderNo: 'HP1', ...overrides })) as Body,
			message,
		),
	);

	it('takes only the USD App ID', async () => {
		expect(
			await call(sandbox, '/usd/refund/apply', { appId: APP.BRL, orderId: uniqueId('RF'), orderNo: 'HP1' }),
		).toMatchObject({ status: '0', error: '4005' });
	});
});

describe('refunds on their own, and across a restart', () => {
	it('settles a refund by itself after the final delay when not manual, and keeps it in the state file', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'haipay-refunds-'));
		const stateFile = join(dir, 'state.json');
		let auto = await startSandbox({ stateFile, transitionDelays: { finalMs: 5 }, callbackSchedule: [] });
		try {
			const applied = await call(auto, '/usd/mit/apply', mitApply());
			const orderNo = String((applied.data as Body).orderNo);
			auto.control.payCashier(orderNo, 'pay');
			const refundId = uniqueId('RF');
			await call(auto, '/usd/refund/apply', { appId: APP.USD, orderId: refundId, orderNo });
			await until(() => auto.refunds.find((refund) => refund.orderId === refundId)?.status === 'SUCCESS');
			await auto.close();
			auto = await startSandbox({ stateFile, callbackSchedule: [] });
			expect((await call(auto, '/usd/refund/refundQuery', { appId: APP.USD, orderId: refundId })).data).toMatchObject({
				orderNo,
				status: 'SUCCESS',
			});
		} finally {
			await auto.close();
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
