import { CALLBACK_FIELDS, CALLBACK_READINGS, DECIDING_FIELDS, PRODUCT_FIELDS } from '../shared/contract/callback';
import type { HaiPaySettings } from '../shared/signing/credential';
import { badNameOf, decidingDoubts, otherReadings, type DecidingDoubt } from '../shared/signing/readings';
import { isUnsigned, type Callback } from './callback';
import type { TriggerOptions } from './triggerOptions';
import { redactText } from '../shared/gateway/redact';
import { shown } from './shown';

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
	/**
	 * With `settle`: every deciding field some reading changes, adds or takes away, when none of them is carried or names
	 * the product, so that a callback no query can settle may run without them (HaiPayTrigger.node.ts).
	 */
	droppable?: string[];
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
	signer: Pick<HaiPaySettings, 'arrayStyle' | 'secrets'>,
	options: Pick<TriggerOptions, 'verifySignature'>,
): FieldsCheck {
	const unknownFields = unknownFieldsOf(callback.signed);
	const readings = otherReadings(callback.signed, { arrayStyle: signer.arrayStyle });
	const ambiguousText = readings.filter((reading) => !DECIDING.has(reading.field)).map((reading) => reading.field);
	const checked: FieldsCheck = { ambiguousText, unknownFields };
	// A name as a log line may show it: the credential's secrets redacted before it is shortened.
	const named = (name: string) => shown(redactText(name, signer.secrets));
	// Unverified, nothing is proven either way: the callback is taken as it came (and marked verified: false).
	if (!options.verifySignature) return checked;
	const badName = badNameOf(callback.signed);
	if (badName !== undefined) {
		const what = badName.character === 'empty' ? 'is empty' : `holds ${badName.character}`;
		return {
			...checked,
			refused: `the name of the field ${named(badName.field)} ${what}: no HaiPay field has such a name, so its signed string could be read as other fields`,
		};
	}
	const doubts = decidingDoubts(callback.signed, CALLBACK_READINGS, { arrayStyle: signer.arrayStyle });
	if (doubts.length === 0) return checked;
	const [doubt] = doubts;
	const inDoubt = [...new Set(doubts.map((each) => each.field))];
	const held = (name: string) => CALLBACK_READINGS.carried.has(name) || PRODUCT_FIELDS.has(name);
	return {
		...checked,
		...(inDoubt.some(held) ? {} : { droppable: inDoubt }),
		settle: `${doubtText(doubt, named)}, which would change what the workflow acts on; HaiPay's order query decides`,
	};
}

function doubtText(doubt: DecidingDoubt, named: (name: string) => string): string {
	if (doubt.how === 'cut') {
		return `the value of the field ${named(doubt.field)} could be read as that field cut short${doubt.adds !== undefined ? ` plus ${named(doubt.adds)}` : ' (its array elements)'}`;
	}
	if (doubt.how === 'added')
		return `the value of the field ${named(doubt.in)} could be read as ending in a field ${named(doubt.field)}`;
	return `the field ${named(doubt.field)} could be read as the end of the text of the field ${named(doubt.in)}`;
}
