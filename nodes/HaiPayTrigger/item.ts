import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { DECIDING_FIELDS, TOKEN_FIELDS } from '../shared/contract/callback';
import { isUnsigned } from './callback';
import { redactValue } from '../shared/gateway/redact';
import { statusGroup, statusLabel } from '../shared/contract/statuses';
import { redactedText } from '../shared/callback/body';
import { zonedIso } from '../shared/contract/payTime';
import { DEPOSIT_PAY_TIME_ZONE, isDepositCallback } from '../shared/products/fixedAddress';
import { namedProductOfKind } from '../shared/products';
import type { FieldsCheck } from './ambiguity';
import { isPrototypeName, type Callback } from './callback';
import type { CallbackKind } from './filters';
import type { TriggerOptions } from './triggerOptions';

/** What the steps before found out about an accepted callback. */
interface Emission {
	kind: CallbackKind;
	/** HaiPay's signed query answer, when Confirm With HaiPay confirmed the callback. */
	confirmed?: IDataObject;
	/** Whether the callback's own fields cannot be told apart (ambiguity.ts): then the answer's stand in for them. */
	split: boolean;
	/**
	 * Whether a deciding field is in doubt (ambiguity.ts `settle`): then a deciding field HaiPay's confirming answer
	 * does not carry is dropped from the item (a card token: null), never kept under `confirmed: true`.
	 */
	doubt?: boolean;
	/** The repeat key HaiPay's answer proves (memory.ts `provenKeys`), in place of the callback's own. */
	dedupKey?: string;
	/** What ambiguity.ts found of its fields: named on the item. */
	fields: Pick<FieldsCheck, 'ambiguousText' | 'unknownFields'>;
	/** Every secret key of the credential: none reaches the item, whatever a callback echoes. */
	secrets: readonly string[];
}

/** Fields the node itself puts on an item; no answer's field takes their place. */
const NODE_FIELDS = new Set([
	'statusLabel',
	'statusGroup',
	'kind',
	'verified',
	'confirmed',
	'unconfirmedWhy',
	'rawBody',
	'dedupKey',
	'ambiguousText',
	'unknownFields',
	'unproven',
	'payTimeIso',
]);

function tokenOf(body: Record<string, unknown>): unknown {
	for (const name of TOKEN_FIELDS) {
		const value = body[name];
		if (typeof value === 'string' && value.trim() !== '') return value;
	}
	return null;
}

/** The output item of an accepted callback: its fields as output, and what the node adds. */
export function emittedItem(
	callback: Callback,
	options: Pick<TriggerOptions, 'verifySignature' | 'includeRawBody'>,
	how: Emission,
): IDataObject {
	const { output, order } = callback;
	// Verification ran on the text as received; what the workflow sees holds no secret of the credential.
	const item = redactValue(output, how.secrets) as IDataObject;
	const token = tokenOf(output);
	const named = namedProductOfKind(how.kind);
	const refund = how.kind === 'refund' || named !== undefined;
	if ((how.kind !== 'payout' && !refund) || token !== null) item.tokenID = token as IDataObject[string];
	// Refund status values are not published (docs/haipay-facts.md): no label, no group. A product a callback names
	// by its own member (a subscription's charge, a card collection) reads its status as its orderKind's.
	const labelKind = named?.orderKind ?? how.kind;
	const refunded = how.kind === 'refund';
	item.statusLabel = refunded
		? null
		: (statusLabel(order.status, labelKind === 'payout' || labelKind === 'collection' ? labelKind : undefined) ?? null);
	item.statusGroup = refunded ? 'unknown' : statusGroup(order.status);
	item.kind = how.kind;
	item.verified = options.verifySignature;
	item.dedupKey =
		how.dedupKey ??
		callback.keys.dedupKey ??
		`body:${createHash('sha256').update(callback.body.text).digest('hex').slice(0, 16)}`;
	item.ambiguousText = [...how.fields.ambiguousText];
	item.unknownFields = [...how.fields.unknownFields];
	if (options.includeRawBody) item.rawBody = redactedText(callback.body);
	if (how.confirmed !== undefined) confirmedFields(item, how.confirmed, { ...how, refund, status: order.status });
	payTimeWithOffset(item, output, how.kind);
	// Every text the node derives from the body is redacted as the body's own fields are.
	for (const name of ['dedupKey', 'ambiguousText', 'unknownFields', 'rawBody'])
		if (item[name] !== undefined) item[name] = redactValue(item[name], how.secrets) as IDataObject[string];
	return item;
}

