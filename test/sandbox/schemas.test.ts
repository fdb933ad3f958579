import type { Sandbox } from '../../sandbox';
import { APP, call, mitApply, payoutFor, tzsPayout, uniqueId, withSandbox, type Body } from './helpers';

/**
 * Every rule of the contract on both sides of its edge, through real signed HTTP requests. A pass is a created
 * order (status "1"); a failure is error 4001 with a message that names the field.
 */

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await withSandbox();
});
afterAll(() => sandbox.close());

type Case = [string, Body, true | string];

async function expectCase(path: string, body: Body, expected: true | string): Promise<void> {
	const answer = await call(sandbox, path, body);
	if (expected === true) {
		expect({ status: answer.status, msg: answer.msg }).toEqual({ status: '1', msg: 'success' });
	} else {
		expect(answer.status).toBe('0');
		expect(answer.error).toBe('4001');
		expect(answer.msg).toContain(expected);
		expect(answer.data).toBeNull();
	}
}

const without = (body: Body, field: string): Body => {
	const copy = { ...body };
	delete copy[field];
	return copy;
};

describe('TZS payout (/tzs/pay/apply)', () => {
	const t = (overrides: Body) => tzsPayout(overrides);
	const cases: Case[] = [
		['amount at the minimum 1000', t({ amount: '1000' }), true],
		['amount just under the minimum', t({ amount: '999.99' }), 'amount'],
		['amount at the maximum 5000000', t({ amount: '5000000' }), true],
		['amount just over the maximum', t({ amount: '5000000.01' }), 'amount'],
		['amount with two decimals', t({ amount: '1000.55' }), true],
		['amount with three decimals', t({ amount: '1000.555' }), 'amount'],
		['amount with a thousands comma', t({ amount: '1,000' }), 'amount'],
		['amount with a leading zero', t({ amount: '01000' }), 'amount'],
		['amount as a number', t({ amount: 1000 }), 'amount'],
		['orderId of 48 characters', t({ orderId: `${uniqueId()}-`.padEnd(48, 'x') }), true],
		['orderId of 49 characters', t({ orderId: `${uniqueId()}-`.padEnd(49, 'x') }), 'orderId'],
		['accountType EWALLET', t({ accountType: 'EWALLET' }), true],
		['accountType BANK_ACCOUNT', t({ accountType: 'BANK_ACCOUNT' }), 'accountType'],
		['bankCode AIRTEL', t({ bankCode: 'AIRTEL' }), true],
		['bankCode HALOPESA', t({ bankCode: 'HALOPESA' }), true],
		['bankCode TIGO', t({ bankCode: 'TIGO' }), true],
		['bankCode VODACOM', t({ bankCode: 'VODACOM' }), true],
		['bankCode MPESA', t({ bankCode: 'MPESA' }), 'bankCode'],
		['bankCode in lower case', t({ bankCode: 'vodacom' }), 'bankCode'],
		['accountNo of 12 digits from 255', t({ accountNo: '255700000000' }), true],
		['accountNo of 11 digits', t({ accountNo: '25571234567' }), 'accountNo'],
		['accountNo of 13 digits', t({ accountNo: '2557123456789' }), 'accountNo'],
		['accountNo not starting with 255', t({ accountNo: '254712345678' }), 'accountNo'],
		['name of one letter', t({ name: 'A' }), true],
		['name of 30 characters', t({ name: `${'A'.repeat(14)} ${'B'.repeat(15)}` }), true],
		['name of 31 characters', t({ name: `${'A'.repeat(15)} ${'B'.repeat(15)}` }), 'name'],
		['name with a middle name', t({ name: 'Amina Binti Juma' }), true],
		['name of four words', t({ name: 'Amina Binti Juma Ali' }), 'name'],
		['name with a digit', t({ name: 'Amina Juma2' }), 'name'],
		['name with a hyphen', t({ name: 'Amina-Juma' }), 'name'],
		['name with an accent', t({ name: 'Amína Juma' }), 'name'],
		['name with two spaces', t({ name: 'Amina  Juma' }), 'name'],
		['phone with a plus', t({ phone: '+255712345678' }), true],
		['phone with letters', t({ phone: '255-CALL-ME' }), 'phone'],
		['email well formed', t({ email: 'a.b+c@example.co.tz' }), true],
		['email without a domain', t({ email: 'amina@' }), 'email'],
		['notifyUrl absolute', t({ notifyUrl: 'https://merchant.example/notify?x=1' }), true],
		['notifyUrl relative', t({ notifyUrl: 'notify/here' }), 'notifyUrl'],
		['subject and body given', t({ subject: 'Salary', body: 'November salary' }), true],
		['partnerUserId with every allowed symbol', t({ partnerUserId: 'aZ09-~!@#$%&*()_' }), true],
		['partnerUserId with a space', t({ partnerUserId: 'user 42' }), 'partnerUserId'],
		['partnerUserId with a slash', t({ partnerUserId: 'user/42' }), 'partnerUserId'],
		['partnerUserId empty', t({ partnerUserId: '' }), 'partnerUserId'],
		['an unknown field', t({ nickname: 'Ami' }), 'nickname'],
		['appId as a string', t({ appId: '1001' }), 'appId'],
		...['orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'phone', 'email', 'partnerUserId'].map(
			(field): Case => [`without ${field}`, without(tzsPayout(), field), `${field} is required`],
		),
		...['notifyUrl', 'subject', 'body'].map((field): Case => [
			`without optional ${field}`,
			without(tzsPayout({ [field]: 'https://x.example/' }), field),
			true,
		]),
	];
	it.each(cases)('%s', (_name, body, expected) => expectCase('/tzs/pay/apply', body, expected));
});

