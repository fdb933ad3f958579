import { accountNo, accountType, bankCode } from '../common';
import { amount, contact, lettersName, payApply, rail } from './fields';

/**
 * USDT payouts to a wallet address, as HaiPay's usdtPayApply page states them (docs/haipay-facts.md, "USDT and KRW
 * payouts"). The page names no network or chain field and lists no values for accountType or bankCode: both are
 * sent as given, and HaiPay's configuration for the merchant decides (a wrong code answers 4002).
 *
 * The amount's text says "accurate to two decimal places" and "Range: 0.0001-5000000"; the range's own minimum has
 * four decimals, so four are allowed and the range is checked. Whether HaiPay takes a third and fourth decimal is
 * left to it: a refusal creates nothing.
 *
 * The USDT query page (usdtPayQuery) publishes no answer for an order HaiPay does not have, so no answer of it
 * proves a payout absent: an open payout stays unknown until HaiPay shows it.
 */
export const USDT = rail('USDT', 'Tether USD', {
	...payApply(
		'USDT',
		'official',
		[
			amount(
				{ maxDecimals: 4, min: '0.0001', max: '5000000', unit: 'USDT' },
				'Amount in USDT, 0.0001 to 5,000,000, up to 4 decimals, no commas',
				'100.00',
			),
			accountType(true, 'The account type HaiPay set up for your USDT payouts (its page lists no values)'),
			{
				...bankCode(true, 'The network or channel code HaiPay set up for your USDT payouts (its page lists no values)'),
				placeholder: 'Network code',
			},
			{ ...accountNo(true, "The recipient's wallet address"), placeholder: 'TXYZ…' },
			{ ...lettersName(), placeholder: 'Maria Santos' },
			...contact(),
		],
		'https://doc.haipay.net/docs/en/api-reference/usdtc/api/usdtPayApply',
	),
	queryShowsAbsence: false,
});
