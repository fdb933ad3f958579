import { inexactNumber } from '../../shared/signing/signable';
import type { Violation } from './validate';

/**
 * Numbers in "Extra Fields (JSON)" that would not reach the gateway as written. JSON gives a number's digits, a
 * JavaScript number keeps about 17 of them: `12345678901234567891` would be signed and sent as
 * `12345678901234567000`, `1.50` as `1.5`, `1e3` as `1000`. Such a value must travel as a string.
 */

/** A JSON number token, read where one starts. */
const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function violation(member: string, message: string): Violation {
	return { field: 'extraFields', rule: 'number', message: `The extra field "${member}" ${message}` };
}

/** Where the JSON string that starts at `start` (its opening quote) ends, past its closing quote. */
function stringEnd(json: string, start: number): number {
	let index = start + 1;
	while (index < json.length && json[index] !== '"') index += json[index] === '\\' ? 2 : 1;
	return index + 1;
}

/**
 * Every number of a valid JSON object's text whose text a JavaScript number changes (`String(Number(text))`
 * differs), named by the top-level member it is in. Strings are skipped whole, so digits inside text never count.
 */
export function inexactNumbersInText(json: string): Violation[] {
	const found: Violation[] = [];
	let depth = 0;
	let lastString = '""';
	let member = '';
	for (let index = 0; index < json.length;) {
		const char = json[index];
		if (char === '"') {
			const end = stringEnd(json, index);
			lastString = json.slice(index, end);
			index = end;
			continue;
		}
		if (char === '-' || (char >= '0' && char <= '9')) {
			NUMBER_TOKEN.lastIndex = index;
			const text = NUMBER_TOKEN.exec(json)?.[0] ?? char;
			const read = String(Number(text));
			if (read !== text) {
				found.push(
					violation(
						member,
						`holds the number ${text}, which JSON numbers do not carry exactly (it would be signed and sent as ${read}): send it as a string, "${text}"`,
					),
				);
			}
			index += text.length;
			continue;
		}
		if (char === '{' || char === '[') depth++;
		else if (char === '}' || char === ']') depth--;
		else if (char === ':' && depth === 1) member = JSON.parse(lastString) as string;
		index++;
	}
	return found;
}

/**
 * The numbers of an already-parsed object that cannot be what was meant (shared/signing/signable.ts
 * `inexactNumber`, the rule the library's signBody applies too): values that are not finite, whole numbers past the
 * safe range (their digits were already lost when they were parsed), and fractions whose digits are binary
 * arithmetic's residue. Their text is gone, so a fraction such as 1.50 read as 1.5 cannot be told.
 */
export function inexactNumbersInObject(fields: Record<string, unknown>): Violation[] {
	return Object.entries(fields).flatMap(([member, value]) => {
		const why = typeof value === 'number' ? inexactNumber(value) : undefined;
		return why === undefined ? [] : [violation(member, `holds ${why}: send it as a string`)];
	});
}
