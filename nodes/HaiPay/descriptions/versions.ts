/*
 * The versions of the HaiPay node. A saved workflow keeps the version it was made with and n8n runs it with that
 * version's parameters, defaults included (a saved workflow stores only the values that differ from a default); a new
 * node gets the latest. What changed, version by version, is in docs/haipay-node.md ("Node versions").
 *
 * 1: the first.
 * 2: a drop-down that decides who is paid (a field with `decidesPayee`) starts with nothing chosen, so that an item is
 *    never sent with the first value n8n fills in. Version 1 keeps its first-value defaults: a saved workflow that
 *    relied on one (a BRL payout leaving PIX Key Type on CPF) pays as it did.
 */
export const NODE_VERSIONS = [1, 2] as const;
export type NodeVersion = (typeof NODE_VERSIONS)[number];
export const LATEST_VERSION: NodeVersion = 2;

/** The first version whose payee-deciding drop-downs start with nothing chosen. */
export const NO_PAYEE_DEFAULTS_FROM: NodeVersion = 2;
