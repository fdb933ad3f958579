import { amount, EXACT_TWO_DECIMALS_PATTERN, oneOf, railPayApply, type Schema } from './common';

/** HaiPay's MYR payout page: amounts with exactly two decimals. */
export const myrPayApply: Schema = railPayApply({
	amount: amount(EXACT_TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
	accountType: oneOf('EWALLET', 'BANK_ACCOUNT'),
});
