import type { HaiPaySettings } from '../shared/signing/credential';
import { canonicalFields } from '../shared/signing/canonical';
import type { FieldsCheck } from './ambiguity';
import type { Callback } from './callback';
import { neverAskableWhy } from './confirm';
import type { CallbackKind } from './filters';
import { unprovenKeys, type RepeatKeys } from './keys';

/** How a verified callback's doubt is settled (HaiPayTrigger.node.ts). */
interface Settling {
	/** Deciding fields in doubt that the item leaves out and names (item.ts `markUnproven`): nothing can settle them. */
	unproven?: string[];
	/** Why HaiPay's query must settle a doubt first (ambiguity.ts `settle`), or undefined. */
	settle?: string;
	/** Why no reading could be asked about, or undefined. */
	neverAskable?: string;
	/** The callback's repeat keys, without any field in doubt. */
	ownKeys: RepeatKeys;
}

/**
 * A deciding field in doubt is settled by HaiPay's query whatever Confirm With HaiPay says: refusing it could lose a
 * result, and once HaiPay confirms, its answer stands in for the fields in doubt (item.ts). What no query can settle
 * in any reading runs without its fields in doubt, keyed without them so that every re-split of one signed text is
 * one result: held, it would get 503 until HaiPay gave up (a declined subscription charge, whose orderNo could end its
 * errorMsg). A carried field or one naming the product in doubt is still held (ambiguity.ts `droppable`).
 */
export function settling(
	callback: Callback,
	fields: Pick<FieldsCheck, 'settle' | 'droppable'>,
	kind: CallbackKind,
	signer: HaiPaySettings,
): Settling {
	const neverAskable = neverAskableWhy(kind, callback.order, signer);
	const unproven = fields.settle !== undefined && neverAskable !== undefined ? fields.droppable : undefined;
	if (unproven === undefined) return { settle: fields.settle, neverAskable, ownKeys: callback.keys };
	const signedText = () => canonicalFields(callback.signed);
	return {
		unproven,
		neverAskable,
		ownKeys: unprovenKeys(callback.output, unproven, callback.order.status, signedText),
	};
}
