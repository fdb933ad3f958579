import { LOCAL_COLLECTION_RULES, type LocalCollectionCurrency } from '../../nodes/shared/contract/rules/localCollection';
import { REFUND_RULES } from '../../nodes/shared/contract/rules/refund';
import type { RequestRules } from '../../nodes/shared/contract/rules/types';
import { checkRequest } from '../../nodes/HaiPay/validation/validate';
import { LOCAL_COLLECTIONS } from '../fixtures/bodies';

/*
 * The local-currency collections and the card refund: every rule HaiPay's pages give (docs/haipay-facts.md), with a
 * value on each side of its edge. `ok` values pass (normalised as shown when a pair is given); `bad` values fail with
 * the named rule on the named field.
 */

type Ok = unknown | [input: unknown, normalised: unknown];
interface Case {
	field: string;
	ok: Ok[];
	bad: Array<[value: unknown, rule: string]>;
}

const x = (n: number) => 'x'.repeat(n);
const required = (field: string, ok: Ok[] = []): Case => ({ field, ok, bad: [['', 'required'], [null, 'required']] });
const orderIdCase: Case = { field: 'orderId', ok: [x(48), ['  C-2 ', 'C-2']], bad: [[x(49), 'maxLength'], ['', 'required']] };
const emailCase: Case = { field: 'email', ok: ['a@b.co'], bad: [['a@b', 'format'], ['', 'required']] };
const partnerCase: Case = { field: 'partnerUserId', ok: ['Az09-~!@#$%&*()_'], bad: [['payer 1', 'pattern'], ['', 'required']] };
const redirectCases: Case[] = ['callBackUrl', 'callBackFailUrl'].map((field) => ({
	field,
	ok: ['https://shop.example/back', `https://shop.example/${x(1003)}`],
	bad: [['shop.example/back', 'format'], ['javascript:alert(1)', 'format'], [`https://shop.example/${x(1004)}`, 'maxLength'], ['', 'required']],
}));
const notifyUrlCase: Case = { field: 'notifyUrl', ok: ['https://n8n.example.com/webhook/x', ''], bad: [['not a url', 'format']] };
const subjectCase: Case = { field: 'subject', ok: [x(255), ''], bad: [[x(256), 'maxLength']] };
const bodyCase: Case = { field: 'body', ok: [x(1024), ''], bad: [[x(1025), 'maxLength']] };
/** The payer's name of BRL and PHP: English letters, spaces, ! and -, 1 to 30. */
const bangDashName: Case = {
	field: 'name',
	ok: ['Maria Silva', 'A', x(30), 'Ana-Maria Silva!', ['  Maria Silva ', 'Maria Silva']],
	bad: [[x(31), 'maxLength'], ["O'Brien", 'pattern'], ['Maria Silva2', 'pattern'], ['José Silva', 'pattern'], ['Maria.Silva', 'pattern'], ['', 'required']],
};

const CASES: Record<LocalCollectionCurrency, Case[]> = {
	BRL: [
		orderIdCase,
		bangDashName,
		{ field: 'phone', ok: ['5511987654321', '+5511987654321'], bad: [['11 98765-4321', 'pattern'], ['', 'required']] },
		emailCase,
		{
			field: 'amount',
			ok: ['0.01', '1.00', '300.00', '99999.99', [300, '300.00'], [1.5, '1.50']],
			bad: [['100000.00', 'amount'], ['300', 'amount'], ['300.0', 'amount'], ['300.000', 'amount'], ['1,000.00', 'amount'], ['0.00', 'amount'], ['', 'required']],
		},
		required('payType', ['QR']),
		required('inBankCode', ['PIX']),
		{
			field: 'inBankNo',
			ok: ['12345678909', '00000000000', [12345678909, '12345678909']],
			bad: [['1234567890', 'pattern'], ['123456789012', 'pattern'], ['123.456.789-09', 'pattern'], [1234567890, 'pattern'], ['', 'required']],
		},
		...redirectCases,
		partnerCase,
		notifyUrlCase,
		subjectCase,
		bodyCase,
	],
	IDR: [
		orderIdCase,
		{
			field: 'name',
			ok: ['Budi Santoso', "Siti Nur'aini", 'A', x(30), 'Dewi (Ibu) 2'],
			bad: [[x(31), 'maxLength'], ['Budi Santosó', 'pattern'], ['Budi 山', 'pattern'], ['', 'required']],
		},
		{ field: 'phone', ok: ['0812345678', '0812345678901'], bad: [['081234567', 'pattern'], ['08123456789012', 'pattern'], ['6281234567890', 'pattern'], ['+6281234567', 'pattern'], ['', 'required']] },
		emailCase,
		{ field: 'amount', ok: ['1', '50000', '10000000', [50000, '50000']], bad: [['0', 'amount'], ['50000.5', 'amount'], ['50000.00', 'amount'], ['50.000', 'amount'], ['050000', 'amount'], [50000.5, 'amount'], ['', 'required']] },
		{ field: 'payType', ok: ['QR', 'VA', 'EWALLET'], bad: [['qr', 'enum'], ['CARD', 'enum'], ['', 'required']] },
		required('inBankCode', ['014']),
		...redirectCases,
		partnerCase,
		notifyUrlCase,
		subjectCase,
		bodyCase,
	],
	PHP: [
		orderIdCase,
		bangDashName,
		{ field: 'phone', ok: ['09171234567', '09000000000'], bad: [['0917123456', 'pattern'], ['091712345678', 'pattern'], ['639171234567', 'pattern'], ['08171234567', 'pattern'], ['', 'required']] },
		emailCase,
		{
			field: 'amount',
			ok: ['50', '50.00', '500.50', '49999', '49999.99', [500, '500'], [500.25, '500.25']],
			bad: [['49.99', 'amount'], ['50000', 'amount'], ['50000.00', 'amount'], ['500.5', 'amount'], ['500.505', 'amount'], [500.5, 'amount'], ['0', 'amount'], ['', 'required']],
		},
		required('payType', ['QR']),
		required('inBankCode', ['PH_QRPH_DYNAMIC']),
		...redirectCases,
		partnerCase,
		notifyUrlCase,
		subjectCase,
		bodyCase,
	],
	BDT: [
		orderIdCase,
		{ field: 'name', ok: ['Rahim Uddin', 'Abdul Karim Khan', x(49) + ' ' + x(50)], bad: [['Rahim', 'pattern'], ['Rahim  Uddin', 'pattern'], [x(50) + ' ' + x(50), 'maxLength'], ['', 'required']] },
		{ field: 'phone', ok: ['8801712345678'], bad: [['017-1234', 'pattern'], ['', 'required']] },
		emailCase,
		{ field: 'amount', ok: ['0.01', '500.00', '100000.00', [500, '500.00']], bad: [['500', 'amount'], ['500.0', 'amount'], ['500.000', 'amount'], ['0.00', 'amount'], ['', 'required']] },
		required('payType', ['EWALLET']),
		required('inBankCode', ['BKASH']),
		...redirectCases,
		partnerCase,
		notifyUrlCase,
		{ field: 'subject', ok: ['Order 42', x(255)], bad: [[x(256), 'maxLength'], ['', 'required']] },
		bodyCase,
		{ field: 'country', ok: ['458', ''], bad: [['050', 'enum'], ['BD', 'enum']] },
	],
};

