import { byteOrder, type ArrayStyle } from './canonical';

/*
 * The other ways a signed body's string could have been signed. The string joins `name=value` in byte order of the
 * names with `&` and escapes nothing, so a value that holds `&` followed by `name=` could also be that value cut
 * short plus a field of its own, *when the new name still sorts between the field and the next one* (HaiPay's
 * string is always sorted). `&` alone, `=` alone and `" & "` are text: no other body signs like them.
 *
 * A name is read as HaiPay writes its names: no separator, no space, no control character, never `sign` (which
 * is not signed). A value in another reading is never empty, since empty fields are left out of the string.
 */

/** One received field whose text another body could have signed as this field cut short plus other fields. */
export interface OtherReading {
	field: string;
	/** The names another reading would add (each one a split of this field's value). */
	adds: string[];
	/** The field is an array in the Java-list style whose elements could be read as other elements. */
	elements?: true;
}

/** Why a received body cannot have come from HaiPay as it stands: a name no HaiPay field could have. */
export interface BadName {
	field: string;
	/** The first offending character, spelled so it can be shown (`&`, `=`, `U+000A`), or `empty`. */
	character: string;
}

function isSkipped(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

function isNameBreaker(code: number): boolean {
	return code === 0x26 || code === 0x3d || code <= 0x20 || code === 0x7f;
}

function spelled(character: string): string {
	if (character === '&' || character === '=') return character;
	return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A name HaiPay could send, or the first character that rules it out. */
function nameProblem(name: string): string | undefined {
	if (name === '') return 'empty';
	for (let index = 0; index < name.length; index++) {
		const code = name.charCodeAt(index);
		if (code === 0x26 || code === 0x3d || code < 0x20 || code === 0x7f) return spelled(name[index]);
	}
	return undefined;
}

function isPlausibleName(name: string): boolean {
	if (name === '' || name === 'sign') return false;
	for (let index = 0; index < name.length; index++) if (isNameBreaker(name.charCodeAt(index))) return false;
	return true;
}

function rendered(value: unknown): string {
	return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value) ?? '';
}

/** The names a split of `text` could add between `after` and `before` (exclusive; `before` undefined: no bound). */
function addedNames(text: string, after: string, before: string | undefined): string[] {
	const names: string[] = [];
	// A split at the very start would leave this field empty, and an empty field is never in the string.
	for (let amp = text.indexOf('&', 1); amp >= 0; amp = text.indexOf('&', amp + 1)) {
		const equals = text.indexOf('=', amp + 1);
		if (equals < 0) break;
		const name = text.slice(amp + 1, equals);
		const rest = text.slice(equals + 1);
		if (rest === '' || !isPlausibleName(name)) continue;
		if (byteOrder(after, name) < 0 && (before === undefined || byteOrder(name, before) < 0)) names.push(name);
	}
	return names;
}

/** In the Java-list style an element holding `,`, `[`, `]` or a space signs like several elements. */
function listElementsSplit(value: unknown, style: ArrayStyle | undefined): boolean {
	if (style !== 'list' || !Array.isArray(value)) return false;
	return value.some((item) => /[,[\]\s]/u.test(typeof item === 'string' ? item : JSON.stringify(item) ?? ''));
}

/** The first signed name no HaiPay field could have (a separator, a control character, empty), or undefined. */
export function badNameOf(signed: Record<string, unknown>): BadName | undefined {
	for (const name of Object.keys(signed)) {
		if (name === 'sign' || isSkipped(signed[name])) continue;
		const character = nameProblem(name);
		if (character !== undefined) return { field: name, character };
	}
	return undefined;
}

/** Every signed field whose value another body could have signed differently, with what that body would add. */
export function otherReadings(signed: Record<string, unknown>, options: { arrayStyle?: ArrayStyle } = {}): OtherReading[] {
	const names = Object.keys(signed)
		.filter((name) => name !== 'sign' && !isSkipped(signed[name]))
		.sort(byteOrder);
	const found: OtherReading[] = [];
	names.forEach((name, index) => {
		const value = signed[name];
		const adds = addedNames(rendered(value), name, names[index + 1]);
		const elements = listElementsSplit(value, options.arrayStyle);
		if (adds.length > 0 || elements) found.push({ field: name, adds, ...(elements ? { elements: true as const } : {}) });
	});
	return found;
}

/** The first reading that changes one of `deciding`: the field itself, or a field it would add. */
export function decidingReading(readings: OtherReading[], deciding: ReadonlySet<string>): OtherReading | undefined {
	return readings.find((reading) => deciding.has(reading.field) || reading.adds.some((name) => deciding.has(name)));
}
