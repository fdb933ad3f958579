import { amount, EXACT_TWO_DECIMALS_PATTERN, oneOf, railPayApply, type Schema } from './common';

/** HaiPay's PHP payout page: amounts with exactly two decimals, a mobile number of 11 digits from 09. */
export const phpPayApply: Schema = railPayApply({
	amount: amount(EXACT_TWO_DECIMALS_PATTERN, { minExclusive: '0' }),
	accountType: oneOf('EWALLET', 'BANK_ACCOUNT'),
	phone: { type: 'string', pattern: '^09\\d{9}$' },
});
