import type { IDataObject } from 'n8n-workflow';

import type { HaiPaySettings } from '../HaiPay/transport/settings';
import { statusGroup, statusLabel } from '../HaiPay/transport/status';
import { KeyFormatError } from '../HaiPay/transport/keys';
import { ambiguityOf, type Ambiguity } from '../HaiPay/transport/canonical';
import { verifySigned } from '../HaiPay/transport/verification';
import { redactedText, type ExactBody, type ReadResult } from './body';
import { filteredOutBy, kindOf, type OutputKind, type TriggerFilters } from './filters';

/** Why a callback was refused. Each one starts no execution, and HaiPay, which reads no SUCCESS, sends it again. */
export type RejectReason =
	| 'notJson'
	| 'tooLarge'
	| 'tooManyFields'
	| 'duplicateField'
	| 'appIdMismatch'
	| 'noAppIdInCredential'
	| 'noPublicKey'
	| 'unreadablePublicKey'
	| 'badSignature';

/** A verified callback whose string to sign could be read as another set of fields. */
export interface AmbiguousField extends Ambiguity {
	/** Whether the field names or states the order (orderId, orderNo, status, appId, currency). */
	identifying: boolean;
}

export type Assessment =
	| { action: 'reject'; reason: RejectReason; log: string }
	| { action: 'acknowledge'; log: string }
	| { action: 'emit'; item: IDataObject; order: OrderFacts; ambiguity?: AmbiguousField };

/** What identifies the order and its state, as signed. */
export interface OrderFacts {
	orderId?: string;
	orderNo?: string;
	/** The status as an integer, when it is one. */
	status?: number;
	currency?: string;
	kind: OutputKind;
}

export interface TriggerOptions extends TriggerFilters {
	verifySignature: boolean;
	includeRawBody: boolean;
}

/** What the caller of the URL is told: enough to debug a misconfiguration, nothing about the keys. */
export const REJECTION_TEXT: Record<RejectReason, string> = {
	notJson: 'Rejected: the body is not a JSON object',
	tooLarge: 'Rejected: the body is too large',
	tooManyFields: 'Rejected: the body has too many fields',
	duplicateField: 'Rejected: a field appears more than once',
	appIdMismatch: 'Rejected: appId does not match',
	noAppIdInCredential: 'Rejected: callback cannot be checked',
	noPublicKey: 'Rejected: callback cannot be checked',
	unreadablePublicKey: 'Rejected: callback cannot be checked',
	badSignature: 'Rejected: signature is not valid',
};

/** The HTTP status of each refusal: 413 for a body refused by size before it is read, 401 otherwise. */
export const REJECTION_STATUS: Record<RejectReason, number> = {
	notJson: 401,
	tooLarge: 413,
	tooManyFields: 413,
	duplicateField: 401,
	appIdMismatch: 401,
	noAppIdInCredential: 401,
	noPublicKey: 401,
	unreadablePublicKey: 401,
	badSignature: 401,
};

/** Names every plain object inherits (`constructor`, `toString`, `__proto__`, ...). */
export function isPrototypeName(name: string): boolean {
	return Object.prototype.hasOwnProperty.call(Object.prototype, name);
}

function isUnsigned(value: unknown): boolean {
	return value === null || value === undefined || value === '';
}

