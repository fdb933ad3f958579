import type { IDataObject } from 'n8n-workflow';

import { SUCCESS_CODE } from '../contract/envelope';
import { compareDecimal, plainDecimal } from '../decimal';
import { gatewayText } from '../gateway/outcome';
import type { Answer } from '../gateway/request';
import { exactText } from '../text';
import { saysFailure } from './failureWords';
import type { Asked, Judgement, Product } from './types';

/*
 * The one judge of HaiPay's signed answers about a thing it numbers. A genuine signature proves HaiPay wrote the
 * data, not what the data says of this request: HaiPay signs its "no such order" answers, its answers about other
 * orders and its failures too. So every path that acts on an answer (a create's acceptance, the settlement of an
 * open request, Payout → Check's look-up, the trigger's Confirm With HaiPay) asks this judge, and nothing else
 * decides. Statuses are read by allow-list, what HaiPay publishes per product; anything else leaves the request to
 * its query, never to a guess.
 */

/** A member holding a second status of the thing (payStatus, orderStatus, tradeState): HaiPay publishes none. */
const STATUS_MEMBER = /status|state/i;
/** A member holding a message: errorMsg, msg, message, error, errCode, reason, description (not a referrer). */
const MESSAGE_MEMBER = /msg|message|^err|error|reason|^desc|description/i;
/** A link (a payUrl, a redirect HaiPay echoes): its path may say "failed" of a page, not of the request. */
const LINK = /^https?:\/\//i;

/** A status as written: a safe integer's digits, or a string exactly as sent; undefined for any other value. */
export function statusText(value: unknown): string | undefined {
	if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
	return typeof value === 'string' ? value : undefined;
}

