/*
 * What a body must not hold to be signed, beyond the separators canonical.ts refuses: a field the signing itself
 * uses, and a number JSON would not carry as the value meant. The node checks a workflow's fields with these
 * (HaiPay/validation/validate.ts and numbers.ts) and the library's signBody checks a merchant's body with the very
 * same functions, so that a merchant's own server refuses exactly what n8n refuses.
 */

/**
 * Fields a body to sign may not carry as its own: `appId` and `sign`, which the signing sets, and `key`, which the
 * signed text ends with (`&key=<secret>`): a field `key` would sign as if it were the secret's place.
 */
const RESERVED_FIELDS: ReadonlyMap<string, string> = new Map([
	['appId', 'which is set from the App ID that signs'],
	['sign', 'which carries the signature'],
	['key', 'where the signed text holds the secret key'],
]);

/**
 * A field name as a lenient reader might take it: compatibility forms folded (fullwidth `ｋｅｙ` is `key`), case,
 * `_`, `-`, `.`, spaces and invisible format characters (a zero-width space) ignored. A gateway that binds names so
 * would read `a_mount` or `K_E_Y` as the field it spells.
 */
export function looseName(name: string): string {
	return name
		.normalize('NFKC')
		.toLowerCase()
		.replace(/[_\-.\s\p{Cf}]/gu, '');
}

/** How a name stands for a field: it is that field, or it reads as it once looseName's differences are ignored. */
export function readsAs(name: string, field: string): string {
	return field === name
		? `is the field "${field}"`
		: `reads as the field "${field}" once case, width, _, -, ., spaces and invisible characters are ignored`;
}

/** Why a name may not be a body's own field, when it is or reads as a reserved one: `reads as the field "key" ..., where ...`. */
export function reservedUse(name: string): string | undefined {
	const loose = looseName(name);
	const reserved = [...RESERVED_FIELDS.keys()].find((field) => looseName(field) === loose);
	return reserved === undefined ? undefined : `${readsAs(name, reserved)}, ${RESERVED_FIELDS.get(reserved) ?? ''}`;
}

/**
 * Significant digits a decimal keeps through a JavaScript number and back (IEEE 754's 15 decimal digits): a
 * fraction JSON writes with more is the residue of binary arithmetic, not a decimal anyone wrote.
 */
const EXACT_DIGITS = 15;

function significantDigits(text: string): number {
	const mantissa = text.replace(/^-/, '').split(/e/i)[0].replace('.', '');
	return mantissa.replace(/^0+/, '').length;
}

/**
 * Why a number would not reach HaiPay as the value meant, or undefined when it would: a value that is not finite
 * (JSON writes null), a whole number past 2^53 - 1 (its digits were already lost when it became a number: 2^53 + 1
 * is 2^53), or a fraction of more than 15 significant digits (0.1 + 0.2 is 0.30000000000000004: a gateway reading
 * those digits as a decimal books them). Worded to follow "holds".
 */
export function inexactNumber(value: number): string | undefined {
	if (!Number.isFinite(value)) return `${value}, which is not a number JSON can carry (it would be sent as null)`;
	if (Number.isInteger(value)) {
		if (Number.isSafeInteger(value)) return undefined;
		return `the whole number ${value}, past ${Number.MAX_SAFE_INTEGER}, the largest a JavaScript number keeps exactly: its digits may already have changed`;
	}
	const text = String(value);
	const digits = significantDigits(text);
	if (digits <= EXACT_DIGITS) return undefined;
	return `${text}, whose ${digits} significant digits are what binary arithmetic left (0.1 + 0.2 gives 0.30000000000000004), not the decimal meant`;
}