describe('ZAR payout (/zar/pay/apply)', () => {
	const z = (overrides: Body) => payoutFor('ZAR', overrides);
	const cases: Case[] = [
		['amount 1', z({ amount: '1' }), true],
		['amount 0.99', z({ amount: '0.99' }), 'amount'],
		['amount 10000000', z({ amount: '10000000' }), true],
		['amount 10000000.01', z({ amount: '10000000.01' }), 'amount'],
		['accountType EWALLET', z({ accountType: 'EWALLET' }), 'accountType'],
		['an unknown field is accepted', z({ branch: '250655' }), true],
		[
			'without phone, email and partnerUserId',
			without(without(without(z({}), 'phone'), 'email'), 'partnerUserId'),
			true,
		],
		['without bankCode', without(z({}), 'bankCode'), 'bankCode is required'],
		['name with digits', z({ name: 'Thabo 2' }), 'name'],
	];
	it.each(cases)('%s', (_name, body, expected) => expectCase('/zar/pay/apply', body, expected));
});

describe('NGN payout (/ngn/pay/apply)', () => {
	const n = (overrides: Body) => payoutFor('NGN', overrides);
	const cases: Case[] = [
		['amount 0.0001', n({ amount: '0.0001' }), true],
		['amount 0.0000', n({ amount: '0.0000' }), 'amount'],
		['amount with five decimals', n({ amount: '1.12345' }), 'amount'],
		['amount with a leading zero', n({ amount: '05' }), 'amount'],
		['accountNo of 10 digits', n({ accountNo: '0000000000' }), true],
		['accountNo of 9 digits', n({ accountNo: '012345678' }), 'accountNo'],
		['accountNo of 11 digits', n({ accountNo: '01234567890' }), 'accountNo'],
		['name of one word', n({ name: 'Ada' }), 'name'],
		['name with a hyphen', n({ name: 'Ada Obi-Eze' }), 'name'],
		['partnerUserId of 64', n({ partnerUserId: 'p'.repeat(64) }), true],
		['partnerUserId of 65', n({ partnerUserId: 'p'.repeat(65) }), 'partnerUserId'],
		['without accountType', without(n({}), 'accountType'), 'accountType is required'],
	];
	it.each(cases)('%s', (_name, body, expected) => expectCase('/ngn/pay/apply', body, expected));

	it('answers payUrl, which may be empty', async () => {
		const answer = await call(sandbox, '/ngn/pay/apply', n({}));
		expect(answer.data).toMatchObject({ payUrl: '' });
	});
});

describe('EGP payout (/egp/pay/apply)', () => {
	const e = (overrides: Body) => payoutFor('EGP', overrides);
	const cases: Case[] = [
		['wallet on carrier 010', e({ accountNo: '+201012345678' }), true],
		['wallet on carrier 012', e({ accountNo: '+201212345678' }), true],
		['wallet on carrier 015', e({ accountNo: '+201512345678' }), 'accountNo'],
		['wallet one digit short', e({ accountNo: '+20101234567' }), 'accountNo'],
		['bank account', e({ accountType: 'BANK_ACCOUNT', accountNo: '100012345678' }), true],
		['phone in +2 format', e({ phone: '+201112345678' }), true],
		['phone without +2', e({ phone: '01012345678' }), 'phone'],
		['amount 0', e({ amount: '0' }), 'amount'],
	];
	it.each(cases)('%s', (_name, body, expected) => expectCase('/egp/pay/apply', body, expected));
});

