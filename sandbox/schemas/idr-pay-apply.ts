import { amount, oneOf, railPayApply, TWO_DECIMALS_PATTERN, type Schema } from './common';

/** HaiPay's IDR payout page. It gives the amount no decimal rule or range: two decimals at most, above zero. */
export const idrPayApply: Schema = railPayApply({
	amount: amount(TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
	accountType: oneOf('BANK_ACCOUNT', 'EWALLET'),
});
