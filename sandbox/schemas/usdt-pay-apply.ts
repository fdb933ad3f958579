import { amount, nonEmptyText, railPayApply, type Schema } from './common';

/**
 * HaiPay's USDT payout page (api-reference usdtc, usdtPayApply): a wallet address as accountNo, "Range:
 * 0.0001-5000000". accountType and bankCode are required with no values listed, and no field names a network.
 * The text's "two decimal places" contradicts the range's own minimum: this gateway takes up to four.
 */
export const usdtPayApply: Schema = railPayApply({
	amount: amount('^(0|[1-9]\\d*)(\\.\\d{1,4})?$', { min: '0.0001', max: '5000000' }),
	accountType: nonEmptyText,
});
