import { MIT_COLLECTION, PAYOUTS } from '../fixtures/bodies';

/** One valid create item per currency, by the gateway's field names: the base that rule tests vary one field of. */
export const BASES: Record<string, Record<string, unknown>> = {
	TZS: { orderId: 'T-1', ...PAYOUTS.TZS },
	ZAR: { orderId: 'Z-1', ...PAYOUTS.ZAR },
	NGN: { orderId: 'N-1', ...PAYOUTS.NGN },
	// A bank account, against which the rules accept both kinds of account number (wallets are checked with EWALLET).
	EGP: { orderId: 'E-1', ...PAYOUTS.EGP, accountType: 'BANK_ACCOUNT', bankCode: 'NBE', accountNo: '1234567890123' },
	BDT: { orderId: 'B-1', ...PAYOUTS.BDT },
	USD: { orderId: 'U-1', ...MIT_COLLECTION },
};