describe('BDT payout (/bdt/pay/apply)', () => {
	const b = (overrides: Body) => payoutFor('BDT', overrides);
	const cases: Case[] = [
		['amount whole taka', b({ amount: '100' }), true],
		['amount with decimals', b({ amount: '100.5' }), 'amount'],
		['amount with a comma', b({ amount: '1,000' }), 'amount'],
		['accountType BANK_ACCOUNT', b({ accountType: 'BANK_ACCOUNT' }), true],
		['accountType CARD', b({ accountType: 'CARD' }), 'accountType'],
		["name with ' . -", b({ name: "Md. Rahim O'Neil-Khan" }), true],
		['name of 30 characters', b({ name: 'R'.repeat(30) }), true],
		['name of 31 characters', b({ name: 'R'.repeat(31) }), 'name'],
		['name with a digit', b({ name: 'Rahim 2' }), 'name'],
	];
	it.each(cases)('%s', (_name, body, expected) => expectCase('/bdt/pay/apply', body, expected));
});

describe('USD MIT collection (/usd/mit/apply)', () => {
	const m = (overrides: Body) => mitApply(overrides);
	const cases: Case[] = [
		['amount with two decimals', m({ amount: '25.00' }), true],
		['amount without decimals', m({ amount: '25' }), 'amount'],
		['amount with one decimal', m({ amount: '25.0' }), 'amount'],
		['amount with a comma', m({ amount: '1,000.00' }), 'amount'],
		['loadingType 0', m({ loadingType: 0 }), true],
		['loadingType 1', m({ loadingType: 1 }), true],
		['loadingType 2', m({ loadingType: 2 }), 'loadingType'],
		['clientIp IPv6', m({ clientIp: '2001:db8::1' }), true],
		['clientIp malformed', m({ clientIp: '203.0.113' }), 'clientIp'],
		['name of one word', m({ name: 'Jane' }), 'name'],
		['callBackUrl relative', m({ callBackUrl: '/done' }), 'callBackUrl'],
		[
			'all redirect URLs',
			m({
				callBackUrl: 'https://shop.example/ok',
				callBackFailUrl: 'https://shop.example/ko',
				cancelUrl: 'https://shop.example/back',
			}),
			true,
		],
		['partnerUserId with a space', m({ partnerUserId: 'a b' }), 'partnerUserId'],
		['without orderId', without(m({}), 'orderId'), 'orderId is required'],
		['orderId of 49 characters', m({ orderId: 'u'.repeat(49) }), 'orderId'],
	];
	it.each(cases)('%s', (_name, body, expected) => expectCase('/usd/mit/apply', body, expected));
});

describe('queries, ledger and voucher requests', () => {
	it('a query needs orderId or orderNo', async () => {
		await expectCase('/brl/pay/query', { appId: APP.BRL }, 'orderId or orderNo');
	});
	it('a query orderId is at most 48 characters', async () => {
		await expectCase('/myr/pay/query', { appId: APP.MYR, orderId: 'q'.repeat(49) }, 'orderId');
	});
	it('a voucher needs 1 to 100 orderNos', async () => {
		await expectCase('/common/voucher/pdf', { appId: APP.TZS, orderNos: [] }, 'orderNos');
		await expectCase(
			'/common/voucher/pdf',
			{ appId: APP.TZS, orderNos: Array.from({ length: 101 }, (_, i) => `N${i}`) },
			'orderNos',
		);
		// 100 passes the schema and then fails on the unknown orders, with another code.
		const answer = await call(sandbox, '/common/voucher/pdf', {
			appId: APP.TZS,
			orderNos: Array.from({ length: 100 }, (_, i) => `N${i}`),
		});
		expect(answer.error).toBe('4008');
	});
	it('voucher switches are 0/1 integers and lang is zh or en', async () => {
		await expectCase('/common/voucher/pdf', { appId: APP.TZS, orderNos: ['N1'], getFee: 2 }, 'getFee');
		await expectCase('/common/voucher/pdf', { appId: APP.TZS, orderNos: ['N1'], isAmount: '1' }, 'isAmount');
		await expectCase('/common/voucher/pdf', { appId: APP.TZS, orderNos: ['N1'], getSubject: -1 }, 'getSubject');
		await expectCase('/common/voucher/pdf', { appId: APP.TZS, orderNos: ['N1'], lang: 'fr' }, 'lang');
	});
});
