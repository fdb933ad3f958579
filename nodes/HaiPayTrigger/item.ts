import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

import { TOKEN_FIELDS } from '../shared/contract/callback';
import { statusGroup, statusLabel } from '../shared/contract/statuses';
import { redactedText } from './body';
import { isPrototypeName, type Callback } from './callback';
import type { OutputKind } from './filters';
import type { TriggerOptions } from './options';

/** What the steps before found out about an accepted callback. */
export interface Emission {
	kind: OutputKind;
	/** HaiPay's signed query answer, when Confirm With HaiPay confirmed the callback. */
	confirmed?: IDataObject;
	/** Whether the callback's own fields cannot be told apart (ambiguity.ts): then the answer's stand in for them. */
	split: boolean;
}

/** Fields the node itself puts on an item; no answer's field takes their place. */
const NODE_FIELDS = new Set(['statusLabel', 'statusGroup', 'kind', 'verified', 'confirmed', 'rawBody']);

function tokenOf(body: Record<string, unknown>): unknown {
	for (const name of TOKEN_FIELDS) {
		const value = body[name];
		if (typeof value === 'string' && value.trim() !== '') return value;
	}
	return null;
}

/** The output item of an accepted callback: its fields as output, and what the node adds. */
export function emittedItem(callback: Callback, options: Pick<TriggerOptions, 'verifySignature' | 'includeRawBody'>, how: Emission): IDataObject {
	const { output, order } = callback;
	const item: IDataObject = { ...(output as IDataObject) };
	const token = tokenOf(output);
	if (how.kind !== 'payout' || token !== null) item.tokenID = token as IDataObject[string];
	item.statusLabel = statusLabel(order.status, how.kind === 'unknown' ? undefined : how.kind) ?? null;
	item.statusGroup = statusGroup(order.status);
	item.kind = how.kind;
	item.verified = options.verifySignature;
	item.dedupKey = callback.keys.dedupKey ?? `body:${createHash('sha256').update(callback.body.text).digest('hex').slice(0, 16)}`;
	if (options.includeRawBody) item.rawBody = redactedText(callback.body);
	if (how.confirmed === undefined) return item;
	if (how.split) {
		// An ambiguous callback's own fields cannot be told apart: every field HaiPay's signed query answer has stands in.
		for (const name of Object.keys(how.confirmed)) {
			if (name === 'sign' || isPrototypeName(name) || NODE_FIELDS.has(name)) continue;
			// An answer confirms a callback only when it states the callback's status (confirm.ts): that integer.
			item[name] = name === 'status' ? order.status : how.confirmed[name];
		}
	}
	item.confirmed = true;
	return item;
}
