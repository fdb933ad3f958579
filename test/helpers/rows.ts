import { MIT_COLLECTION, PAYOUTS } from '../fixtures/bodies';

/**
 * One valid create item per currency, by the gateway's field names: the base that rule tests vary one field of.
 * Payouts by currency; the USD card collection (MIT) as `MIT`.
 */
export const BASES: Record<string, Record<string, unknown>> = {
	...Object.fromEntries(
		Object.entries(PAYOUTS).map(([currency, row]) => [currency, { orderId: `${currency.charAt(0)}-1`, ...row }]),
	),
	// A bank account, against which the rules accept both kinds of account number (wallets are checked with EWALLET).
	EGP: { orderId: 'E-1', ...PAYOUTS.EGP, accountType: 'BANK_ACCOUNT', bankCode: 'NBE', accountNo: '1234567890123' },
	MIT: { orderId: 'U-1', ...MIT_COLLECTION },
};
