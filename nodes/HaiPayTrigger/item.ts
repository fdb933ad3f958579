import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { TOKEN_FIELDS } from '../shared/contract/callback';
import { redactText, redactValue } from '../shared/gateway/redact';
import { statusGroup, statusLabel } from '../shared/contract/statuses';
import { redactedText } from '../shared/callback/body';
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
	'rawBody',
	'dedupKey',
	'ambiguousText',
	'unknownFields',
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
	// Refund and subscription status values are not published (docs/haipay-facts.md): no label, no group.
	const refund = how.kind === 'refund' || how.kind === 'subscription';
	if ((how.kind !== 'payout' && !refund) || token !== null) item.tokenID = token as IDataObject[string];
	const labelKind = how.kind === 'payout' || how.kind === 'collection' ? how.kind : undefined;
	item.statusLabel = refund ? null : (statusLabel(order.status, labelKind) ?? null);
	item.statusGroup = refund ? 'unknown' : statusGroup(order.status);
	item.kind = how.kind;
	item.verified = options.verifySignature;
	item.dedupKey =
		callback.keys.dedupKey ?? `body:${createHash('sha256').update(callback.body.text).digest('hex').slice(0, 16)}`;
	item.ambiguousText = [...how.fields.ambiguousText];
	item.unknownFields = how.fields.unknownFields.map((name) => redactText(name, how.secrets));
	if (options.includeRawBody) item.rawBody = redactText(redactedText(callback.body), how.secrets);
	if (how.confirmed === undefined) return item;
	if (how.split) {
		// An ambiguous callback's own fields cannot be told apart: every field HaiPay's signed query answer has stands in.
		for (const name of Object.keys(how.confirmed)) {
			if (name === 'sign' || isPrototypeName(name) || NODE_FIELDS.has(name)) continue;
			// An answer confirms a callback only when it states the callback's status (confirm.ts): that integer, or a
			// refund's status as HaiPay wrote it.
			item[name] =
				name === 'status' && !refund
					? order.status
					: (redactValue(how.confirmed[name], how.secrets) as IDataObject[string]);
		}
	}
	item.confirmed = true;
	return item;
}
