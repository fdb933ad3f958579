import { amount, EXACT_TWO_DECIMALS_PATTERN, oneOf, railPayApply, type Schema } from './common';

/**
 * HaiPay's KRW payout page: bank accounts only, amounts `^\d+\.\d{2}$`, a bank code from an appendix no public copy
 * holds (any code is taken here; the unknown-channel fault answers 4002).
 */
export const krwPayApply: Schema = railPayApply({
	amount: amount(EXACT_TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
	accountType: oneOf('BANK_ACCOUNT'),
});
