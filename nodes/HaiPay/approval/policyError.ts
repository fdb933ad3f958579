/** A policy or an approval that cannot be read: the message names the entry and what is wrong with it. */
export class PolicyError extends Error {}
