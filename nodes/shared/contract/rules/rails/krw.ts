import { accountNo, bankCode } from '../common';
import { accountTypes, contact, lettersName, payApply, rail, twoDecimals } from './fields';

/**
 * KRW payouts to a Korean bank account, as HaiPay's KRW payApply page states them (docs/haipay-facts.md, "USDT and
 * KRW payouts"). The page sends bankCode to its "Appendix: Payout Bank Codes", whose list no public copy holds: the
 * code is sent as given, and a wrong one answers 4002.
 *
 * The amount follows the page's pattern `^\d+\.\d{2}$` (exactly two decimals). The South Korea page says won take
 * no decimals and payouts run 1,000-1,500,000: a fraction of a won and the limits table are left to HaiPay.
 *
 * No KRW query page was found, so no "no such order" answer is published for it: an open payout stays unknown
 * until HaiPay shows it.
 */
export const KRW = rail('KRW', 'South Korean Won', {
	...payApply('KRW', 'official', [
		twoDecimals('KRW', 'Amount in won with exactly two decimals and no commas, e.g. 50000.00'),
		accountTypes(['BANK_ACCOUNT'], 'Bank accounts only'),
		{ ...bankCode(true, "The recipient's bank code, from HaiPay's Appendix: Payout Bank Codes"), placeholder: '004' },
		{ ...accountNo(true, "The recipient's bank account number"), placeholder: '12345678901234' },
		{ ...lettersName(), placeholder: 'Minjun Kim' },
		...contact(),
	]),
	queryShowsAbsence: false,
});
