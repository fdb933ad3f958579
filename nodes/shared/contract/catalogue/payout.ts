import type { MethodEntry } from './types';

/**
 * Payout codes (`bankCode`) HaiPay's pages name. Most payout pages give `bankCode` as free text with no list, and
 * KRW's points to an "Appendix: Payout Bank Codes" whose contents no public copy holds: those currencies have no
 * rows here (docs/method-catalogue.md says which, and why).
 */

const TZS_WALLETS: Array<[code: string, name: string]> = [
	['AIRTEL', 'Airtel Money'],
	['HALOPESA', 'HaloPesa'],
	['TIGO', 'Tigo Pesa'],
	['VODACOM', 'Vodacom M-Pesa'],
];

export const PAYOUT_METHODS: readonly MethodEntry[] = [
	...TZS_WALLETS.map(([code, name]): MethodEntry => ({
		kind: 'payout',
		currency: 'TZS',
		code,
		name,
		accountType: 'EWALLET',
		limits: { min: '1000', max: '5000000', source: 'contractTzs' },
		source: 'contractTzs',
	})),
	{ kind: 'payout', currency: 'BRL', code: 'PIX', name: 'PIX', accountType: 'EWALLET', source: 'brlPayout' },
	{ kind: 'payout', currency: 'USD', code: 'PayPal', name: 'PayPal', accountType: 'EWALLET', source: 'usdPayout' },
	// The page's example; its accountType there is not legible, and MXN takes a debit card or a CLABE.
	{ kind: 'payout', currency: 'MXN', code: 'STP', name: 'STP (SPEI)', source: 'mxnPayout' },
	// The page ties PAPARA to no account type; its accountNo is the Papara ID, not an IBAN.
	{
		kind: 'payout',
		currency: 'TRY',
		code: 'PAPARA',
		name: 'Papara',
		limits: { min: '10', max: '99000', source: 'turkeyPage' },
		source: 'tryPayout',
	},
	{
		kind: 'payout',
		currency: 'ZAR',
		code: '051001',
		name: "Standard Bank (its universal branch code, HaiPay's example)",
		accountType: 'BANK_ACCOUNT',
		limits: { min: '2', max: '1000000', source: 'southAfricaPage' },
		source: 'southAfricaPage',
	},
];
