import type { IDataObject } from 'n8n-workflow';

import { FAILURE_TEXTS, FAILURE_WORDS, NOT_FOUND_PAIRS, type Acceptance } from '../contract/acceptance';
import { exactStatus, statusGroup } from '../contract/statuses';
import { gatewayText } from './outcome';
import type { Answer } from './request';
import { exactText } from '../text';

/*
 * A create's answer is HaiPay's acceptance only when it says so. A genuine signature proves HaiPay wrote the data,
 * not that the data says "taken": HaiPay signs its "no such order" query answers too, and those name the orderId
 * asked for, so a path that replays one (or a gateway that answers a create with a failure in its data) would
 * otherwise turn a request that made nothing into `accepted`, and the row would never be paid. Anything short of an
 * acceptance is treated as a lost answer: `unknown`, settled by HaiPay's own query, never by a resend.
 */

const FAILURE = new Set(FAILURE_WORDS);

/** A text's words, upper-cased: split at anything but letters and digits, and where camelCase turns upper. */
function wordsOf(value: string): string[] {
	return value
		.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
		.toUpperCase()
		.split(/[^\p{L}\p{N}]+/u)
		.filter((word) => word !== '');
}

/** Whether a status or message says the request failed, or that what it named does not exist. */
export function saysFailure(value: string): boolean {
	if (FAILURE_TEXTS.some((failure) => value.includes(failure))) return true;
	const words = wordsOf(value);
	return words.some(
		(word, index) =>
			FAILURE.has(word) || NOT_FOUND_PAIRS.some(([first, second]) => word === first && words[index + 1] === second),
	);
}

/**
 * HaiPay's identifier as a text, or '' when there is none: a blank text is none, and a number counts only as the
 * whole number it states (a rounded one names some other order).
 */
function identifierOf(value: unknown): string {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	return '';
}

/**
 * Why a status keeps an answer from being an acceptance: HaiPay's failed (3, which is also its "no such order"),
 * a word of failure, or a value no status of HaiPay's is written as ("03", 2.5, [1]), on which nothing is decided.
 * No status at all is no doubt: the contract's create answers carry none.
 */
function statusDoubt(status: unknown): string | undefined {
	if (status === undefined || status === null || status === '') return undefined;
	const exact = exactStatus(status);
	if (exact !== undefined)
		return statusGroup(exact) === 'failed'
			? `its status ${exact} is HaiPay's "failed", which is also its "no such order"`
			: undefined;
	if (typeof status === 'string' && /\p{L}/u.test(status))
		return saysFailure(status) ? `its status "${gatewayText(status)}" says the request failed` : undefined;
	return `its status ${gatewayText(JSON.stringify(status) ?? '')} is not a value HaiPay's statuses are written as`;
}

/**
 * Why a create's answer is not HaiPay's acceptance of this request, or undefined when it is. An acceptance is a data
 * object that names the request's own ID (`orderId`), carries HaiPay's identifier for what it made (the create's
 * `accepts.identifier`: `orderNo`, `refundNo`), and states no failed or not-found status or message. The one rule
 * for every create: the runner applies it to each create's answer before anything is presented as accepted.
 */
export function whyNotAccepted(answer: Answer, ownId: string | undefined, accepts: Acceptance): string | undefined {
	if (answer.type !== 'data') return 'HaiPay answered success without a data object';
	const data: IDataObject = answer.data;
	const named = exactText(data[accepts.ownMember ?? 'orderId']);
	if (named === '') return `the answer does not name the request's ${accepts.ownId}`;
	if (named !== ownId) return `the answer is about the ${accepts.ownId} "${gatewayText(named)}", not "${ownId ?? ''}"`;
	if (identifierOf(data[accepts.identifier]) === '') {
		return `the answer carries no ${accepts.identifier}, the number HaiPay gives a ${accepts.makes} it has made`;
	}
	const status = statusDoubt(data.status);
	if (status !== undefined) return `${status}, so it does not show the ${accepts.makes} made`;
	const errorMsg = exactText(data.errorMsg);
	if (saysFailure(errorMsg))
		return `its errorMsg "${gatewayText(errorMsg)}" says the request failed, so it does not show the ${accepts.makes} made`;
	return undefined;
}
