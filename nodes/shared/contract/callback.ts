/**
 * The notify callback (docs/haipay-facts.md, "Callbacks"): a flat JSON POST signed like an answer's `data`, over
 * every member but `sign`. HaiPay resends it every 5 minutes, up to 5 times, until it reads this text back.
 */
export const ACKNOWLEDGEMENT = 'SUCCESS';

/** The members that say which order a callback is about and what state it reached. */
export const IDENTIFYING_FIELDS = ['appId', 'orderId', 'orderNo', 'status', 'currency'] as const;

/** How the card token of a USD MIT collection (docs/contract.md §2.3) has been spelled by HaiPay's callbacks. */
export const TOKEN_FIELDS = ['tokenID', 'tokenId', 'tokenid', 'token_id'] as const;
