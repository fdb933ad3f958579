import { MIT_RULES } from '../../nodes/shared/contract/rules/collection';
import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import type { RequestRules } from '../../nodes/shared/contract/rules/types';
import { checkRequest } from '../../nodes/HaiPay/validation/validate';
import {
	body,
	email,
	englishName,
	notifyUrl,
	orderId,
	partnerUserId,
	phone,
	subject,
} from '../../nodes/shared/contract/rules/common';
import { ruleCases, shared, x, type Case, type SharedUse } from '../helpers/rule-cases';
import { BASES } from '../helpers/rows';

/*
 * Every rule of the contract, with a value on each side of its edge (the runner is test/helpers/rule-cases.ts; the
 * rails beyond the contract are in rails.test.ts).
 */

const RULES: Record<string, RequestRules> = { ...PAYOUT_RULES, MIT: MIT_RULES };

const CASES: Record<string, Array<Case | SharedUse>> = {
	TZS: [
		shared(orderId()),
		{
			field: 'amount',
			ok: [
				'1000',
				'5000000',
				'1000.5',
				'1000.55',
				['  2000 ', '2000'],
				[1000, '1000'],
				[1000.5, '1000.5'],
				[4999999.99, '4999999.99'],
			],
			bad: [
				['999.99', 'amount'],
				['5000000.01', 'amount'],
				['1000.555', 'amount'],
				['1,000', 'amount'],
				['-1000', 'amount'],
				[1000.555, 'amount'],
				[999, 'amount'],
				['1e4', 'amount'],
				['', 'required'],
				[true, 'amount'],
			],
		},
		{
			field: 'accountType',
			ok: ['EWALLET'],
			bad: [
				['BANK_ACCOUNT', 'enum'],
				['ewallet', 'enum'],
			],
		},
		{
			field: 'bankCode',
			ok: ['AIRTEL', 'HALOPESA', 'TIGO', 'VODACOM'],
			bad: [
				['MPESA', 'enum'],
				['vodacom', 'enum'],
				['', 'required'],
			],
		},
		{
			field: 'accountNo',
			ok: ['255712345678', [255712345678, '255712345678']],
			bad: [
				['25571234567', 'pattern'],
				['2557123456789', 'pattern'],
				['254712345678', 'pattern'],
				['255 712345678', 'pattern'],
				[2.5e20, 'type'],
			],
		},
		shared(englishName(true)),
		shared(phone(true)),
		shared(email(true)),
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		{ field: 'subject', ok: ['Salary November', '工资', ''], bad: [] },
		{ field: 'body', ok: ['Any text at all', ''], bad: [[{ nested: true }, 'type']] },
	],
	ZAR: [
		shared(orderId()),
		{
			field: 'amount',
			ok: ['1', '10000000', '1.01', [250.75, '250.75']],
			bad: [
				['0.99', 'amount'],
				['10000000.01', 'amount'],
				['1.001', 'amount'],
				['0', 'amount'],
			],
		},
		{ field: 'accountType', ok: ['BANK_ACCOUNT'], bad: [['EWALLET', 'enum']] },
		{ field: 'bankCode', ok: ['051001'], bad: [['', 'required']] },
		{ field: 'accountNo', ok: ['62000000000'], bad: [['', 'required']] },
		shared(englishName(true)),
		shared(phone(true)),
		shared(email(true)),
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		shared(subject()),
		shared(body()),
	],
	NGN: [
		shared(orderId()),
		{
			field: 'amount',
			ok: ['0.5', '1', '100.25', '3000000', [5000, '5000']],
			bad: [
				['0.00', 'amount'],
				['0', 'amount'],
				['01', 'amount'],
				['100.123', 'amount'],
				['1,000', 'amount'],
				['.5', 'amount'],
			],
		},
		{ field: 'accountType', ok: ['BANK_ACCOUNT', 'SAVINGS'], bad: [['', 'required']] },
		{ field: 'bankCode', ok: ['058'], bad: [['', 'required']] },
		{
			field: 'accountNo',
			ok: ['0123456789', [1234567890, '1234567890']],
			bad: [
				['012345678', 'pattern'],
				['01234567890', 'pattern'],
				['01234a6789', 'pattern'],
			],
		},
		{
			field: 'name',
			ok: ['Ada Obi', 'Ada Chioma Obi Eze', ['ada obi', 'ada obi']],
			bad: [
				['Ada', 'pattern'],
				['Ada-Obi Eze', 'pattern'],
				['Ada Obi 2', 'pattern'],
				['', 'required'],
			],
		},
		{ field: 'phone', ok: ['2348012345678', ''], bad: [['080-1234', 'pattern']] },
		shared(email(false)),
		shared(partnerUserId(false, 64)),
		shared(notifyUrl()),
		shared(subject()),
		shared(body()),
	],
	EGP: [
		shared(orderId()),
		{
			field: 'amount',
			ok: ['20', '30000', '100.50'],
			bad: [
				['100.505', 'amount'],
				['0', 'amount'],
				['abc', 'amount'],
			],
		},
		{
			field: 'accountNo',
			ok: ['+201012345678', '+201112345678', '+201212345678', '1234567890123'],
			bad: [
				['+201512345678', 'pattern'],
				['+20101234567', 'pattern'],
				['+2010123456789', 'pattern'],
				['+201312345678', 'pattern'],
				['12345 67890', 'pattern'],
			],
		},
		{
			field: 'accountNo',
			with: { accountType: 'EWALLET' },
			ok: ['+201012345678'],
			bad: [['1234567890123', 'pattern']],
		},
		{ field: 'accountType', ok: ['BANK_ACCOUNT'], bad: [['', 'required']] },
		{ field: 'bankCode', ok: ['NBE'], bad: [['', 'required']] },
		{
			field: 'phone',
			ok: ['+201012345678', '+201512345678'],
			bad: [
				['01012345678', 'pattern'],
				['+20101234567', 'pattern'],
				['', 'required'],
			],
		},
		{
			field: 'name',
			ok: ['Omar Hassan', 'عمر حسن'],
			bad: [
				['', 'required'],
				[x(101), 'maxLength'],
			],
		},
		shared(email(true)),
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		shared(subject()),
		shared(body()),
	],
	BDT: [
		shared(orderId()),
		{
			field: 'amount',
			ok: ['1', '100', '50000', [100, '100']],
			bad: [
				['100.5', 'amount'],
				['100.0', 'amount'],
				[100.5, 'amount'],
				['0', 'amount'],
				['1,000', 'amount'],
			],
		},
		{
			field: 'accountType',
			ok: ['EWALLET', 'BANK_ACCOUNT'],
			bad: [
				['CARD', 'enum'],
				['', 'required'],
			],
		},
		{ field: 'bankCode', ok: ['BKASH', 'NAGAD'], bad: [['', 'required']] },
		{ field: 'accountNo', ok: ['01712345678', [1712345678, '1712345678']], bad: [['', 'required']] },
		shared(phone(true)),
		{
			field: 'name',
			ok: ["O'Brien Mc-Neil Jr.", 'Rahim', x(30), 'Abdul  Karim'],
			bad: [
				['Rahim 2', 'pattern'],
				['Rahim_Uddin', 'pattern'],
				[x(31), 'maxLength'],
				['', 'required'],
			],
		},
		shared(email(true)),
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		shared(subject()),
		shared(body()),
	],
	MIT: [
		shared(orderId()),
		{
			field: 'amount',
			ok: ['25.00', '0.01', '1000000.99', [25, '25.00'], [25.5, '25.50'], [0.1, '0.10']],
			bad: [
				['25.0', 'amount'],
				['25', 'amount'],
				['1,025.00', 'amount'],
				['25.000', 'amount'],
				[25.555, 'amount'],
				['0.00', 'amount'],
				['$25.00', 'amount'],
			],
		},
		{
			field: 'name',
			ok: ['John Smith', 'Jean-Luc Picard', 'José Núñez'],
			bad: [
				['John', 'pattern'],
				['John  Smith', 'pattern'],
				['', 'required'],
			],
		},
		{
			field: 'clientIp',
			ok: [
				'203.0.113.7',
				'255.255.255.255',
				'0.0.0.0',
				'::1',
				'::',
				'2001:db8::1',
				'::ffff:192.0.2.1',
				'1:2:3:4:5:6:7:8',
			],
			bad: [
				['999.1.1.1', 'pattern'],
				['1.2.3', 'pattern'],
				['01.2.3.4', 'pattern'],
				['localhost', 'pattern'],
				[':', 'pattern'],
				[':::', 'pattern'],
				['1::2::3', 'pattern'],
				['1:2:3:4:5:6:7:8:9', 'pattern'],
				['fe80::1%eth0', 'pattern'],
				[`1:${x(44)}`, 'maxLength'],
				['', 'required'],
			],
		},
		{ field: 'payType', ok: ['CARD'], bad: [['', 'required']] },
		shared(phone(true)),
		{ field: 'inBankCode', ok: ['VISA', 'MASTER'], bad: [['', 'required']] },
		{
			field: 'loadingType',
			ok: [[0, 0], [1, 1], ['1', 1], ['0', 0], ''],
			bad: [
				[2, 'enum'],
				['yes', 'enum'],
				[-1, 'enum'],
			],
		},
		{ field: 'tokenID', ok: ['tok_123', ''], bad: [] },
		{ field: 'callBackUrl', ok: ['https://shop.example/ok'], bad: [['shop.example/ok', 'format']] },
		{ field: 'callBackFailUrl', ok: ['https://shop.example/fail'], bad: [['javascript:alert(1)', 'format']] },
		{ field: 'cancelUrl', ok: ['https://shop.example/cancel'], bad: [['/cancel', 'format']] },
		shared(email(true)),
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		shared(subject()),
		shared(body()),
	],
};