function define(target: Record<string, unknown>, name: string, value: unknown): void {
	Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** The members as HaiPay signed them: a number as the digits received, so nothing is lost or rounded. */
export function signedView(body: ExactBody): Record<string, unknown> {
	const view: Record<string, unknown> = {};
	for (const member of body.members) define(view, member.name, member.numberText ?? member.value);
	return view;
}

/** A number as JavaScript can hold it exactly, otherwise its digits as a string. */
function numberOut(text: string): number | string {
	const value = Number(text);
	return Number.isFinite(value) && String(value) === text ? value : text;
}

/** An integer status, from a number or a string of digits; anything else as it came. */
export function integerStatus(value: unknown): unknown {
	const text = typeof value === 'string' ? value.trim() : undefined;
	if (text !== undefined && /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
	return value;
}

/**
 * The members as they go into the output item. Numbers keep their exact value (as digits when a JavaScript number
 * would change them), `status` is an integer, and a field that took no part in the signature (empty or null) is
 * emitted as "" unless its name is one every object inherits, which is left out.
 */
export function outputView(body: ExactBody): Record<string, unknown> {
	const view: Record<string, unknown> = {};
	for (const member of body.members) {
		if (member.name === 'sign') continue;
		if (isUnsigned(member.value)) {
			if (!isPrototypeName(member.name)) define(view, member.name, '');
			continue;
		}
		let value = member.numberText !== undefined ? numberOut(member.numberText) : member.value;
		if (member.name === 'status') value = integerStatus(value);
		define(view, member.name, value);
	}
	return view;
}

const IDENTIFYING = new Set(['orderId', 'orderNo', 'status', 'appId', 'currency']);

function textOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

function sameAppId(received: unknown, expected: number): boolean {
	if (typeof received === 'number') return received === expected;
	if (typeof received === 'string' && /^\s*\d+\s*$/.test(received)) return Number(received) === expected;
	return false;
}

function tokenOf(body: Record<string, unknown>): unknown {
	for (const name of ['tokenID', 'tokenId', 'tokenid', 'token_id']) {
		const value = body[name];
		if (typeof value === 'string' && value.trim() !== '') return value;
	}
	return null;
}

/**
 * Decides what happens to one received callback: refused, acknowledged without a run, or emitted. Pure, so that
 * every branch is testable without n8n; repeats, regressions and confirmation are decided by the caller, which
 * owns the state and the network. The body's size and field count were checked when it was read, before this.
 */
export function assess(received: ReadResult, settings: HaiPaySettings, options: TriggerOptions): Assessment {
	if (!received.ok) return { action: 'reject', reason: received.problem, log: received.log };
	if (received.body.members.length === 0) {
		return { action: 'reject', reason: 'notJson', log: 'the body is not a JSON object' };
	}
	const signed = signedView(received.body);
	if (!Number.isSafeInteger(settings.appId) || settings.appId <= 0) {
		return {
			action: 'reject',
			reason: 'noAppIdInCredential',
			log: 'the HaiPay credential has no App ID to compare the callback with',
		};
	}
	if (!sameAppId(signed.appId, settings.appId)) {
		return {
			action: 'reject',
			reason: 'appIdMismatch',
			log: `the callback's appId is not the credential's App ID ${settings.appId}`,
		};
	}

	let verified = false;
	if (options.verifySignature) {
		if (settings.haipayPublicKey === '') {
			return {
				action: 'reject',
				reason: 'noPublicKey',
				log: 'the HaiPay credential has no HaiPay public key, so the signature cannot be checked; add the platform public key from the merchant backend to the credential',
			};
		}
		let outcome;
		try {
			outcome = verifySigned(signed, settings);
		} catch (error) {
			// Only key parsing can fail here; its message names the formats tried, never the key text.
			const why = error instanceof KeyFormatError ? ` (${error.message})` : '';
			return {
				action: 'reject',
				reason: 'unreadablePublicKey',
				log: `the HaiPay public key in the credential could not be read${why}`,
			};
		}
		if (outcome !== 'verified') {
			const hint = settings.secretKey === '' ? ' (the credential has no secret key)' : '';
			const missing = typeof signed.sign !== 'string' || signed.sign === '' ? 'the signature is missing' : 'the signature does not match';
			return { action: 'reject', reason: 'badSignature', log: `${missing}${hint}` };
		}
		verified = true;
	}

	const body = outputView(received.body);
	const filteredOut = filteredOutBy(body, options, settings.currency);
	if (filteredOut !== undefined) return { action: 'acknowledge', log: filteredOut };

	const kind = kindOf(body, options.kind);
	const item: IDataObject = { ...(body as IDataObject) };
	if (kind !== 'payout' || tokenOf(body) !== null) item.tokenID = tokenOf(body) as IDataObject[string];
	item.statusLabel = statusLabel(body.status, kind === 'unknown' ? undefined : kind) ?? null;
	item.statusGroup = statusGroup(body.status);
	item.kind = kind;
	item.verified = verified;
	if (options.includeRawBody) item.rawBody = redactedText(received.body);

	const status = integerStatus(body.status);
	const order: OrderFacts = {
		orderId: textOf(signed.orderId),
		orderNo: textOf(signed.orderNo),
		status: typeof status === 'number' && Number.isSafeInteger(status) ? status : undefined,
		currency: textOf(signed.currency)?.toUpperCase(),
		kind,
	};
	const found = verified ? ambiguityOf(signed, { arrayStyle: settings.arrayStyle }) : undefined;
	const ambiguity = found === undefined ? undefined : { ...found, identifying: IDENTIFYING.has(found.field) || found.part === 'name' };
	return { action: 'emit', item, order, ...(ambiguity !== undefined ? { ambiguity } : {}) };
}
