/** The limits of the read endpoints' requests: queries (docs/contract.md §4.7) and vouchers (§4.8). */

/** Every application's `orderId` (§8). */
export const ORDER_ID_MAX_LENGTH = 48;

/** HaiPay's order numbers are short; a longer one is a mistake, not an order number (docs/haipay-facts.md). */
export const ORDER_NO_MAX_LENGTH = 64;

/** `orderNos` of a voucher download: at least 1, at most 100 (§4.8). */
export const VOUCHER_ORDER_NOS_MAX = 100;

/** Voucher languages (§4.8). */
export const VOUCHER_LANGUAGES = ['zh', 'en'] as const;