describe.each(Object.keys(CASES))('%s rules', (currency) => {
	ruleCases(RULES[currency], BASES[currency], CASES[currency]);
});

describe('unknown fields', () => {
	it('are refused for TZS, whose schema has additionalProperties false', () => {
		const { violations } = checkRequest(PAYOUT_RULES.TZS, BASES.TZS, { purpose: 'salary' });
		expect(violations).toEqual([expect.objectContaining({ field: 'purpose', rule: 'unknownField' })]);
	});

	it.each(['ZAR', 'NGN', 'EGP', 'BDT'])('are signed and sent for %s', (currency) => {
		const { body, violations } = checkRequest(PAYOUT_RULES[currency as 'ZAR'], BASES[currency], {
			purpose: 'salary',
			flag: true,
		});
		expect(violations).toEqual([]);
		expect(body).toMatchObject({ purpose: 'salary', flag: 'true' });
	});

	it('may not set appId, sign or a field that has its own parameter', () => {
		const { violations } = checkRequest(PAYOUT_RULES.ZAR, BASES.ZAR, { appId: 1, sign: 'x', amount: '5' });
		expect(violations.map((violation) => [violation.field, violation.rule])).toEqual(
			Array(3).fill(['extraFields', 'reserved']),
		);
		expect(violations.map((violation) => violation.message)).toEqual(
			['"appId"', '"sign"', '"amount"'].map((name) => expect.stringContaining(name)),
		);
	});
});

describe('error messages', () => {
	it('list every broken rule of an item at once', () => {
		const { violations } = checkRequest(PAYOUT_RULES.TZS, { ...BASES.TZS, amount: '10', name: 'X1', email: 'nope' });
		expect(violations.map((violation) => violation.field)).toEqual(['amount', 'name', 'email']);
	});

	it('point at the offending characters without echoing the whole value', () => {
		const { violations } = checkRequest(PAYOUT_RULES.TZS, { ...BASES.TZS, partnerUserId: 'user 1/2' });
		expect(violations[0].message).toContain('found " /"');
		expect(violations[0].message).not.toContain('user 1/2');
	});

	it('say the amount bound with its unit', () => {
		const { violations } = checkRequest(PAYOUT_RULES.TZS, { ...BASES.TZS, amount: '5000000.01' });
		expect(violations[0].message).toBe('"amount" must be at most 5,000,000 TZS (got 5,000,000.01)');
	});
});