function base(currency: LocalCollectionCurrency): Record<string, unknown> {
	return { orderId: `${currency}-1`, ...LOCAL_COLLECTIONS[currency] };
}

function runCases(rules: RequestRules, item: Record<string, unknown>, cases: Case[]): void {
	it('accept the base item as it is', () => {
		expect(checkRequest(rules, item).violations).toEqual([]);
	});
	for (const testCase of cases) {
		for (const ok of testCase.ok) {
			const [input, normalised] = Array.isArray(ok) ? ok : [ok, typeof ok === 'string' ? ok.trim() : ok];
			it(`accept ${testCase.field} = ${JSON.stringify(input)}`, () => {
				const { body, violations } = checkRequest(rules, { ...item, [testCase.field]: input });
				expect(violations).toEqual([]);
				if (normalised === '') expect(body).not.toHaveProperty(testCase.field);
				else expect(body[testCase.field]).toEqual(normalised);
			});
		}
		for (const [value, rule] of testCase.bad) {
			it(`refuse ${testCase.field} = ${JSON.stringify(value).slice(0, 60)} (${rule})`, () => {
				const { violations } = checkRequest(rules, { ...item, [testCase.field]: value });
				expect(violations).toHaveLength(1);
				expect(violations[0]).toMatchObject({ field: testCase.field, rule });
				expect(violations[0].message).toContain(`"${testCase.field}"`);
			});
		}
	}
	it('check every field that carries a rule', () => {
		const covered = new Set(cases.map((testCase) => testCase.field));
		const ruled = rules.fields.filter((field) => field.required || field.pattern || field.enum || field.amount || field.format || field.maxLength || field.check || field.integerEnum);
		expect(ruled.map((field) => field.name).filter((name) => !covered.has(name))).toEqual([]);
	});
}

describe.each(Object.keys(CASES) as LocalCollectionCurrency[])('%s collection rules', (currency) => {
	runCases(LOCAL_COLLECTION_RULES[currency], base(currency), CASES[currency]);

	it('use the currency\'s own path', () => {
		expect(LOCAL_COLLECTION_RULES[currency].path).toBe(`/${currency.toLowerCase()}/collect/apply`);
	});
});

describe('card refund rules', () => {
	runCases(REFUND_RULES, { orderId: 'RF-1', orderNo: 'HP202605010000000001' }, [
		orderIdCase,
		{ field: 'orderNo', ok: [x(64), 'HP1'], bad: [[x(65), 'maxLength'], ['', 'required']] },
	]);

	it('take no amount: a refund returns the whole payment', () => {
		expect(REFUND_RULES.fields.map((field) => field.name)).toEqual(['orderId', 'orderNo']);
		expect(REFUND_RULES.path).toBe('/usd/refund/apply');
	});
});

describe('amount messages', () => {
	it('say the PHP form in words', () => {
		const { violations } = checkRequest(LOCAL_COLLECTION_RULES.PHP, { ...base('PHP'), amount: '500.5' });
		expect(violations[0].message).toBe('"amount" must be a whole amount or one with exactly two decimals, e.g. 500 or 500.50 (got "500.5")');
	});

	it('say the BRL bound with the unit', () => {
		const { violations } = checkRequest(LOCAL_COLLECTION_RULES.BRL, { ...base('BRL'), amount: '100000.00' });
		expect(violations[0].message).toBe('"amount" must be at most 99,999.99 BRL (got 100,000.00)');
	});
});
