import type { Sandbox } from '../../sandbox';
import { APP, call, dataVerifies, payoutFor, withSandbox, type Body } from './helpers';

/**
 * The sandbox's payout rails beyond the contract, through real signed HTTP requests: each currency's own schema
 * (written from HaiPay's page, not from the package's rules) accepts the valid body and refuses each invalid one,
 * naming the field; an accepted payout is an order of that currency's App ID that the query finds.
 */

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await withSandbox();
});
afterAll(() => sandbox.close());

const RAILS = [
	'BRL',
	'INR',
	'IDR',
	'PHP',
	'MXN',
	'EUR',
	'USD',
	'THB',
	'VND',
	'MYR',
	'PKR',
	'TRY',
	'USDT',
	'KRW',
] as const;
type Rail = (typeof RAILS)[number];

/** A case: its name, the changes to the currency's valid body (undefined removes a field), and true or the field refused. */
type Case = [string, Record<string, unknown>, true | string];

function body(currency: Rail, changes: Record<string, unknown>): Body {
	const result = payoutFor(currency, changes);
	for (const [field, value] of Object.entries(changes)) if (value === undefined) delete result[field];
	return result;
}

const CASES: Record<Rail, Case[]> = {
	BRL: [
		['amount 1', { amount: '1' }, true],
		['amount 0.99', { amount: '0.99' }, 'amount'],
		['amount 99999.99', { amount: '99999.99' }, true],
		['amount 100000', { amount: '100000' }, 'amount'],
		['amount with one decimal', { amount: '500.5' }, 'amount'],
		['accountType BANK_ACCOUNT', { accountType: 'BANK_ACCOUNT' }, 'accountType'],
		['identifyType RANDOM', { identifyType: 'RANDOM' }, 'identifyType'],
		['without identifyType', { identifyType: undefined }, 'identifyType is required'],
		['a CPF key of 10 digits', { accountNo: '0987654321' }, 'accountNo'],
		['an EMAIL key', { identifyType: 'EMAIL', accountNo: 'joao@example.com' }, true],
		['an EMAIL key that is no address', { identifyType: 'EMAIL', accountNo: '09876543210' }, 'accountNo'],
		['a PHONE key', { identifyType: 'PHONE', accountNo: '+5511987654321' }, true],
		["name with ' . -", { name: "O'Neil D. Souza-Lima" }, true],
		['name of 31 characters', { name: 'A'.repeat(31) }, 'name'],
		['name with a digit', { name: 'Joao 2' }, 'name'],
		['without phone', { phone: undefined }, 'phone is required'],
	],
	INR: [
		['amount 1', { amount: '1' }, true],
		['amount 0', { amount: '0' }, 'amount'],
		['amount with decimals', { amount: '1000.50' }, 'amount'],
		['accountType EWALLET', { accountType: 'EWALLET' }, 'accountType'],
		['bankCode an IFSC', { bankCode: 'SBIN0000001' }, true],
		['bankCode with no 0 fifth', { bankCode: 'HDFC1001234' }, 'bankCode'],
		['bankCode in lower case', { bankCode: 'hdfc0001234' }, 'bankCode'],
		['phone from 6', { phone: '6000000000' }, true],
		['phone from 5', { phone: '5876543210' }, 'phone'],
		['phone of 11 digits', { phone: '98765432101' }, 'phone'],
		['email at gmail.com', { email: 'a.b+c@gmail.com' }, true],
		['email elsewhere', { email: 'ravi@yahoo.com' }, 'email'],
		['name with a dot', { name: 'Ravi K.' }, 'name'],
	],
	IDR: [
		['amount with two decimals', { amount: '50000.55' }, true],
		['amount with three decimals', { amount: '50000.555' }, 'amount'],
		['amount 0', { amount: '0' }, 'amount'],
		['accountType EWALLET', { accountType: 'EWALLET' }, true],
		['accountType BANK_CARD', { accountType: 'BANK_CARD' }, 'accountType'],
		['name with an apostrophe', { name: "Siti Nur'aini" }, true],
		['name with a digit', { name: 'Budi2' }, 'name'],
		['without bankCode', { bankCode: undefined }, 'bankCode is required'],
	],
	PHP: [
		['amount with two decimals', { amount: '1.00' }, true],
		['amount without decimals', { amount: '500' }, 'amount'],
		['amount 0.00', { amount: '0.00' }, 'amount'],
		['phone of 11 digits from 09', { phone: '09171234567' }, true],
		['phone of 10 digits', { phone: '0917123456' }, 'phone'],
		['phone from 08', { phone: '08171234567' }, 'phone'],
		['accountType BANK_ACCOUNT', { accountType: 'BANK_ACCOUNT' }, true],
	],
	MXN: [
		['amount without decimals', { amount: '55' }, 'amount'],
		['a CLABE of 18 digits', { accountNo: '012180015118333755' }, true],
		['a CLABE of 17 digits', { accountNo: '01218001511833375' }, 'accountNo'],
		['a CLABE with a letter', { accountNo: '99418029201a844099' }, 'accountNo'],
		['a debit card of 16 digits', { accountType: 'BANK_CARD', accountNo: '4111111111111111' }, true],
		['a debit card of 18 digits', { accountType: 'BANK_CARD', accountNo: '012180015118333755' }, 'accountNo'],
		['accountType EWALLET', { accountType: 'EWALLET' }, 'accountType'],
		['without phone', { phone: undefined }, true],
		['without email', { email: undefined }, 'email is required'],
	],
	EUR: [
		['amount 1', { amount: '1' }, true],
		['amount 0.99', { amount: '0.99' }, 'amount'],
		['amount 150000', { amount: '150000' }, true],
		['amount 150000.01', { amount: '150000.01' }, 'amount'],
		['an IBAN in lower case', { accountNo: 'fr7630006000011234567890189' }, 'accountNo'],
		['an IBAN with spaces', { accountNo: 'FR76 3000 6000 0112 3456 7890 189' }, 'accountNo'],
		['swiftCode of 11', { swiftCode: 'DEUTDEFF500' }, true],
		['swiftCode of 7', { swiftCode: 'BNPAFRP' }, 'swiftCode'],
		['without city', { city: undefined }, 'city is required'],
		['without street', { street: undefined }, 'street is required'],
		['without postalCode', { postalCode: undefined }, 'postalCode is required'],
		['accountType EWALLET', { accountType: 'EWALLET' }, 'accountType'],
	],
	USD: [
		['amount without decimals', { amount: '25' }, 'amount'],
		['a PayPal account that is no email', { accountNo: '123465' }, 'accountNo'],
		['another method, another account', { bankCode: 'WISE', accountNo: '123465' }, true],
		['name of one word', { name: 'John' }, 'name'],
		['name of three words', { name: 'John Ronald Smith' }, true],
		['without subject', { subject: undefined }, 'subject is required'],
	],
	THB: [
		['phone of 10 digits from 0', { phone: '0212345678' }, true],
		['phone of 9 digits', { phone: '081234567' }, 'phone'],
		['phone from 1', { phone: '1812345678' }, 'phone'],
		['amount without decimals', { amount: '500' }, 'amount'],
		['accountType EWALLET', { accountType: 'EWALLET' }, true],
	],
	VND: [
		['amount 50000', { amount: '50000' }, true],
		['amount 49999.99', { amount: '49999.99' }, 'amount'],
		['amount 10000000', { amount: '10000000' }, true],
		['amount 10000000.01', { amount: '10000000.01' }, 'amount'],
		['name in Vietnamese', { name: 'Nguyễn Văn An' }, true],
		['name with a digit', { name: 'An 2' }, 'name'],
		['accountType EWALLET', { accountType: 'EWALLET' }, 'accountType'],
	],
	MYR: [
		['amount without decimals', { amount: '100' }, 'amount'],
		['amount 0.01', { amount: '0.01' }, true],
		['accountType CARD', { accountType: 'CARD' }, 'accountType'],
		['name with a digit', { name: 'Ahmad 2' }, 'name'],
	],
	PKR: [
		['birth on 29 February of a leap year', { birth: '2000-02-29' }, true],
		['birth on 30 February', { birth: '1990-02-30' }, 'birth'],
		['birth without zero padding', { birth: '1990-4-25' }, 'birth'],
		['gender FEMALE', { gender: 'FEMALE' }, true],
		['gender in lower case', { gender: 'male' }, 'gender'],
		['without subject', { subject: undefined }, 'subject is required'],
		['without birth', { birth: undefined }, 'birth is required'],
		['without gender', { gender: undefined }, 'gender is required'],
		['with idCard', { idCard: '3520212345671' }, true],
		['amount without decimals', { amount: '1000' }, 'amount'],
	],
	TRY: [
		['a bank account that is no IBAN', { accountNo: '09876543210' }, 'accountNo'],
		[
			'a Papara wallet with its ID type',
			{ accountType: 'EWALLET', bankCode: 'PAPARA', accountNo: '1234567890', identifyType: 'PAPARA_NUMBER' },
			true,
		],
		[
			'a Papara wallet without its ID type',
			{ accountType: 'EWALLET', bankCode: 'PAPARA', accountNo: '1234567890' },
			'identifyType is required',
		],
		['identifyType CPF', { identifyType: 'CPF' }, 'identifyType'],
		['with ibanAccount', { ibanAccount: 'TR330006100519786457841326' }, true],
		['amount with three decimals', { amount: '1000.505' }, 'amount'],
	],
	USDT: [
		['amount 0.0001', { amount: '0.0001' }, true],
		['amount 0.00009', { amount: '0.00009' }, 'amount'],
		['amount 0', { amount: '0' }, 'amount'],
		['amount 5000000', { amount: '5000000' }, true],
		['amount 5000000.0001', { amount: '5000000.0001' }, 'amount'],
		['amount with five decimals', { amount: '1.23456' }, 'amount'],
		[
			'any account type and network code',
			{ accountType: 'EWALLET', bankCode: 'ERC20', accountNo: '0x52908400098527886E0F7030069857D2E4169EE7' },
			true,
		],
		['an empty network code', { bankCode: '' }, 'bankCode'],
		['without accountType', { accountType: undefined }, 'accountType is required'],
		['without a wallet address', { accountNo: undefined }, 'accountNo is required'],
		['name with a digit', { name: 'Maria 2' }, 'name'],
		['name of 31 characters', { name: 'A'.repeat(31) }, 'name'],
		['without partnerUserId', { partnerUserId: undefined }, 'partnerUserId is required'],
	],
	KRW: [
		['amount 0.01', { amount: '0.01' }, true],
		['amount without decimals', { amount: '50000' }, 'amount'],
		['amount with one decimal', { amount: '50000.5' }, 'amount'],
		['amount 0.00', { amount: '0.00' }, 'amount'],
		['accountType EWALLET', { accountType: 'EWALLET' }, 'accountType'],
		['any bank code', { bankCode: '088' }, true],
		['without bankCode', { bankCode: undefined }, 'bankCode is required'],
		["name with ' . -", { name: "O'Neil D. Kim-Park" }, true],
		['name in Hangul', { name: '김민준' }, 'name'],
		['without email', { email: undefined }, 'email is required'],
	],
};

