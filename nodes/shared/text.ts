/*
 * A value as text, in the two readings the package has. What HaiPay wrote (a member of an answer or a callback) is
 * read exactly: HaiPay takes an ID as it was sent and compares IDs as sent (contract/rules/identifiers.ts), so " X "
 * and "X" are two orders, and an echo that differs by a space is about another one. What a person gave (a parameter,
 * a sheet cell, a credential field) loses the spaces around it before it is checked and signed: the create sends
 * "X" for " X ", so that is the ID HaiPay holds and every later comparison expects.
 */

/** A member HaiPay wrote, as text: a string exactly as written, a number as its digits, '' for anything else. */
export function exactText(value: unknown): string {
	return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/**
 * A value a person gave, as text: a string without the spaces around it, a number as its digits, '' for anything
 * else. Also a code that only picks among known values (a callback's currency picks its query's path).
 */
export function trimmedText(value: unknown): string {
	return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}
