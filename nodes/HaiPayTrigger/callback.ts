import { exactNumberStatus, exactStatus } from '../shared/contract/statuses';
import { exactText, trimmedText } from '../shared/text';
import { canonicalFields } from '../shared/signing/canonical';
import type { BodyProblem, ExactBody, ReadResult } from '../shared/callback/body';
import { repeatKeys, type RepeatKeys } from './keys';

/*
 * One callback as the trigger's steps use it, read and parsed once per request: the exact text, the members as
 * signed (for the signature) and as output (for the item), the order and its status, and the repeat keys. Every
 * later step takes what it needs from here; nothing in it is derived a second time.
 */

/** What identifies the order and its state, as signed. */
export interface OrderFacts {
	orderId?: string;
	orderNo?: string;
	/** The status as an integer, when it states one (contract/statuses.ts); read once, here. */
	status?: number;
	currency?: string;
	/** A refund-shaped callback's refund number (HaiPay documents no refund callback; filters.ts). */
	refundNo?: string;
	/** A refund's status as received: refund status values are not published, and may be words. */
	statusText?: string;
}

export interface Callback {
	/** The exact text received, with its members. */
	body: ExactBody;
	/** The members as HaiPay signed them: a number as the digits received, so nothing is lost or rounded. */
	signed: Record<string, unknown>;
	/**
	 * The members as they go into the output item. Numbers keep their exact value (as digits when a JavaScript number
	 * would change them), `status` is an integer when it states one, and a field that took no part in the signature
	 * (empty or null) is emitted as "" unless its name is one every object inherits, which is left out.
	 */
	output: Record<string, unknown>;
	order: OrderFacts;
	keys: RepeatKeys;
}

export type Received = { ok: true; callback: Callback } | { ok: false; problem: BodyProblem; log: string };

/** Names every plain object inherits (`constructor`, `toString`, `__proto__`, ...). */
export function isPrototypeName(name: string): boolean {
	return Object.prototype.hasOwnProperty.call(Object.prototype, name);
}

/** A value that takes no part in the signature: the signed string leaves empty and null fields out (signing/canonical.ts). */
export function isUnsigned(value: unknown): boolean {
	return value === null || value === undefined || value === '';
}

/** `name` as an own member: a name every object inherits is defined, never assigned (`__proto__` would set the prototype). */
function put(target: Record<string, unknown>, name: string, value: unknown): void {
	if (isPrototypeName(name))
		Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
	else target[name] = value;
}

/** A number as JavaScript can hold it exactly, otherwise its digits as a string. */
function numberOut(text: string): number | string {
	const value = Number(text);
	return Number.isFinite(value) && String(value) === text ? value : text;
}

/** An ID or status as HaiPay signed it, undefined when absent: " X " names another order than "X" (shared/text.ts). */
function signedText(value: unknown): string | undefined {
	const text = exactText(value);
	return text === '' ? undefined : text;
}

/** The members as HaiPay signed them: all the signature check needs. */
function signedOf(body: ExactBody): Record<string, unknown> {
	const signed: Record<string, unknown> = {};
	for (const member of body.members) put(signed, member.name, member.numberText ?? member.value);
	return signed;
}

/**
 * The item's view of the members, the order and the repeat keys, in one pass. The status is read once: a JSON number
 * by its exact value (`2.0` and `2e0` are 2), a string only when it is plain digits (`"2"`; `" 2 "` and `"2.0"` state
 * none, see exactStatus).
 */
function readOf(body: ExactBody, signed: Record<string, unknown>): Pick<Callback, 'output' | 'order' | 'keys'> {
	const output: Record<string, unknown> = {};
	let status: number | undefined;
	for (const member of body.members) {
		if (member.name === 'sign') continue;
		if (isUnsigned(member.value)) {
			if (!isPrototypeName(member.name)) put(output, member.name, '');
			continue;
		}
		let value = member.numberText !== undefined ? numberOut(member.numberText) : member.value;
		if (member.name === 'status') {
			status = member.numberText !== undefined ? exactNumberStatus(member.numberText) : exactStatus(member.value);
			value = status ?? value;
		}
		put(output, member.name, value);
	}
	const order: OrderFacts = {
		orderId: signedText(signed.orderId),
		orderNo: signedText(signed.orderNo),
		status,
		// The currency only picks the query's path among known ones, and a code that is not one is refused there.
		currency: trimmedText(signed.currency).toUpperCase() || undefined,
	};
	const refundNo = signedText(signed.refundNo);
	if (refundNo !== undefined) Object.assign(order, { refundNo, statusText: signedText(signed.status) });
	// Only a result keyed on its amount and payTime reads the signed text, once it is known to need it.
	return { output, order, keys: repeatKeys(output, status, () => canonicalFields(signed)) };
}

/**
 * The signed members now, the rest when first used: the signature is checked on `signed` alone, so a forged body
 * never pays for the item's view of its members, nor for its order and keys.
 */
class ParsedCallback implements Callback {
	readonly signed: Record<string, unknown>;
	private read?: Pick<Callback, 'output' | 'order' | 'keys'>;

	constructor(readonly body: ExactBody) {
		this.signed = signedOf(body);
	}

	private get later(): Pick<Callback, 'output' | 'order' | 'keys'> {
		return (this.read ??= readOf(this.body, this.signed));
	}

	get output(): Record<string, unknown> {
		return this.later.output;
	}

	get order(): OrderFacts {
		return this.later.order;
	}

	get keys(): RepeatKeys {
		return this.later.keys;
	}
}

/** The callback of a body read as exactly the text received (shared/callback/body.ts), or why it could not be read. */
export function parseCallback(read: ReadResult): Received {
	return read.ok ? { ok: true, callback: new ParsedCallback(read.body) } : read;
}
