/*
 * The versions of the HaiPay node. A saved workflow keeps the version it was made with and n8n runs it with that
 * version's parameters, defaults included (a saved workflow stores only the values that differ from a default); a new
 * node gets the latest. What changed, version by version, is in docs/haipay-node.md ("Node versions"). An option
 * added with a default that keeps what a saved workflow does (Payout → Check's Look Up Existing Orders, off) needs
 * no new version: a saved workflow lacks it, so it runs with the default.
 *
 * 1: the first.
 * 2: a drop-down that decides who is paid (a field with `decidesPayee`) starts with nothing chosen, so that an item is
 *    never sent with the first value n8n fills in. Version 1 keeps its first-value defaults: a saved workflow that
 *    relied on one (a BRL payout leaving PIX Key Type on CPF) pays as it did.
 * 3: a code field that HaiPay's method catalogue lists codes for (a payout's bankCode, a local collection's payType
 *    and inBankCode, per currency) is a list to pick from, searchable, or any code typed By Code. Its value is then a
 *    resource locator rather than text, so versions 1 and 2 keep their text fields: a saved workflow reads as it did.
 * 4: a drop-down that decides how much, how often, to whom or where money goes (a field with `decidesMoney`: a
 *    subscription's Recurring Interval) starts with nothing chosen, as payee-deciding ones do from 2; and the fields a
 *    rule introduces with `since: 4` appear: USDT payouts name their Network (never sent), which decides the wallet
 *    address check (TRON Base58Check, EVM EIP-55). Versions 1 to 3 keep Recurring Interval's Day default and send a
 *    USDT address as given, as a saved workflow did; Payout → Check says that address was not checked.
 */
export const NODE_VERSIONS = [1, 2, 3, 4] as const;
export type NodeVersion = (typeof NODE_VERSIONS)[number];
export const LATEST_VERSION: NodeVersion = 4;

/** The first version whose payee-deciding drop-downs start with nothing chosen. */
export const NO_PAYEE_DEFAULTS_FROM: NodeVersion = 2;

/** The first version whose catalogued code fields are lists (resource locators). */
export const CATALOGUE_LISTS_FROM: NodeVersion = 3;

/** The first version whose money-deciding drop-downs (`decidesMoney`) start with nothing chosen. */
export const NO_MONEY_DEFAULTS_FROM: NodeVersion = 4;

/** The first version in which a parameter name has one kind (text, drop-down or list) wherever it shows. */
export const ONE_TYPE_PER_NAME_FROM: NodeVersion = 4;
