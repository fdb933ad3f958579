/*
 * Failure text anywhere in an answer: a second line behind the allow-lists of judge.ts. An acceptance is decided by
 * what HaiPay publishes as success (statuses, an empty message); these words only add doubt to members no list
 * covers (a remark, a payUrl), so that a failure said there also sends the request to its query.
 */

/** Words that say a request failed, was refused or ended without effect. */
export const FAILURE_WORDS: readonly string[] = [
	'FAIL',
	'FAILED',
	'FAILURE',
	'FAILS',
	'ERROR',
	'REJECT',
	'REJECTED',
	'REFUSE',
	'REFUSED',
	'DECLINE',
	'DECLINED',
	'CANCEL',
	'CANCELED',
	'CANCELLED',
	'CLOSED',
	'INVALID',
	'EXPIRED',
	'NOTFOUND',
	'NONEXISTENT',
	'DENIED',
	'UNSUCCESSFUL',
	'REVERSED',
	'BLOCKED',
	'INSUFFICIENT',
	'FROZEN',
];

/** Word pairs that say what was named does not exist: "not found", "not exist", "no such", "not_exists". */
export const NOT_FOUND_PAIRS: readonly (readonly [string, string])[] = [
	['NOT', 'FOUND'],
	['NOT', 'EXIST'],
	['NOT', 'EXISTS'],
	['NO', 'SUCH'],
];

/**
 * The same in Chinese, where words are not separated: failed, does not exist, refused, closed, cancelled, not enough,
 * abnormal, frozen, invalid.
 */
export const FAILURE_TEXTS: readonly string[] = [
	'失败',
	'不存在',
	'拒绝',
	'关闭',
	'取消',
	'不足',
	'异常',
	'冻结',
	'无效',
];

const FAILURE = new Set(FAILURE_WORDS);

/** A text's words, upper-cased: split at anything but letters and digits, and where camelCase turns upper. */
function wordsOf(value: string): string[] {
	return value
		.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
		.toUpperCase()
		.split(/[^\p{L}\p{N}]+/u)
		.filter((word) => word !== '');
}

/**
 * Whether a text says a request failed, or that what it named does not exist. Read in its compatibility form
 * (NFKC), so that a fullwidth "ＦＡＩＬＥＤ" reads as "FAILED".
 */
export function saysFailure(text: string): boolean {
	const value = text.normalize('NFKC');
	if (FAILURE_TEXTS.some((failure) => value.includes(failure))) return true;
	const words = wordsOf(value);
	return words.some(
		(word, index) =>
			FAILURE.has(word) || NOT_FOUND_PAIRS.some(([first, second]) => word === first && words[index + 1] === second),
	);
}