/** Whether a member states nothing: absent, null or the empty string. */
function blank(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

/** A value as a message may repeat it: written as JSON (so that "3" and 3 differ), cut short. */
function said(value: unknown): string {
	return gatewayText(JSON.stringify(value) ?? String(value));
}

/** "an order", "a refund". */
function a(what: string): string {
	return `${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}`;
}

/**
 * HaiPay's number as a text, or '' when there is none: a blank text is none, and a number counts only as the whole
 * number it states (a rounded one names some other thing).
 */
function numberOf(value: unknown): string {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	return '';
}

/** Why the answer is not about the request's own thing by name, or undefined when it is. */
function nameDoubt(product: Product, data: IDataObject, asked: Asked): string | undefined {
	const named = exactText(data[product.ownMember]);
	if (named === '') return `the answer does not name the request's ${product.ownIdName}`;
	if (named !== asked.ownId)
		return `the answer is about the ${product.ownIdName} "${gatewayText(named)}", not "${asked.ownId}"`;
	const number = numberOf(data[product.identifier]);
	if (number === '')
		return `the answer carries no ${product.identifier}, the number HaiPay gives ${a(product.makes)} it has made`;
	if (asked.number !== undefined && number !== asked.number)
		return `the answer is about the ${product.identifier} "${gatewayText(number)}", not "${asked.number}"`;
	return undefined;
}

/** What the answer's payment, amount and currency make of it: undefined when they fit the request. */
function contentJudgement(product: Product, data: IDataObject, asked: Asked): Judgement | undefined {
	if (product.paymentMember !== undefined) {
		const payment = exactText(data[product.paymentMember]);
		const what = `${product.paymentName ?? 'payment'}`;
		if (payment === '')
			return {
				verdict: 'unknown',
				why: `the answer names no ${what} (${product.paymentMember}), so it does not show ${a(product.makes)} of ${asked.payment ?? ''}`,
			};
		if (asked.payment !== undefined && payment !== asked.payment)
			return {
				verdict: 'other',
				why: `HaiPay's ${product.makes} under this ${product.ownIdName} is for the ${what} ${gatewayText(payment)}, not ${asked.payment ?? ''}: another request made it, and this one created nothing`,
			};
	}
	if (!blank(data.amount)) {
		const theirs = plainDecimal(data.amount);
		if (theirs === undefined) return { verdict: 'unknown', why: `its amount ${said(data.amount)} is not a decimal` };
		if (asked.amount !== undefined && compareDecimal(theirs, asked.amount) !== 0)
			return {
				verdict: 'other',
				why: `HaiPay's ${product.makes} under this ${product.ownIdName} is for the amount ${gatewayText(theirs)}, not ${asked.amount}: another request made it, and this one created nothing`,
			};
	}
	const currency = exactText(data.currency);
	if (currency !== '' && asked.currencies !== undefined && !asked.currencies.includes(currency))
		return {
			verdict: 'other',
			why: `HaiPay's ${product.makes} under this ${product.ownIdName} is in ${gatewayText(currency)}, not ${asked.currencies.join(' or ')}: another request made it, and this one created nothing`,
		};
	return undefined;
}

/** The state the answer's status means, by the product's allow-list, or why it means none HaiPay publishes. */
function stateJudgement(product: Product, data: IDataObject): Judgement {
	const second = Object.keys(data).find((key) => key !== 'status' && STATUS_MEMBER.test(key) && !blank(data[key]));
	if (second !== undefined)
		return {
			verdict: 'unknown',
			why: `it carries ${second} ${said(data[second])}, a status HaiPay publishes for no answer`,
		};
	if (blank(data.status)) return { verdict: 'this', state: 'none' };
	if (product.statuses === undefined) return { verdict: 'this', state: 'unpublished' };
	const text = statusText(data.status);
	const state = text === undefined ? undefined : product.statuses[text];
	if (state === undefined)
		return {
			verdict: 'this',
			state: 'unlisted',
			why: `its status ${said(data.status)} is not one HaiPay publishes for ${a(product.makes)}`,
		};
	return { verdict: 'this', state };
}

/** What one signed answer says of a request: its own thing and where it stands, another request's, or unknown. */
export function judge(product: Product, data: IDataObject, asked: Asked): Judgement {
	const doubt = nameDoubt(product, data, asked);
	if (doubt !== undefined) return { verdict: 'unknown', why: doubt };
	return contentJudgement(product, data, asked) ?? stateJudgement(product, data);
}

/** Whether a message member says success: empty, "success" in any case, or HaiPay's success code. */
function quiet(value: unknown): boolean {
	if (blank(value)) return true;
	const text = exactText(value);
	return /^success$/i.test(text) || text === SUCCESS_CODE;
}

/** Why the answer's messages and other texts keep it from being an acceptance, or undefined. */
function textDoubt(product: Product, data: IDataObject): string | undefined {
	const own = new Set([product.ownMember, product.identifier, product.paymentMember, 'status', 'sign']);
	for (const [key, value] of Object.entries(data)) {
		if (own.has(key)) continue;
		if (MESSAGE_MEMBER.test(key) && !quiet(value)) return `its ${key} ${said(value)} is not HaiPay's "success"`;
		if (typeof value === 'string' && !LINK.test(value) && saysFailure(value))
			return `its ${key} ${said(value)} says something failed`;
	}
	return undefined;
}

/**
 * Why a create's answer is not HaiPay's acceptance of this request, or undefined when it is. An acceptance is the
 * judge's "this request's" (its ID, HaiPay's number, its amount, currency and payment) in a status the product
 * publishes as taken, or with none, and no message but success: anything else is settled by the product's query.
 */
export function whyNotAccepted(product: Product, answer: Answer, asked: Asked): string | undefined {
	if (answer.type !== 'data') return 'HaiPay answered success without a data object';
	const data: IDataObject = answer.data;
	const judged = judge(product, data, asked);
	if (judged.verdict !== 'this') return judged.why;
	if (judged.state === 'unlisted') return judged.why;
	const status = statusText(data.status);
	if (judged.state !== 'none' && (status === undefined || !product.acceptable.includes(status)))
		return `its status ${said(data.status)} is not one HaiPay publishes for ${a(product.makes)} it has taken`;
	if (product.shows !== undefined && !product.shows(data))
		return `it does not show the ${product.makes} made (status ${said(data.status)})`;
	return textDoubt(product, data);
}
