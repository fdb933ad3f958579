import { byteOrder, render, type ArrayStyle, type Json } from './canonical';

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
interface OtherReading {
	field: string;
	/** The names another reading would add (each one a split of this field's value). */
	adds: string[];
	/** The field is an array in the Java-list style whose elements could be read as other elements. */
	elements?: true;
}

/** Why a received body cannot have come from HaiPay as it stands: a name no HaiPay field could have. */
interface BadName {
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

/** A value exactly as the string to sign writes it (nested objects with their keys sorted, arrays in the credential's style). */
function rendered(value: unknown, style?: ArrayStyle): string {
	return render(value as Json, { arrayStyle: style });
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
	return value.some((item) => /[,[\]\s]/u.test(typeof item === 'string' ? item : (JSON.stringify(item) ?? '')));
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
export function otherReadings(
	signed: Record<string, unknown>,
	options: { arrayStyle?: ArrayStyle } = {},
): OtherReading[] {
	const names = Object.keys(signed)
		.filter((name) => name !== 'sign' && !isSkipped(signed[name]))
		.sort(byteOrder);
	const found: OtherReading[] = [];
	names.forEach((name, index) => {
		const value = signed[name];
		const adds = addedNames(rendered(value, options.arrayStyle), name, names[index + 1]);
		const elements = listElementsSplit(value, options.arrayStyle);
		if (adds.length > 0 || elements)
			found.push({ field: name, adds, ...(elements ? { elements: true as const } : {}) });
	});
	return found;
}

/*
 * Whether another reading could change a field a run acts on. A reading is the same string cut at other `&`: it can
 * split a value (adding fields) and join fields (a field's `&name=` then sits inside the text before it), several
 * times at once. What HaiPay sends bounds which readings could be a callback it signed: a deciding field's value
 * never holds `&` (orders, statuses, amounts, codes, tokens), nor does a value HaiPay writes itself (`plain`: numbers
 * and times); only free text (errorMsg, a bank's name, a field HaiPay added) can. Nothing is assumed of which fields
 * a callback carries: HaiPay publishes no payout callback, so a deciding field that is present in one reading and
 * absent in another is in doubt like one that changes. Under this bound a reading that changes, adds or takes away a
 * deciding field leaves one of three marks on the received body (test/unit/readings-search.test.ts checks them
 * against every reading of generated bodies, each generated body also lacking each field in turn):
 * 1. a value holds `&D=` for a deciding D that sorts after the first name of the string (every reading starts with
 *    that name, and names only grow: a D before it can be no field of any reading);
 * 2. a deciding field's own value holds `&name=` (the reading cuts it short);
 * 3. a deciding field follows, past fields that are neither deciding nor free text of their own, free text or a
 *    value holding `&name=` (the reading joins it into that text, and the deciding field is gone).
 * A `carried` set (the library's verifyCallback keeps the earlier bound: fields every callback was taken to carry)
 * narrows 1 and 3 to readings that keep those fields.
 */

/** What HaiPay's callbacks are known to hold; see the comment above. */
interface CallbackShape {
	deciding: ReadonlySet<string>;
	plain: ReadonlySet<string>;
	carried?: ReadonlySet<string>;
}

/**
 * A deciding field another reading could change: `cut` its own value could end sooner (`adds` the first name after
 * it); `added` the text of `in` could end in it; `joined` it could be the end of the text of `in`.
 */
export interface DecidingDoubt {
	field: string;
	how: 'cut' | 'added' | 'joined';
	in: string;
	adds?: string;
}

/** Every name a reading could start inside `text`: each `&name=` (at the very start too: a join can end just before it). */
function namesInside(text: string): string[] {
	const names: string[] = [];
	for (let amp = text.indexOf('&'); amp >= 0; amp = text.indexOf('&', amp + 1)) {
		const equals = text.indexOf('=', amp + 1);
		if (equals < 0) break;
		const name = text.slice(amp + 1, equals);
		if (isPlausibleName(name)) names.push(name);
	}
	return names;
}

/** Every deciding field a reading could join into the text before it (mark 3), each with the first such text. */
function joinedDoubts(names: string[], inside: string[][], shape: CallbackShape): DecidingDoubt[] {
	const stops = (name: string) => (shape.carried !== undefined ? shape.carried.has(name) : shape.deciding.has(name));
	const found: DecidingDoubt[] = [];
	for (const [index, name] of names.entries()) {
		if (!shape.deciding.has(name) || shape.carried?.has(name) === true) continue;
		for (let before = index - 1; before >= 0 && !stops(names[before]); before--) {
			const text = names[before];
			// A deciding value holding `&name=` is cut in some reading, and the text it then ends in may run on over this.
			if (inside[before].length > 0 || (!shape.deciding.has(text) && !shape.plain.has(text))) {
				found.push({ field: name, how: 'joined', in: text });
				break;
			}
		}
	}
	return found;
}

/** The first deciding field another reading of the signed string could change, add or take away, or undefined. */
export function decidingDoubt(
	signed: Record<string, unknown>,
	shape: CallbackShape,
	options: { arrayStyle?: ArrayStyle } = {},
): DecidingDoubt | undefined {
	return decidingDoubts(signed, shape, options)[0];
}

/**
 * Every mark on the received body, in the order decidingDoubt reports the first. Each is read off the body as received,
 * never off one with a field taken away, so no mark hides another: unless a carried field or one naming the product is
 * marked (the callback is then held whatever else is), every deciding field some reading changes, adds or takes away
 * is the `field` of one (test/trigger/unproven.cases.ts checks every reading of generated bodies).
 */
export function decidingDoubts(
	signed: Record<string, unknown>,
	shape: CallbackShape,
	options: { arrayStyle?: ArrayStyle } = {},
): DecidingDoubt[] {
	const names = Object.keys(signed)
		.filter((name) => name !== 'sign' && !isSkipped(signed[name]))
		.sort(byteOrder);
	const inside = names.map((name) => namesInside(rendered(signed[name], options.arrayStyle)));
	const { carried } = shape;
	// A name at or before the string's first can be no field but the first of any reading; one after it, with no carried
	// field between, could stand where the text holding it is cut.
	const couldStand = (a: string, b: string) =>
		byteOrder(names[0], b) < 0 &&
		!names.some((name) => carried?.has(name) === true && byteOrder(a, name) * byteOrder(name, b) > 0);
	const found: DecidingDoubt[] = [];
	for (const [index, name] of names.entries()) {
		if (shape.deciding.has(name) && (inside[index].length > 0 || listElementsSplit(signed[name], options.arrayStyle))) {
			found.push({
				field: name,
				how: 'cut',
				in: name,
				...(inside[index].length > 0 ? { adds: inside[index][0] } : {}),
			});
		}
		for (const added of inside[index].filter((each) => shape.deciding.has(each) && couldStand(name, each)))
			found.push({ field: added, how: 'added', in: name });
	}
	return [...found, ...joinedDoubts(names, inside, shape)];
}
