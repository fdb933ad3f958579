import {
	LOCAL_COLLECTION_RULES,
	type LocalCollectionCurrency,
} from '../../nodes/shared/contract/rules/localCollection';
import { REFUND_RULES } from '../../nodes/shared/contract/rules/refund';
import {
	body,
	email,
	notifyUrl,
	orderId,
	partnerUserId,
	phone,
	subject,
} from '../../nodes/shared/contract/rules/common';
import { checkRequest } from '../../nodes/HaiPay/validation/validate';
import { LOCAL_COLLECTIONS } from '../fixtures/bodies';
import { ruleCases, shared, x, type Case, type SharedUse } from '../helpers/rule-cases';

/*
 * The local-currency collections and the card refund: every rule HaiPay's pages give (docs/haipay-facts.md), with a
 * value on each side of its edge (the runner, and the shared rules' edges, are in test/helpers/rule-cases.ts).
 */

const requiredAs = (field: string, ok: unknown[] = []): Case => ({
	field,
	ok,
	bad: [
		['', 'required'],
		[null, 'required'],
	],
});
const redirectCases: Case[] = ['callBackUrl', 'callBackFailUrl'].map((field) => ({
	field,
	ok: ['https://shop.example/back', `https://shop.example/${x(1003)}`],
	bad: [
		['shop.example/back', 'format'],
		['javascript:alert(1)', 'format'],
		[`https://shop.example/${x(1004)}`, 'maxLength'],
		['', 'required'],
	],
}));
/** The payer's name of BRL and PHP: English letters, spaces, ! and -, 1 to 30. */
const bangDashName: Case = {
	field: 'name',
	ok: ['Maria Silva', 'A', x(30), 'Ana-Maria Silva!', ['  Maria Silva ', 'Maria Silva']],
	bad: [
		[x(31), 'maxLength'],
		["O'Brien", 'pattern'],
		['Maria Silva2', 'pattern'],
		['José Silva', 'pattern'],
		['Maria.Silva', 'pattern'],
		['', 'required'],
	],
};

