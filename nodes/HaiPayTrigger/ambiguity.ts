import { CALLBACK_FIELDS, IDENTIFYING_FIELDS } from '../shared/contract/callback';
import { ambiguityOf } from '../shared/signing/canonical';
import type { HaiPaySettings } from '../shared/signing/settings';
import { isUnsigned, type Callback } from './callback';
import type { TriggerOptions } from './options';
import { shown } from './reply';

/*
 * The signed string escapes nothing: a separator in a field (`"errorMsg": "x&note=y"`), or a field no callback is
 * known to carry, means the same signature could cover another set of fields. A verified signature then proves the
 * string, not the fields, and only HaiPay's order query (Confirm With HaiPay) can settle what they are.
 */

/** What the signed string proves of a verified callback's fields. */
export interface AmbiguityCheck {
	/** Why the callback is refused with 422 (HaiPay sends it again), when nothing may settle its fields. */
	refused?: string;
	/** Whether its fields cannot be told apart, so that HaiPay's query answer stands in for them once confirmed. */
	split: boolean;
}

const IDENTIFYING = new Set<string>(IDENTIFYING_FIELDS);
const LISTED = new Set<string>(CALLBACK_FIELDS);

/** The first signed member whose name no callback is known to carry (exact, case-sensitive), or undefined. */
function unlistedField(signed: Record<string, unknown>): string | undefined {
	return Object.keys(signed).find((name) => !LISTED.has(name) && !isUnsigned(signed[name]));
}

/**
 * How far a verified callback's signed string can be trusted; an unverified one (verification off) proves nothing
 * either way and is taken as it came. A field that names the order (or a field name) holding a separator is never
 * accepted; any other is accepted only under Confirm With HaiPay.
 */
export function checkAmbiguity(
	callback: Callback,
	signer: Pick<HaiPaySettings, 'arrayStyle'>,
	options: Pick<TriggerOptions, 'verifySignature' | 'confirm'>,
): AmbiguityCheck {
	if (!options.verifySignature) return { split: false };
	const found = ambiguityOf(callback.signed, { arrayStyle: signer.arrayStyle });
	if (found !== undefined) {
		const where = `the ${found.part === 'name' ? 'name' : 'value'} of the field ${shown(found.field)} holds ${found.character}, so its signed string could be read as other fields`;
		if (IDENTIFYING.has(found.field) || found.part === 'name') return { refused: `${where}; a field that names the order must never hold one`, split: true };
		return options.confirm ? { split: true } : { refused: `${where}; turn on Confirm With HaiPay to accept such a callback once HaiPay's order query confirms it, or query the order`, split: true };
	}
	const unlisted = unlistedField(callback.signed);
	if (unlisted === undefined) return { split: false };
	if (options.confirm) return { split: true };
	return {
		refused: `the field ${shown(unlisted)} is not one HaiPay's callbacks are known to carry, so its signed text could have come from another field split in two; turn on Confirm With HaiPay to accept such a callback once HaiPay's order query confirms it (its fields then come from HaiPay's answer), or query the order`,
		split: true,
	};
}
