import { CALLBACK_FIELDS, DECIDING_FIELDS } from '../shared/contract/callback';
import type { HaiPaySettings } from '../shared/signing/credential';
import { badNameOf, decidingReading, otherReadings } from '../shared/signing/readings';
import { isUnsigned, type Callback } from './callback';
import type { TriggerOptions } from './triggerOptions';
import { shown } from './reply';

/*
 * What a verified signature proves of a callback's fields. The signed string escapes nothing, so the same signature
 * could cover another body (shared/signing/readings.ts). Only a reading that changes what a run acts on matters:
 * the order, its status, amount or currency, the App ID, or whether it is a refund or carries a card token. Free
 * text that could end in other fields is emitted and named; a field HaiPay adds is emitted and named, as HaiPay's
 * callback page asks ("parse the callback as a generic map, so that added fields never break verification").
 */

/** What the trigger makes of a verified callback's fields. */
export interface FieldsCheck {
	/** Why it is refused with 422: a name no HaiPay field could have, so no resend of it could ever pass. */
	refused?: string;
	/** Why only HaiPay's order query may settle it (whatever Confirm With HaiPay says): a deciding field is in doubt. */
	settle?: string;
	/** Free-text fields whose text another reading would cut short, adding the fields it names. */
	ambiguousText: string[];
	/** Signed fields outside those HaiPay's callbacks are known to carry. */
	unknownFields: string[];
}

const DECIDING = new Set<string>(DECIDING_FIELDS);
const LISTED = new Set<string>(CALLBACK_FIELDS);

/** Field names already logged as new in this process; bounded, so that no sender can grow it without end. */
const announced = new Set<string>();
const MAX_ANNOUNCED = 256;

function unknownFieldsOf(signed: Record<string, unknown>): string[] {
	return Object.keys(signed).filter((name) => !LISTED.has(name) && !isUnsigned(signed[name]));
}

/** Logs each field name HaiPay's callbacks were not known to carry, once per process. */
export function announceNewFields(names: string[], warn: (message: string) => void): void {
	for (const name of names) {
		if (announced.has(name) || announced.size >= MAX_ANNOUNCED) continue;
		announced.add(name);
		warn(
			`HaiPay Trigger: a verified callback carries the field ${shown(name)}, which HaiPay's callbacks were not known to carry. It is passed on as received and listed in the item's unknownFields; HaiPay may have added it.`,
		);
	}
}

export function checkFields(
	callback: Callback,
	signer: Pick<HaiPaySettings, 'arrayStyle'>,
	options: Pick<TriggerOptions, 'verifySignature'>,
): FieldsCheck {
	const unknownFields = unknownFieldsOf(callback.signed);
	const readings = otherReadings(callback.signed, { arrayStyle: signer.arrayStyle });
	const ambiguousText = readings.filter((reading) => !DECIDING.has(reading.field)).map((reading) => reading.field);
	const checked: FieldsCheck = { ambiguousText, unknownFields };
	// Unverified, nothing is proven either way: the callback is taken as it came (and marked verified: false).
	if (!options.verifySignature) return checked;
	const badName = badNameOf(callback.signed);
	if (badName !== undefined) {
		const what = badName.character === 'empty' ? 'is empty' : `holds ${badName.character}`;
		return { ...checked, refused: `the name of the field ${shown(badName.field)} ${what}: no HaiPay field has such a name, so its signed string could be read as other fields` };
	}
	const deciding = decidingReading(readings, DECIDING);
	if (deciding === undefined) return checked;
	const added = deciding.adds.find((name) => DECIDING.has(name));
	const why = DECIDING.has(deciding.field)
		? `the value of the field ${shown(deciding.field)} could be read as that field cut short${deciding.adds.length > 0 ? ` plus ${shown(deciding.adds[0])}` : ' (its array elements)'}`
		: `the value of the field ${shown(deciding.field)} could be read as ending in a field ${shown(added)}`;
	return { ...checked, settle: `${why}, which would change what the workflow acts on; HaiPay's order query decides` };
}