async function expectCase(currency: Rail, changes: Record<string, unknown>, expected: true | string): Promise<void> {
	const answer = await call(sandbox, `/${currency.toLowerCase()}/pay/apply`, body(currency, changes));
	if (expected === true) {
		expect({ status: answer.status, msg: answer.msg }).toEqual({ status: '1', msg: 'success' });
	} else {
		expect({ status: answer.status, error: answer.error, data: answer.data }).toEqual({
			status: '0',
			error: '4001',
			data: null,
		});
		expect(answer.msg).toContain(expected);
	}
}

describe.each(RAILS)('%s payout', (currency) => {
	it('accepts the valid body: an order of its App ID, answered with a platform signature, found by the query', async () => {
		const valid = body(currency, {});
		const answer = await call(sandbox, `/${currency.toLowerCase()}/pay/apply`, valid);
		expect(answer).toMatchObject({ status: '1', error: '00000000' });
		expect(dataVerifies(answer, APP[currency])).toBe(true);
		const orderNo = String((answer.data as Body).orderNo);
		const order = sandbox.control.order(orderNo);
		expect(order).toMatchObject({ kind: 'payout', appId: APP[currency], currency });
		expect(Number(order?.amount)).toBe(Number(valid.amount));
		const query = await call(sandbox, `/${currency.toLowerCase()}/pay/query`, {
			appId: APP[currency],
			orderId: valid.orderId,
		});
		expect(query.data).toMatchObject({ orderId: valid.orderId, orderNo, status: 1 });
	});

	it('accepts an unknown field', async () => {
		await expectCase(currency, { purpose: 'salary' }, true);
	});

	it("refuses another currency's App ID", async () => {
		const answer = await call(sandbox, `/${currency.toLowerCase()}/pay/apply`, {
			...body(currency, {}),
			appId: APP.TZS,
		});
		expect({ status: answer.status, error: answer.error }).toEqual({ status: '0', error: '4005' });
	});

	it.each(CASES[currency])('%s', async (_name, changes, expected) => await expectCase(currency, changes, expected));
});
