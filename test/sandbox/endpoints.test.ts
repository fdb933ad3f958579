import { startSandbox, type Sandbox } from '../../sandbox';
import { TEST_KEY_DIR } from '../../sandbox/keys';
import { CASHIER_APP_ID } from '../../sandbox/merchants';
import { loadPublicKey } from '../../sandbox/signing';
import {
	APP,
	call,
	control,
	dataVerifies,
	mitApply,
	OTHER_KEY,
	payoutFor,
	rawPost,
	signed,
	tzsPayout,
	uniqueId,
	withSandbox,
	type Body,
} from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await withSandbox();
});
afterAll(() => sandbox.close());

describe('payout applications', () => {
	it.each(['TZS', 'ZAR', 'NGN', 'EGP', 'BDT'] as const)(
		'%s answers orderId, orderNo and a platform signature',
		async (currency) => {
			const body = payoutFor(currency);
			const answer = await call(sandbox, `/${currency.toLowerCase()}/pay/apply`, body);
			expect(answer).toMatchObject({ status: '1', error: '00000000', msg: 'success' });
			const data = answer.data as Body;
			expect(data.orderId).toBe(body.orderId);
			expect(data.orderNo).toMatch(/^HP\d{8}\d{10}$/);
			expect(dataVerifies(answer, APP[currency])).toBe(true);
			const order = sandbox.control.order(String(data.orderNo));
			expect(order).toMatchObject({ kind: 'payout', appId: APP[currency], currency, status: 1 });
		},
	);
});

describe('USD MIT application', () => {
	it('answers a cashier payUrl and a clientToken', async () => {
		const answer = await call(sandbox, '/usd/mit/apply', mitApply());
		const data = answer.data as Body;
		expect(answer.status).toBe('1');
		expect(data.payUrl).toBe(`${sandbox.baseUrl}/cashier/${String(data.orderNo)}`);
		expect(data.clientToken).toMatch(/^ct_[0-9a-f]{32}$/);
		expect(dataVerifies(answer, APP.USD)).toBe(true);
		expect(sandbox.control.order(String(data.orderNo))).toMatchObject({ kind: 'collection', status: 0 });
	});
});

