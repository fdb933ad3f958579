import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import { RAIL_CURRENCIES, RAIL_RULES, type RailCurrency } from '../../nodes/shared/contract/rules/rails';
import { checkRequest } from '../../nodes/HaiPay/validation/validate';
import {
	body,
	email,
	notifyUrl,
	orderId,
	partnerUserId,
	phone,
	subject,
} from '../../nodes/shared/contract/rules/common';
import { letters, ruleCases, shared, x, type Case, type SharedUse } from '../helpers/rule-cases';
import { BASES } from '../helpers/rows';
import { USDT_ADDRESS_CASES } from '../helpers/usdt-addresses';

/*
 * Every rule of the payout rails beyond the contract, each on both sides of its edge, as HaiPay's page for the
 * currency states it (docs/haipay-facts.md, "Payout rails"). The runner is test/helpers/rule-cases.ts.
 */

/** What every rail shares: orderId, partnerUserId, the optional notes; a plain required email and an optional subject unless said. */
function common(own: { subject?: boolean; email?: boolean } = {}): SharedUse[] {
	return [
		shared(orderId()),
		shared(partnerUserId(true)),
		shared(notifyUrl()),
		shared(body()),
		...(own.email ? [] : [shared(email(true))]),
		...(own.subject ? [] : [shared(subject())]),
	];
}

const exactTwo = (min = '0.01'): Case => ({
	field: 'amount',
	ok: [min, '500.00', '1000000.99', [500, '500.00'], [500.5, '500.50'], ['  500.00 ', '500.00']],
	bad: [
		['500', 'amount'],
		['500.0', 'amount'],
		['500.000', 'amount'],
		['0.00', 'amount'],
		['1,000.00', 'amount'],
		[500.555, 'amount'],
		['', 'required'],
	],
});

/** A subject HaiPay requires (USD, PKR). */
const requiredSubject: Case = {
	field: 'subject',
	ok: [x(255), 'Salary November'],
	bad: [
		[x(256), 'maxLength'],
		['', 'required'],
	],
};

/** `^[A-Za-z\s'.-]+$`, 1 to 30 characters. */
const lettersNameCase: Case = {
	field: 'name',
	ok: ['Maria Santos', "O'Neil D. Souza-Lima", 'Maria', letters(30)],
	bad: [
		['Maria Santos2', 'pattern'],
		['Maria_Santos', 'pattern'],
		['José Díaz', 'pattern'],
		[letters(31), 'maxLength'],
		['', 'required'],
	],
};

const plainNameCase: Case = {
	field: 'name',
	ok: ['Ali Khan', 'Ayşe Yılmaz', x(255)],
	bad: [
		[x(256), 'maxLength'],
		['', 'required'],
	],
};

const accountTypes = (ok: string[], bad: string[]): Case => ({
	field: 'accountType',
	ok,
	bad: [...bad.map((value): [string, string] => [value, 'enum']), ['', 'required']],
});
const anyText = (field: string, value: string): Case => ({ field, ok: [value], bad: [['', 'required']] });

