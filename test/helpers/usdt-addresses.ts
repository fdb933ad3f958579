import type { Case } from './rule-cases';

/*
 * Wallet addresses on both sides of each edge of USDT's address check (docs/haipay-node.md, "USDT: network and
 * address"): valid, one character changed, the other chain's, and EVM's lower, upper and mixed case. The EVM ones are
 * EIP-55's own examples (eips.ethereum.org/EIPS/eip-55); the TRON ones are TRC-20 USDT's contract and the fixture's.
 */

export const TRON = {
	valid: ['TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
	/** The first valid one with its last character changed (8 → 9), and the second with one letter's case changed. */
	oneChanged: ['TJRabPrwbZy45sbavfcjinPJC18kjpRTv9', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T'],
	/** Not TRON's form at all: one character short, a Base58-foreign 0, a space. */
	malformed: ['TJRabPrwbZy45sbavfcjinPJC18kjpRTv', 'TJRabPrwbZy45sbavfcjinPJC18kjpRT0v', 'not an address!'],
};

export const EVM = {
	mixed: [
		'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
		'0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
		'0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
		'0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
	],
	upper: ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D'],
	lower: ['0xde709f2102306220921060314715629080e2fb77', '0x27b1fdb04752bbc536007a920d24acb045561c26'],
	/**
	 * The first mixed one with one character changed: the last letter's case (d → D), the last letter (d → e), the
	 * first letter's case (a → A).
	 */
	oneChanged: [
		'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
		'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAee',
		'0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
	],
	/** Not the form: one digit short, 0X, a non-hex g, no 0x. */
	malformed: [
		'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe',
		'0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
		'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg',
		'5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00',
	],
};

/** The rule cases of USDT's network and accountNo, for test/unit/rails.test.ts's runner. */
export const USDT_ADDRESS_CASES: Case[] = [
	{
		field: 'network',
		ok: ['TRON', ['  TRON ', 'TRON']],
		bad: [
			['', 'required'],
			['tron', 'enum'],
			['TRC20', 'enum'],
			['ERC20', 'enum'],
		],
	},
	{ field: 'network', with: { accountNo: EVM.mixed[0] }, ok: ['EVM', 'BY_CODE'], bad: [] },
	{
		field: 'accountNo',
		with: { network: 'TRON' },
		ok: TRON.valid,
		bad: [
			...TRON.oneChanged.map((address): [string, string] => [address, 'checksum']),
			...TRON.malformed.map((address): [string, string] => [address, 'address']),
			[EVM.mixed[0], 'network'],
			[EVM.lower[0], 'network'],
			['', 'required'],
		],
	},
	{
		field: 'accountNo',
		with: { network: 'EVM' },
		ok: [...EVM.mixed, ...EVM.upper, ...EVM.lower],
		bad: [
			...EVM.oneChanged.map((address): [string, string] => [address, 'checksum']),
			...EVM.malformed.map((address): [string, string] => [address, 'address']),
			[TRON.valid[0], 'network'],
			[TRON.oneChanged[0], 'network'],
			['', 'required'],
		],
	},
	{
		field: 'accountNo',
		with: { network: 'BY_CODE' },
		ok: [
			'not an address!',
			TRON.oneChanged[0],
			EVM.oneChanged[0],
			'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer',
		],
		bad: [['', 'required']],
	},
];