describe('queries', () => {
	it('BRL pay query answers the contract members, without payTime', async () => {
		const order = sandbox.control.createOrder({ appId: APP.BRL, amount: '120.5', status: 2 });
		const answer = await call(sandbox, '/brl/pay/query', { appId: APP.BRL, orderId: order.orderId });
		expect(Object.keys(answer.data as Body).sort()).toEqual([
			'amount',
			'errorMsg',
			'fee',
			'orderId',
			'orderNo',
			'sign',
			'status',
		]);
		expect(answer.data).toMatchObject({
			orderNo: order.orderNo,
			amount: '120.50',
			fee: '1.21',
			status: 2,
			errorMsg: '',
		});
		expect(dataVerifies(answer, APP.BRL)).toBe(true);
	});

	it('MYR pay query adds payTime as YYYY-MM-DD HH:mm:ss', async () => {
		const order = sandbox.control.createOrder({ appId: APP.MYR, amount: '99.00', status: 2 });
		const answer = await call(sandbox, '/myr/pay/query', { appId: APP.MYR, orderNo: order.orderNo });
		expect(Object.keys(answer.data as Body).sort()).toEqual([
			'amount',
			'errorMsg',
			'fee',
			'orderId',
			'orderNo',
			'payTime',
			'sign',
			'status',
		]);
		expect((answer.data as Body).payTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
	});

	it.each([
		['SAR', '/sar/collect/query'],
		['IDR', '/idr/collect/query'],
		['USDC', '/usdc/collect/query'],
	] as const)('%s collection query answers actualAmount after the fee', async (currency, path) => {
		const order = sandbox.control.createOrder({
			appId: APP[currency],
			kind: 'collection',
			amount: '100.00',
			status: 2,
		});
		const answer = await call(sandbox, path, { appId: APP[currency], orderId: order.orderId, orderNo: order.orderNo });
		expect(Object.keys(answer.data as Body).sort()).toEqual([
			'actualAmount',
			'amount',
			'errorMsg',
			'fee',
			'orderId',
			'orderNo',
			'payTime',
			'sign',
			'status',
		]);
		expect(answer.data).toMatchObject({ amount: '100.00', fee: '3.00', actualAmount: '97.00', status: 2 });
		expect(dataVerifies(answer, APP[currency])).toBe(true);
	});

	it('generic queries exist for every currency: a TZS payout and a USD collection', async () => {
		const apply = await call(sandbox, '/tzs/pay/apply', tzsPayout());
		const orderNo = (apply.data as Body).orderNo;
		const payout = await call(sandbox, '/tzs/pay/query', { appId: APP.TZS, orderNo });
		expect(payout.data).toMatchObject({ orderNo, amount: '15000.50', fee: '150.01', status: 1, payTime: '' });
		const mit = await call(sandbox, '/usd/mit/apply', mitApply());
		const collection = await call(sandbox, '/usd/collect/query', {
			appId: APP.USD,
			orderNo: (mit.data as Body).orderNo,
		});
		expect(collection.data).toMatchObject({ status: 0, amount: '25.00', actualAmount: '0.00' });
	});

	it('an unknown order is status "1" with data.status 3 and an errorMsg', async () => {
		const answer = await call(sandbox, '/brl/pay/query', { appId: APP.BRL, orderId: 'NEVER-SEEN' });
		expect(answer).toMatchObject({ status: '1', error: '00000000' });
		expect(answer.data).toMatchObject({ orderId: 'NEVER-SEEN', status: 3 });
		expect(String((answer.data as Body).errorMsg)).not.toBe('');
		expect(dataVerifies(answer, APP.BRL)).toBe(true);
	});

	it('an order of another kind, appId or orderId is unknown to a query', async () => {
		const payout = sandbox.control.createOrder({ appId: APP.SAR, amount: '10.00' });
		const asCollection = await call(sandbox, '/sar/collect/query', { appId: APP.SAR, orderNo: payout.orderNo });
		expect((asCollection.data as Body).status).toBe(3);
		const brl = sandbox.control.createOrder({ appId: APP.BRL, amount: '10.00' });
		const mismatch = await call(sandbox, '/brl/pay/query', {
			appId: APP.BRL,
			orderNo: brl.orderNo,
			orderId: 'SOMETHING-ELSE',
		});
		expect((mismatch.data as Body).status).toBe(3);
		const otherApp = await call(sandbox, '/myr/pay/query', { appId: APP.MYR, orderNo: brl.orderNo });
		expect((otherApp.data as Body).status).toBe(3);
	});
});

describe('ledger', () => {
	it('answers bal, availableBal, frzBal and unSettleBal as decimal strings', async () => {
		const answer = await call(sandbox, '/zar/account/ledger', { appId: APP.ZAR });
		const data = answer.data as Body;
		for (const key of ['bal', 'availableBal', 'frzBal', 'unSettleBal']) expect(data[key]).toMatch(/^-?\d+\.\d{2}$/);
		expect(dataVerifies(answer, APP.ZAR)).toBe(true);
	});
});

describe('errors', () => {
	it('an unknown appId is 4004', async () => {
		const answer = await call(sandbox, '/tzs/pay/apply', tzsPayout({ appId: 9999 }), false);
		expect(answer).toMatchObject({ status: '0', error: '4004', data: null });
		expect(answer.msg).toContain('9999');
	});

	it('an appId of another currency is 4005, on applies, queries and the ledger', async () => {
		const apply = await call(sandbox, '/zar/pay/apply', payoutFor('TZS'));
		expect(apply).toMatchObject({ status: '0', error: '4005' });
		expect(apply.msg).toContain('TZS');
		expect(apply.msg).toContain('ZAR');
		expect((await call(sandbox, '/brl/pay/query', { appId: APP.MYR, orderId: 'x' })).error).toBe('4005');
		expect((await call(sandbox, '/usd/account/ledger', { appId: APP.USDC })).error).toBe('4005');
	});

	describe('signatures (4003)', () => {
		const base = () => tzsPayout();
		it('missing sign', async () => {
			const answer = await call(sandbox, '/tzs/pay/apply', base(), false);
			expect(answer).toMatchObject({ status: '0', error: '4003' });
			expect(answer.msg).toContain('sign');
		});
		it('empty sign', async () => {
			expect((await call(sandbox, '/tzs/pay/apply', { ...base(), sign: '' }, false)).error).toBe('4003');
		});
		it('garbage sign', async () => {
			expect((await call(sandbox, '/tzs/pay/apply', { ...base(), sign: 'bm90IGEgc2lnbmF0dXJl' }, false)).error).toBe(
				'4003',
			);
		});
		it('sign as a number', async () => {
			expect((await call(sandbox, '/tzs/pay/apply', { ...base(), sign: 12345 }, false)).error).toBe('4003');
		});
		it('signed with another private key', async () => {
			expect((await call(sandbox, '/tzs/pay/apply', signed(base(), { key: OTHER_KEY }), false)).error).toBe('4003');
		});
		it('signed with another secret', async () => {
			expect(
				(await call(sandbox, '/tzs/pay/apply', signed(base(), { secret: 'test-only-secret-zar' }), false)).error,
			).toBe('4003');
		});
		it('a field changed after signing', async () => {
			const body = signed(base());
			expect((await call(sandbox, '/tzs/pay/apply', { ...body, amount: '15000.51' }, false)).error).toBe('4003');
		});
		it('a field added after signing', async () => {
			const body = signed(base());
			expect((await call(sandbox, '/tzs/pay/apply', { ...body, subject: 'added' }, false)).error).toBe('4003');
		});
		it('nothing is created by a rejected request', async () => {
			const body = base();
			await call(sandbox, '/tzs/pay/apply', signed(body, { key: OTHER_KEY }), false);
			expect(sandbox.control.order({ orderId: String(body.orderId), appId: APP.TZS })).toBeUndefined();
		});
	});

	it('a duplicate orderId is 4006 and leaves the first order unchanged', async () => {
		const first = tzsPayout({ amount: '2000' });
		const created = await call(sandbox, '/tzs/pay/apply', first);
		const before = JSON.stringify(sandbox.control.order(String((created.data as Body).orderNo)));
		const ledger = sandbox.control.ledger(APP.TZS);
		const again = await call(sandbox, '/tzs/pay/apply', { ...first, amount: '3000', name: 'Someone Else' });
		expect(again).toMatchObject({ status: '0', error: '4006', data: null });
		expect(again.msg).toContain(String(first.orderId));
		expect(JSON.stringify(sandbox.control.order(String((created.data as Body).orderNo)))).toBe(before);
		expect(sandbox.control.orders({ appId: APP.TZS }).filter((o) => o.orderId === first.orderId)).toHaveLength(1);
		expect(sandbox.control.ledger(APP.TZS)).toEqual(ledger);
	});

	it('the same orderId under two appIds is two orders', async () => {
		const orderId = uniqueId('SHARED');
		expect((await call(sandbox, '/tzs/pay/apply', tzsPayout({ orderId }))).status).toBe('1');
		expect((await call(sandbox, '/zar/pay/apply', payoutFor('ZAR', { orderId }))).status).toBe('1');
	});

	it('a payout beyond the available balance is 4007 and holds nothing', async () => {
		sandbox.control.setBalance(APP.BDT, '1000.00');
		const frozen = Number(sandbox.control.ledger(APP.BDT).frzBal);
		const answer = await call(sandbox, '/bdt/pay/apply', payoutFor('BDT', { amount: '995' }));
		expect(answer).toMatchObject({ status: '0', error: '4007' });
		expect(answer.msg).toContain('balance');
		expect(sandbox.control.ledger(APP.BDT)).toMatchObject({ availableBal: '1000.00', frzBal: frozen.toFixed(2) });
		// 990 + 1% fee = 999.90 fits.
		expect((await call(sandbox, '/bdt/pay/apply', payoutFor('BDT', { amount: '990' }))).status).toBe('1');
		expect(sandbox.control.ledger(APP.BDT)).toMatchObject({
			availableBal: '0.10',
			frzBal: (frozen + 999.9).toFixed(2),
		});
	});

	it('an unknown bankCode channel is 4002', async () => {
		const answer = await call(sandbox, '/zar/pay/apply', payoutFor('ZAR', { bankCode: 'NOSUCHBANK' }));
		expect(answer).toMatchObject({ status: '0', error: '4002' });
	});

	it('an unknown tokenID is 4009', async () => {
		const answer = await call(sandbox, '/usd/mit/apply', mitApply({ tokenID: 'tok_unknown' }));
		expect(answer).toMatchObject({ status: '0', error: '4009' });
		expect(answer.msg).toContain('tokenID');
	});

	it.each(['/xyz/pay/apply', '/tzs/pay/refund', '/sar/pay/apply', '/usdc/pay/apply', '/'])(
		'unknown endpoint %s is 4040',
		async (path) => {
			const raw = await rawPost(sandbox.baseUrl, path, signed({ appId: APP.TZS }));
			expect(raw.httpStatus).toBe(200);
			expect(raw.json).toMatchObject({ status: '0', error: '4040' });
		},
	);

	it('a body that is not JSON, or not an object, is 4000', async () => {
		expect((await rawPost(sandbox.baseUrl, '/tzs/pay/apply', '{"appId":')).json).toMatchObject({
			status: '0',
			error: '4000',
		});
		expect((await rawPost(sandbox.baseUrl, '/tzs/pay/apply', [1, 2])).json).toMatchObject({
			status: '0',
			error: '4000',
		});
	});

	it('a GET is 4050', async () => {
		const response = await fetch(`${sandbox.baseUrl}/tzs/pay/query`);
		expect(response.status).toBe(200);
		expect(await response.json()).toMatchObject({ status: '0', error: '4050' });
	});

	it('a missing or non-integer appId is 4001', async () => {
		expect((await call(sandbox, '/tzs/account/ledger', {}, false)).error).toBe('4001');
		expect((await call(sandbox, '/tzs/account/ledger', { appId: 1001.5, sign: 'x' }, false)).msg).toContain('appId');
	});
});

describe('merchant configuration', () => {
	it('serves configured merchants only, per environment, with their array style', async () => {
		const { readFileSync } = await import('fs');
		const { join } = await import('path');
		const publicKey = loadPublicKey(readFileSync(join(TEST_KEY_DIR, 'merchant-test-only.public.pem'), 'utf8'));
		const custom = await startSandbox({
			manual: true,
			merchants: [
				{ appId: 77, currency: 'tzs', secretKey: 'list-secret', publicKey, arrayStyle: 'list', balance: '50.00' },
				{ appId: 78, currency: 'TZS', secretKey: 'prod-secret', publicKey, environment: 'production' },
			],
		});
		try {
			expect(custom.merchants.map((m) => m.appId)).toEqual([77, 78]);
			const ledger = await rawPost(
				custom.baseUrl,
				'/tzs/account/ledger',
				signed({ appId: 77 }, { secret: 'list-secret' }),
			);
			expect(ledger.json?.data).toMatchObject({ availableBal: '50.00' });
			const prod = await rawPost(
				custom.baseUrl,
				'/tzs/account/ledger',
				signed({ appId: 78 }, { secret: 'prod-secret' }),
			);
			expect(prod.json).toMatchObject({ status: '0', error: '4004' });
			expect(prod.json?.msg).toContain('sandbox');
			const voucher = { appId: 77, orderNos: ['A', 'B'] };
			const asList = await rawPost(
				custom.baseUrl,
				'/common/voucher/pdf',
				signed(voucher, { secret: 'list-secret', arrayStyle: 'list' }),
			);
			expect(asList.json).toMatchObject({ error: '4008' });
			const asJson = await rawPost(
				custom.baseUrl,
				'/common/voucher/pdf',
				signed(voucher, { secret: 'list-secret', arrayStyle: 'json' }),
			);
			expect(asJson.json).toMatchObject({ error: '4003' });
			expect((await rawPost(custom.baseUrl, '/zar/account/ledger', signed({ appId: 1002 }))).json).toMatchObject({
				error: '4004',
			});
		} finally {
			await custom.close();
		}
	});

	it('lists its merchants and their balances over HTTP, without secrets', async () => {
		const { status, json } = await control(sandbox, 'GET', '/merchants');
		expect(status).toBe(200);
		const list = json as Body[];
		expect(list.map((m) => `${String(m.appId)} ${String(m.currency)}`)).toEqual(
			// The global cashier's merchant comes last: it has an App ID of its own, but no currency of the paths.
			[...Object.entries(APP).map(([currency, appId]) => `${appId} ${currency}`), CASHIER_APP_ID.join(' ')],
		);
		expect(JSON.stringify(list)).not.toContain('test-only-secret');
		expect(list[0]).toHaveProperty('availableBal');
	});
});