const CASES: Record<RailCurrency, Array<Case | SharedUse>> = {
	BRL: [
		...common(),
		{
			field: 'amount',
			ok: ['1', '500', '500.00', '99999', '99999.99', [500, '500'], [1234.56, '1234.56']],
			bad: [
				['0.99', 'amount'],
				['500.5', 'amount'],
				['500.505', 'amount'],
				['100000', 'amount'],
				['100000.00', 'amount'],
				['1,000', 'amount'],
				[500.5, 'amount'],
				['', 'required'],
			],
		},
		accountTypes(['EWALLET'], ['BANK_ACCOUNT']),
		anyText('bankCode', 'PIX'),
		{
			field: 'identifyType',
			ok: ['CPF', 'PHONE'],
			bad: [
				['RANDOM', 'enum'],
				['cpf', 'enum'],
				['', 'required'],
			],
		},
		{ field: 'identifyType', with: { accountNo: 'joao@example.com' }, ok: ['EMAIL', 'PHONE'], bad: [] },
		{
			field: 'accountNo',
			ok: ['09876543210'],
			bad: [
				['0987654321', 'pattern'],
				['098765432101', 'pattern'],
				['098.765.432-10', 'pattern'],
				['', 'required'],
			],
		},
		{
			field: 'accountNo',
			with: { identifyType: 'EMAIL' },
			ok: ['joao@example.com'],
			bad: [
				['09876543210', 'pattern'],
				['joao@example', 'pattern'],
			],
		},
		{ field: 'accountNo', with: { identifyType: 'PHONE' }, ok: ['+5511987654321', '11987654321'], bad: [] },
		lettersNameCase,
		shared(phone(true)),
	],
	INR: [
		...common({ email: true }),
		{
			field: 'amount',
			ok: ['1', '1000', '99999999', [1000, '1000']],
			bad: [
				['0', 'amount'],
				['1000.50', 'amount'],
				['1000.5', 'amount'],
				[1000.5, 'amount'],
				['1,000', 'amount'],
				['', 'required'],
			],
		},
		accountTypes(['BANK_ACCOUNT'], ['EWALLET']),
		{
			field: 'bankCode',
			ok: ['HDFC0001234', 'SBIN0000001', 'ABCD0EF12GH'],
			bad: [
				['HDFC1001234', 'pattern'],
				['hdfc0001234', 'pattern'],
				['HDFC000123', 'pattern'],
				['HDFC00012345', 'pattern'],
				['HDF10001234', 'pattern'],
				['', 'required'],
			],
		},
		anyText('accountNo', '50100123456789'),
		{
			field: 'name',
			ok: ['Ravi Kumar', 'Ravi', x(255)],
			bad: [
				['Ravi K.', 'pattern'],
				['Ravi 2', 'pattern'],
				["D'Souza", 'pattern'],
				[x(256), 'maxLength'],
				['', 'required'],
			],
		},
		{
			field: 'phone',
			ok: ['9876543210', '6000000000'],
			bad: [
				['5876543210', 'pattern'],
				['987654321', 'pattern'],
				['98765432101', 'pattern'],
				['+919876543210', 'pattern'],
				['', 'required'],
			],
		},
		{
			field: 'email',
			ok: ['ravikumar1990@gmail.com', 'a.b+c_d%e-f@gmail.com'],
			bad: [
				['ravi@yahoo.com', 'pattern'],
				['ravi@gmail.co', 'pattern'],
				['ravi@gmail.com.example.org', 'pattern'],
				['ravi kumar@gmail.com', 'pattern'],
				['', 'required'],
			],
		},
	],
	IDR: [
		...common(),
		{
			field: 'amount',
			ok: ['1', '50000', '50000.5', '50000.55', [50000, '50000']],
			bad: [
				['0', 'amount'],
				['50000.555', 'amount'],
				['50,000', 'amount'],
				['', 'required'],
			],
		},
		accountTypes(['BANK_ACCOUNT', 'EWALLET'], ['BANK_CARD', 'ewallet']),
		anyText('bankCode', 'BCA'),
		anyText('accountNo', '1234567890'),
		lettersNameCase,
		shared(phone(true)),
	],
	PHP: [
		...common(),
		exactTwo(),
		accountTypes(['EWALLET', 'BANK_ACCOUNT'], ['CARD']),
		anyText('bankCode', 'GCASH'),
		anyText('accountNo', '09171234567'),
		lettersNameCase,
		{
			field: 'phone',
			ok: ['09171234567'],
			bad: [
				['0917123456', 'pattern'],
				['091712345678', 'pattern'],
				['08171234567', 'pattern'],
				['+639171234567', 'pattern'],
				['', 'required'],
			],
		},
	],
	MXN: [
		...common(),
		exactTwo(),
		accountTypes(['BANK_ACCOUNT'], ['EWALLET', 'CLABE']),
		{ field: 'accountType', with: { accountNo: '4111111111111111' }, ok: ['BANK_CARD'], bad: [] },
		anyText('bankCode', 'STP'),
		{
			field: 'accountNo',
			ok: ['646180157000000004'],
			bad: [
				['64618015700000000', 'pattern'],
				['6461801570000000041', 'pattern'],
				['99418029201a844099', 'pattern'],
				['4111111111111111', 'pattern'],
				['', 'required'],
			],
		},
		{
			field: 'accountNo',
			with: { accountType: 'BANK_CARD' },
			ok: ['4111111111111111'],
			bad: [
				['41111111111111112', 'pattern'],
				['646180157000000004', 'pattern'],
				['4111 1111 1111 1111', 'pattern'],
			],
		},
		plainNameCase,
		shared(phone(false)),
	],
	EUR: [
		...common(),
		{
			field: 'amount',
			ok: ['1', '150000', '150.5', '150.55', [150, '150']],
			bad: [
				['0.99', 'amount'],
				['150000.01', 'amount'],
				['150.555', 'amount'],
				['', 'required'],
			],
		},
		accountTypes(['BANK_ACCOUNT'], ['EWALLET']),
		anyText('bankCode', 'BNPA'),
		{
			field: 'accountNo',
			ok: ['FR7630006000011234567890189', 'DE89370400440532013000', 'AB12C', `AB12${'C'.repeat(30)}`],
			bad: [
				['fr7630006000011234567890189', 'pattern'],
				['FR76 3000 6000 0112 3456 7890 189', 'pattern'],
				['F17630006000011234567890189', 'pattern'],
				['FR7A30006000011234567890189', 'pattern'],
				['FR76', 'pattern'],
				[`AB12${'C'.repeat(31)}`, 'pattern'],
				['', 'required'],
			],
		},
		lettersNameCase,
		shared(phone(true)),
		{
			field: 'swiftCode',
			ok: ['BNPAFRPP', 'DEUTDEFF500'],
			bad: [
				['BNPAFRP', 'pattern'],
				['BNPAFRPP5', 'pattern'],
				['bnpafrpp', 'pattern'],
				['BNP1FRPP', 'pattern'],
				['', 'required'],
			],
		},
		anyText('city', 'Paris'),
		anyText('street', '10 Rue de Rivoli'),
		anyText('postalCode', '75001'),
	],
	USD: [
		...common({ subject: true }),
		exactTwo(),
		anyText('accountType', 'EWALLET'),
		anyText('bankCode', 'PayPal'),
		{
			field: 'accountNo',
			ok: ['john.smith@example.com'],
			bad: [
				['john.smith', 'pattern'],
				['123465', 'pattern'],
				['', 'required'],
			],
		},
		{ field: 'accountNo', with: { bankCode: 'paypal' }, ok: ['john.smith@example.com'], bad: [['123465', 'pattern']] },
		{ field: 'accountNo', with: { bankCode: 'WISE' }, ok: ['123465'], bad: [] },
		{
			field: 'name',
			ok: ['John Smith', 'John Ronald Smith'],
			bad: [
				['John', 'pattern'],
				['John-Paul Smith', 'pattern'],
				['John 2 Smith', 'pattern'],
				['', 'required'],
			],
		},
		requiredSubject,
		shared(phone(true)),
	],
	THB: [
		...common(),
		exactTwo(),
		accountTypes(['EWALLET', 'BANK_ACCOUNT'], ['BANK_CARD']),
		anyText('bankCode', 'KBANK'),
		anyText('accountNo', '1234567890'),
		lettersNameCase,
		{
			field: 'phone',
			ok: ['0812345678', '0212345678'],
			bad: [
				['081234567', 'pattern'],
				['08123456789', 'pattern'],
				['1812345678', 'pattern'],
				['+66812345678', 'pattern'],
				['', 'required'],
			],
		},
	],
	VND: [
		...common(),
		{
			field: 'amount',
			ok: ['50000', '10000000', '50000.5', [500000, '500000']],
			bad: [
				['49999.99', 'amount'],
				['10000000.01', 'amount'],
				['0', 'amount'],
				['', 'required'],
			],
		},
		accountTypes(['BANK_ACCOUNT'], ['EWALLET']),
		anyText('bankCode', 'VCB'),
		anyText('accountNo', '0123456789'),
		{
			field: 'name',
			ok: ['Nguyen Van An', 'Nguyễn Văn An', 'Đặng Thị Ánh', "O'Brien Le-Minh"],
			bad: [
				['Nguyen Van 2', 'pattern'],
				['An_B', 'pattern'],
				[letters(31), 'maxLength'],
				['', 'required'],
			],
		},
		shared(phone(true)),
	],
	MYR: [
		...common(),
		exactTwo(),
		accountTypes(['EWALLET', 'BANK_ACCOUNT'], ['CARD']),
		anyText('bankCode', 'TNG'),
		anyText('accountNo', '0123456789'),
		lettersNameCase,
		shared(phone(true)),
	],
	PKR: [
		...common({ subject: true }),
		exactTwo(),
		accountTypes(['EWALLET', 'BANK_ACCOUNT'], ['CARD']),
		anyText('bankCode', 'JAZZCASH'),
		anyText('accountNo', '03001234567'),
		plainNameCase,
		shared(phone(true)),
		requiredSubject,
		{
			field: 'birth',
			ok: ['1990-04-25', '2000-02-29', '1999-12-31'],
			bad: [
				['1990-4-25', 'pattern'],
				['25-04-1990', 'pattern'],
				['1990/04/25', 'pattern'],
				['1990-02-30', 'pattern'],
				['1990-13-01', 'pattern'],
				['2001-02-29', 'pattern'],
				['', 'required'],
			],
		},
		{
			field: 'gender',
			ok: ['MALE', 'FEMALE', 'OTHER'],
			bad: [
				['male', 'enum'],
				['M', 'enum'],
				['', 'required'],
			],
		},
		{ field: 'idCard', ok: ['3520212345671', ''], bad: [[x(256), 'maxLength']] },
	],
	TRY: [
		...common(),
		{
			field: 'amount',
			ok: ['10', '1000.50', '0.01'],
			bad: [
				['0', 'amount'],
				['1000.505', 'amount'],
				['', 'required'],
			],
		},
		accountTypes(['BANK_ACCOUNT', 'EWALLET'], ['BANK_CARD']),
		anyText('bankCode', 'ZIRAAT'),
		{
			field: 'accountNo',
			ok: ['TR330006100519786457841326'],
			bad: [
				['09876543210', 'pattern'],
				['tr330006100519786457841326', 'pattern'],
				['', 'required'],
			],
		},
		{
			field: 'accountNo',
			with: { accountType: 'EWALLET', bankCode: 'PAPARA', identifyType: 'PAPARA_NUMBER' },
			ok: ['1234567890'],
			bad: [],
		},
		plainNameCase,
		shared(phone(true)),
		{ field: 'ibanAccount', ok: ['TR330006100519786457841326', ''], bad: [[x(256), 'maxLength']] },
		{ field: 'identifyType', ok: ['', 'PAPARA_NUMBER'], bad: [['CPF', 'enum']] },
		{
			field: 'identifyType',
			with: { bankCode: 'PAPARA' },
			ok: ['PAPARA_NUMBER', 'PHONE', 'EMAIL', 'TURKISH_ID'],
			bad: [
				['', 'required'],
				[null, 'required'],
				['CPF', 'enum'],
			],
		},
		{ field: 'identifyType', with: { bankCode: ' papara ' }, ok: ['EMAIL'], bad: [['', 'required']] },
	],
	USDT: [
		...common(),
		{
			field: 'amount',
			ok: [
				'0.0001',
				'250.5',
				'1234.5678',
				'5000000',
				'5000000.0000',
				[0.0001, '0.0001'],
				[250.5, '250.5'],
				['  100 ', '100'],
			],
			bad: [
				['0.00009', 'amount'],
				['0', 'amount'],
				['0.0000', 'amount'],
				['1.23456', 'amount'],
				['5000000.0001', 'amount'],
				['5000001', 'amount'],
				['1,000', 'amount'],
				['', 'required'],
			],
		},
		anyText('accountType', 'WALLET'),
		anyText('bankCode', 'TRC20'),
		...USDT_ADDRESS_CASES,
		lettersNameCase,
		shared(phone(true)),
	],
	KRW: [
		...common(),
		exactTwo(),
		accountTypes(['BANK_ACCOUNT'], ['EWALLET', 'BANK_CARD']),
		anyText('bankCode', '004'),
		anyText('accountNo', '12345678901234'),
		lettersNameCase,
		shared(phone(true)),
	],
};

