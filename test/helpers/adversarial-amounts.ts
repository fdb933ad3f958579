import type { PayoutCurrency } from '../fixtures/bodies';

/**
 * A month-end sheet built to make floating-point totals drift and to probe every amount rule: amounts such as
 * 0.10, 9999999.99 and 999999999999999.99, amounts given as numbers (as a spreadsheet's number cells arrive) and as
 * text with spaces; and amounts the gateway must never receive (leading zeros, three decimals, 0.1 + 0.2, exponents,
 * signs, commas, below or above a currency's limits). Each is labelled valid or invalid by construction, so that the
 * test's expectations come from the sheet, not from the node.
 */

export interface AdversarialAmount {
	amount: string | number;
	valid: boolean;
}

const ok = (amount: string | number): AdversarialAmount => ({ amount, valid: true });
const bad = (amount: string | number): AdversarialAmount => ({ amount, valid: false });

/** Refused in every currency: not a plain positive decimal, or one the node will not rewrite. */
const ALWAYS_BAD = [
	bad('00.10'),
	bad('0012'),
	bad('1.005'),
	bad(0.1 + 0.2),
	bad('1e3'),
	bad(1e21),
	bad('-5'),
	bad('+5'),
	bad('0'),
	bad('0.00'),
	bad('1,000.00'),
	bad('12.5.0'),
	bad(''),
	bad('=1+2'),
	bad('١٢'),
];

/** The contract's payout currencies, whose amount rules the sheet probes. */
export type ContractCurrency = Extract<PayoutCurrency, 'TZS' | 'ZAR' | 'NGN' | 'EGP' | 'BDT'>;

export const AMOUNTS: Readonly<Record<ContractCurrency, AdversarialAmount[]>> = {
	TZS: [
		ok('1000'),
		ok('1000.10'),
		ok(85000.5),
		ok('4999999.99'),
		ok('5000000.00'),
		ok(' 150000.05 '),
		ok(1234.1),
		bad('999.99'),
		bad('5000000.01'),
		bad('1000.001'),
		...ALWAYS_BAD,
	],
	ZAR: [
		ok('9999999.99'),
		ok('10000000'),
		ok('1.00'),
		ok(2500.5),
		ok(0.1 * 30),
		ok('1.1'),
		bad('0.10'),
		bad('10000000.01'),
		...ALWAYS_BAD,
	],
	NGN: [ok('0.10'), ok('0.01'), ok(0.1), ok('9999999.99'), ok('12000'), ok(7500.25), bad('0.001'), ...ALWAYS_BAD],
	EGP: [
		ok('0.10'),
		ok('0.01'),
		ok('999999999999999.99'),
		ok(9999999.99),
		ok(0.7),
		ok('450.75'),
		bad('1000000000000000'),
		...ALWAYS_BAD,
	],
	BDT: [ok('1'), ok('9999999'), ok(1250), ok('999999999999999'), bad('1.5'), bad(1.5), bad('1.0'), ...ALWAYS_BAD],
};

/** A small fast generator with a seed, so that the sheet is the same on every run. */
export function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

/** The text the gateway receives for an amount the node accepts: a number as JavaScript writes it, text trimmed. */
export function sentText(amount: string | number): string {
	return typeof amount === 'number' ? String(amount) : amount.trim();
}
