import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { CALLBACK_FIELDS, IDENTIFYING_FIELDS, TOKEN_FIELDS } from '../shared/contract/callback';
import { appsLacking } from '../shared/signing/apps';
import { signerOfAppId, type HaiPaySettings } from '../shared/signing/settings';
import { exactNumberStatus, exactStatus, statusGroup, statusLabel } from '../shared/contract/statuses';
import { KeyFormatError } from '../shared/signing/keys';
import { ambiguityOf, type Ambiguity } from '../shared/signing/canonical';
import { verifySigned } from '../shared/signing/verification';
import { redactedText, type ExactBody, type ReadResult } from './body';
import { dedupKey } from './dedup';
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
	| {
			action: 'emit';
			item: IDataObject;
			order: OrderFacts;
			/** The credential seen through the callback's own App ID: its queries are signed with that App ID's secret. */
			signer: HaiPaySettings;
			ambiguity?: AmbiguousField;
			unlisted?: string;
	  };

/** What identifies the order and its state, as signed. */
export interface OrderFacts {
	orderId?: string;
	orderNo?: string;
	/** The status as an integer, when it is one. */
	status?: number;
	/** The status as received, for a refund, whose status values are not published and may be words. */
	statusText?: string;
	/** A refund-shaped callback's refund number. */
	refundNo?: string;
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

/**
 * A status as the integer it states: a JSON number by its exact value (`2.0` and `2e0` are 2), a string only when
 * it is plain digits (`"2"`; `" 2 "` and `"2.0"` state none, see exactStatus). Anything else stays as it came.
 */
export function integerStatus(value: unknown, numberText?: string): unknown {
	const exact = numberText !== undefined ? exactNumberStatus(numberText) : exactStatus(value);
	return exact ?? value;
}

/**
 * The members as they go into the output item. Numbers keep their exact value (as digits when a JavaScript number
 * would change them), `status` is an integer when it states one, and a field that took no part in the signature
 * (empty or null) is emitted as "" unless its name is one every object inherits, which is left out.
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
		if (member.name === 'status') value = integerStatus(value, member.numberText);
		define(view, member.name, value);
	}
	return view;
}

const IDENTIFYING = new Set<string>(IDENTIFYING_FIELDS);
const LISTED = new Set<string>(CALLBACK_FIELDS);

/** The first signed member whose name no callback is known to carry (exact, case-sensitive), or undefined. */
function unlistedField(signed: Record<string, unknown>): string | undefined {
	return Object.keys(signed).find((name) => !LISTED.has(name) && !isUnsigned(signed[name]));
}

function textOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

function tokenOf(body: Record<string, unknown>): unknown {
	for (const name of TOKEN_FIELDS) {
		const value = body[name];
		if (typeof value === 'string' && value.trim() !== '') return value;
	}
	return null;
}

type Rejection = Extract<Assessment, { action: 'reject' }>;

function rejection(reason: RejectReason, log: string): Rejection {
	return { action: 'reject', reason, log };
}

/**
 * The credential seen through the App ID the callback names, or why the callback cannot be about any of the
 * credential's App IDs. A credential with several currencies receives each one's callbacks, each checked with its
 * own App ID's secret.
 */
function signerOfCallback(signed: Record<string, unknown>, settings: HaiPaySettings): HaiPaySettings | Rejection {
	if (!Number.isSafeInteger(settings.appId) || settings.appId <= 0) {
		return rejection('noAppIdInCredential', 'the HaiPay credential has no App ID to compare the callback with');
	}
	const incomplete = appsLacking(settings.apps);
	if (incomplete !== undefined) return rejection('noAppIdInCredential', `the HaiPay credential is incomplete: ${incomplete}`);
	const signer = signerOfAppId(settings, signed.appId);
	if (signer !== undefined) return signer;
	const held = settings.apps.map((app) => app.appId).join(', ');
	return rejection('appIdMismatch', `the callback's appId is not the credential's App ID ${held}`);
}

/** Why the callback's signature does not prove HaiPay sent it, or undefined when it does. */
async function signatureRefusal(signed: Record<string, unknown>, settings: HaiPaySettings): Promise<Rejection | undefined> {
	if (settings.haipayPublicKey === '') {
		return rejection(
			'noPublicKey',
			'the HaiPay credential has no HaiPay public key, so the signature cannot be checked; add the platform public key from the merchant backend to the credential',
		);
	}
	let outcome;
	try {
		outcome = await verifySigned(signed, settings);
	} catch (error) {
		// Only key parsing can fail here; its message names the formats tried, never the key text.
		const why = error instanceof KeyFormatError ? ` (${error.message})` : '';
		return rejection('unreadablePublicKey', `the HaiPay public key in the credential could not be read${why}`);
	}
	if (outcome === 'verified') return undefined;
	const hint = settings.secretKey === '' ? ' (the credential has no secret key)' : '';
	const missing = typeof signed.sign !== 'string' || signed.sign === '' ? 'the signature is missing' : 'the signature does not match';
	return rejection('badSignature', `${missing}${hint}`);
}

/** The output item of an accepted callback, the facts that identify its order, and any ambiguity in what was signed. */
function emitted(body: ExactBody, signed: Record<string, unknown>, verified: boolean, settings: HaiPaySettings, options: TriggerOptions): Assessment {
	const view = outputView(body);
	const filteredOut = filteredOutBy(view, options, settings.currency);
	if (filteredOut !== undefined) return { action: 'acknowledge', log: filteredOut };

	const kind = kindOf(view, options.kind);
	const refund = kind === 'refund';
	const item: IDataObject = { ...(view as IDataObject) };
	if ((kind !== 'payout' && !refund) || tokenOf(view) !== null) item.tokenID = tokenOf(view) as IDataObject[string];
	// A refund's status values are not published (docs/haipay-facts.md): no label, no group, whatever it holds.
	item.statusLabel = refund ? null : (statusLabel(view.status, kind === 'unknown' ? undefined : kind) ?? null);
	item.statusGroup = refund ? 'unknown' : statusGroup(view.status);
	item.kind = kind;
	item.verified = verified;
	item.dedupKey = dedupKey(view) ?? `body:${createHash('sha256').update(body.text).digest('hex').slice(0, 16)}`;
	if (options.includeRawBody) item.rawBody = redactedText(body);

	const order: OrderFacts = {
		orderId: textOf(signed.orderId),
		orderNo: textOf(signed.orderNo),
		status: exactStatus(view.status),
		currency: textOf(signed.currency)?.toUpperCase(),
		kind,
		...(refund ? { refundNo: textOf(signed.refundNo), statusText: textOf(signed.status) } : {}),
	};
	const found = verified ? ambiguityOf(signed, { arrayStyle: settings.arrayStyle }) : undefined;
	const ambiguity = found === undefined ? undefined : { ...found, identifying: IDENTIFYING.has(found.field) || found.part === 'name' };
	const unlisted = verified ? unlistedField(signed) : undefined;
	return { action: 'emit', item, order, signer: settings, ...(ambiguity !== undefined ? { ambiguity } : {}), ...(unlisted !== undefined ? { unlisted } : {}) };
}

/**
 * Decides what happens to one received callback: refused, acknowledged without a run, or emitted. Free of n8n, so
 * that every branch is testable on its own; repeats, regressions and confirmation are decided by the caller, which
 * owns the state and the network. The body's size and field count were checked when it was read, before this.
 */
export async function assess(received: ReadResult, settings: HaiPaySettings, options: TriggerOptions): Promise<Assessment> {
	if (!received.ok) return rejection(received.problem, received.log);
	if (received.body.members.length === 0) return rejection('notJson', 'the body is not a JSON object');
	const signed = signedView(received.body);
	const signer = signerOfCallback(signed, settings);
	if ('action' in signer) return signer;
	const refused = options.verifySignature ? await signatureRefusal(signed, signer) : undefined;
	if (refused !== undefined) return refused;
	return emitted(received.body, signed, options.verifySignature, signer, options);
}