/** The pages whose address is not `/<ccy>/api/payApply`. */
const PAGES: Partial<Record<RailCurrency, string>> = {
	USDT: 'https://doc.haipay.net/docs/en/api-reference/usdtc/api/usdtPayApply',
};

describe('the rails', () => {
	it('follow the contract currencies in the payout list, TZS staying first', () => {
		expect(Object.keys(PAYOUT_RULES)).toEqual(['TZS', 'ZAR', 'NGN', 'EGP', 'BDT', ...RAIL_CURRENCIES]);
		expect(Object.keys(CASES).sort()).toEqual([...RAIL_CURRENCIES].sort());
	});

	it.each(RAIL_CURRENCIES)('%s: each names its page and certainty', (currency) => {
		expect(RAIL_RULES[currency].source).toEqual({
			certainty: ['MXN', 'TRY'].includes(currency) ? 'partial' : 'official',
			page: PAGES[currency] ?? `https://doc.haipay.net/docs/en/api-reference/${currency.toLowerCase()}/api/payApply`,
		});
		expect(RAIL_RULES[currency].path).toBe(`/${currency.toLowerCase()}/pay/apply`);
	});

	it('publish no "no such order" answer for the USDT and KRW queries, so none is concluded; the others follow contract 4.7', () => {
		const silent = RAIL_CURRENCIES.filter((currency) => RAIL_RULES[currency].queryShowsAbsence === false);
		expect(silent).toEqual(['USDT', 'KRW']);
	});

	it('say why a field that another one makes required is missing', () => {
		const { violations } = checkRequest(RAIL_RULES.TRY, {
			...BASES.TRY,
			bankCode: 'PAPARA',
			accountType: 'EWALLET',
			accountNo: '1234567890',
		});
		expect(violations).toEqual([
			{ field: 'identifyType', rule: 'required', message: '"identifyType" is required when bankCode is PAPARA' },
		]);
	});

	it('sign and send extra fields, as for the contract currencies other than TZS', () => {
		for (const currency of RAIL_CURRENCIES) {
			const { body, violations } = checkRequest(RAIL_RULES[currency], BASES[currency], { purpose: 'salary' });
			expect(violations).toEqual([]);
			expect(body).toMatchObject({ purpose: 'salary' });
		}
	});
});

describe.each(RAIL_CURRENCIES)('%s rules', (currency) => {
	ruleCases(RAIL_RULES[currency], BASES[currency], CASES[currency]);
});