const CASES: Record<LocalCollectionCurrency, Array<Case | SharedUse>> = {
	BRL: [
		shared(orderId()),
		bangDashName,
		shared(phone(true)),
		shared(email(true)),
		{
			field: 'amount',
			ok: ['0.01', '1.00', '300.00', '99999.99', [300, '300.00'], [1.5, '1.50']],
			bad: [
				['100000.00', 'amount'],
				['300', 'amount'],
				['300.0', 'amount'],
				['300.000', 'amount'],
				['1,000.00', 'amount'],
				['0.00', 'amount'],
				['', 'required'],
			],
		},
		requiredAs('payType', ['QR']),
		requiredAs('inBankCode', ['PIX']),
		{
			field: 'inBankNo',
			ok: ['12345678909', '00000000000', [12345678909, '12345678909']],
			bad: [
				['1234567890', 'pattern'],
				['123456789012', 'pattern'],
				['123.456.789-09', 'pattern'],
				[1234567890, 'pattern'],
				['', 'required'],
			],
		},
		...redirectCases,
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		shared(subject()),
		shared(body()),
	],
	IDR: [
		shared(orderId()),
		{
			field: 'name',
			ok: ['Budi Santoso', "Siti Nur'aini", 'A', x(30), 'Dewi (Ibu) 2'],
			bad: [
				[x(31), 'maxLength'],
				['Budi Santosó', 'pattern'],
				['Budi 山', 'pattern'],
				['', 'required'],
			],
		},
		{
			field: 'phone',
			ok: ['0812345678', '0812345678901'],
			bad: [
				['081234567', 'pattern'],
				['08123456789012', 'pattern'],
				['6281234567890', 'pattern'],
				['+6281234567', 'pattern'],
				['', 'required'],
			],
		},
		shared(email(true)),
		{
			field: 'amount',
			ok: ['1', '50000', '10000000', [50000, '50000']],
			bad: [
				['0', 'amount'],
				['50000.5', 'amount'],
				['50000.00', 'amount'],
				['50.000', 'amount'],
				['050000', 'amount'],
				[50000.5, 'amount'],
				['', 'required'],
			],
		},
		{
			field: 'payType',
			ok: ['QR', 'VA', 'EWALLET'],
			bad: [
				['qr', 'enum'],
				['CARD', 'enum'],
				['', 'required'],
			],
		},
		requiredAs('inBankCode', ['014']),
		...redirectCases,
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		shared(subject()),
		shared(body()),
	],
	PHP: [
		shared(orderId()),
		bangDashName,
		{
			field: 'phone',
			ok: ['09171234567', '09000000000'],
			bad: [
				['0917123456', 'pattern'],
				['091712345678', 'pattern'],
				['639171234567', 'pattern'],
				['08171234567', 'pattern'],
				['', 'required'],
			],
		},
		shared(email(true)),
		{
			field: 'amount',
			ok: ['50', '50.00', '500.50', '49999', '49999.99', [500, '500'], [500.25, '500.25']],
			bad: [
				['49.99', 'amount'],
				['50000', 'amount'],
				['50000.00', 'amount'],
				['500.5', 'amount'],
				['500.505', 'amount'],
				[500.5, 'amount'],
				['0', 'amount'],
				['', 'required'],
			],
		},
		requiredAs('payType', ['QR']),
		requiredAs('inBankCode', ['PH_QRPH_DYNAMIC']),
		...redirectCases,
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		shared(subject()),
		shared(body()),
	],
	BDT: [
		shared(orderId()),
		{
			field: 'name',
			ok: ['Rahim Uddin', 'Abdul Karim Khan', x(49) + ' ' + x(50)],
			bad: [
				['Rahim', 'pattern'],
				['Rahim  Uddin', 'pattern'],
				[x(50) + ' ' + x(50), 'maxLength'],
				['', 'required'],
			],
		},
		{
			field: 'phone',
			ok: ['8801712345678'],
			bad: [
				['017-1234', 'pattern'],
				['', 'required'],
			],
		},
		shared(email(true)),
		{
			field: 'amount',
			ok: ['0.01', '500.00', '100000.00', [500, '500.00']],
			bad: [
				['500', 'amount'],
				['500.0', 'amount'],
				['500.000', 'amount'],
				['0.00', 'amount'],
				['', 'required'],
			],
		},
		requiredAs('payType', ['EWALLET']),
		requiredAs('inBankCode', ['BKASH']),
		...redirectCases,
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		{
			field: 'subject',
			ok: ['Order 42', x(255)],
			bad: [
				[x(256), 'maxLength'],
				['', 'required'],
			],
		},
		shared(body()),
		{
			field: 'country',
			ok: ['458', ''],
			bad: [
				['050', 'enum'],
				['BD', 'enum'],
			],
		},
	],
};

function base(currency: LocalCollectionCurrency): Record<string, unknown> {
	return { orderId: `${currency}-1`, ...LOCAL_COLLECTIONS[currency] };
}

describe.each(Object.keys(CASES) as LocalCollectionCurrency[])('%s collection rules', (currency) => {
	ruleCases(LOCAL_COLLECTION_RULES[currency], base(currency), CASES[currency]);

	it("use the currency's own path", () => {
		expect(LOCAL_COLLECTION_RULES[currency].path).toBe(`/${currency.toLowerCase()}/collect/apply`);
	});
});

describe('card refund rules', () => {
	ruleCases(REFUND_RULES, { orderId: 'RF-1', orderNo: 'HP202605010000000001' }, [
		shared(orderId()),
		{
			field: 'orderNo',
			ok: [x(64), 'HP1'],
			bad: [
				[x(65), 'maxLength'],
				['', 'required'],
			],
		},
	]);

	it('take no amount: a refund returns the whole payment', () => {
		expect(REFUND_RULES.fields.map((field) => field.name)).toEqual(['orderId', 'orderNo']);
		expect(REFUND_RULES.path).toBe('/usd/refund/apply');
	});
});

describe('amount messages', () => {
	it('say the PHP form in words', () => {
		const { violations } = checkRequest(LOCAL_COLLECTION_RULES.PHP, { ...base('PHP'), amount: '500.5' });
		expect(violations[0].message).toBe(
			'"amount" must be a whole amount or one with exactly two decimals, e.g. 500 or 500.50 (got "500.5")',
		);
	});

	it('say the BRL bound with the unit', () => {
		const { violations } = checkRequest(LOCAL_COLLECTION_RULES.BRL, { ...base('BRL'), amount: '100000.00' });
		expect(violations[0].message).toBe('"amount" must be at most 99,999.99 BRL (got 100,000.00)');
	});
});