/**
 * `payTimeIso`, the callback's payTime as ISO 8601 with its offset, only where HaiPay names its zone (a deposit to a
 * fixed address: New York time) and the item still shows the callback's own payTime. The name is the node's: a body
 * field of that name is not shown under it (unknownFields and rawBody still name it).
 */
function payTimeWithOffset(item: IDataObject, output: Record<string, unknown>, kind: CallbackKind): void {
	const known = kind === 'collection' && isDepositCallback(output) && item.payTime === output.payTime;
	const iso = known ? zonedIso(output.payTime, DEPOSIT_PAY_TIME_ZONE) : undefined;
	if (iso !== undefined) item.payTimeIso = iso;
	else delete item.payTimeIso;
}

/** Fields no answer decides: the App ID is proven by its own secret, with which the signature verified. */
const PROVEN_BY_SIGNATURE = new Set(['appId']);

/** HaiPay's signed answer in place of the fields in doubt, and `confirmed: true`. */
function confirmedFields(
	item: IDataObject,
	answer: IDataObject,
	how: Emission & { refund: boolean; status: number | undefined },
): void {
	if (how.split) {
		// An ambiguous callback's own fields cannot be told apart: every field HaiPay's signed query answer has stands in.
		for (const name of Object.keys(answer)) {
			if (name === 'sign' || isPrototypeName(name) || NODE_FIELDS.has(name)) continue;
			// An answer confirms a callback only when it states the callback's status (confirm.ts): that integer, or a
			// refund's status as HaiPay wrote it.
			item[name] =
				name === 'status' && !how.refund ? how.status : (redactValue(answer[name], how.secrets) as IDataObject[string]);
		}
	}
	// A deciding field in doubt that the answer does not carry is HaiPay's word only in some reading: not on the item.
	if (how.doubt === true)
		for (const name of DECIDING_FIELDS) {
			const carried = Object.prototype.hasOwnProperty.call(answer, name) && !isUnsigned(answer[name]);
			if (carried || PROVEN_BY_SIGNATURE.has(name) || !(name in item)) continue;
			if ((TOKEN_FIELDS as readonly string[]).includes(name)) item[name] = null;
			else delete item[name];
		}
	item.confirmed = true;
}

/**
 * Confirm With HaiPay on, for a verified callback no published query can confirm (a subscription charge; a cashier
 * result without the orderNo its query needs): it runs, since a 503 until HaiPay gives up would lose a result HaiPay
 * signed, flagged `confirmed: false` with why. HaiPay's callbacks carry no time or nonce, so a body replayed after the
 * Repeat Window has passed cannot be told from a new result by anything but a query: the item says so, and a workflow
 * that must act once claims `dedupKey` (docs/queue-mode.md, "Exactly once across webhook processors").
 */
export function markUnconfirmed(item: IDataObject, why: string | undefined): void {
	item.confirmed = false;
	item.unconfirmedWhy = `${why ?? 'HaiPay publishes no query that confirms it'}. Its signature is HaiPay's, but a body sent again after the Repeat Window would look the same: to act once, claim dedupKey.`;
}

/**
 * A callback no query can settle whose deciding fields are in doubt (HaiPayTrigger.node.ts): each is left off the
 * item (a card token: null) and named in `unproven`, since some reading of the same signature gives it another value
 * or none; `confirmed: false` says why whatever Confirm With HaiPay says.
 */
export function markUnproven(item: IDataObject, names: string[], why: string | undefined): void {
	for (const name of names) {
		if ((TOKEN_FIELDS as readonly string[]).includes(name)) item.tokenID = null;
		if (name !== 'tokenID') delete item[name];
	}
	item.unproven = [...names];
	markUnconfirmed(
		item,
		`${why ?? 'HaiPay publishes no query that confirms it'}; the signed text could also be read with other ${names.join(', ')}, so the item leaves them out (unproven)`,
	);
}
