/*
 * The most whole digits any amount may have, in every currency and every create (payouts, collections). HaiPay
 * publishes no upper limit for NGN, EGP, IDR, TRY and others (their limits are merchant configuration), yet refused an
 * NGN amount of 30 digits; and a 400-digit amount reached n8n as `amountValue` Infinity, which no approver can read.
 *
 * 15 digits: 999,999,999,999,999 in the unit of the currency worth least that the node pays (VND, about 25,000 to the
 * US dollar) is about US$40 billion, far beyond any merchant's balance, so no real amount is refused; and every whole
 * number of 15 digits is exact as a floating-point number (below 2^53, and 15 is the decimal digits a double always
 * keeps), so the `amountValue` Payout → Check gives for totals keeps its whole part exactly.
 */
export const AMOUNT_MAX_WHOLE_DIGITS = 15;
