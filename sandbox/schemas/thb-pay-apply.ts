import { amount, EXACT_TWO_DECIMALS_PATTERN, oneOf, railPayApply, type Schema } from './common';

/** HaiPay's THB payout page: amounts with exactly two decimals, a mobile number of 10 digits from 0. */
export const thbPayApply: Schema = railPayApply({
	amount: amount(EXACT_TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
	accountType: oneOf('EWALLET', 'BANK_ACCOUNT'),
	phone: { type: 'string', pattern: '^0\\d{9}$' },
});
