/**
 * JSON.parse keeps the last of two members with one name, so a policy written {"ZAR": {strict}, "ZAR": {lax}} reads
 * as the lax one while a reviewer reading from the top sees the strict one. The text is scanned for a name given twice
 * in one object, so that such a policy is refused rather than read either way.
 */

/** The first member name repeated within one object of valid JSON text, or undefined. */
export function repeatedName(text: string): string | undefined {
	const objects: Array<Set<string> | undefined> = [];
	let index = 0;
	while (index < text.length) {
		const char = text[index];
		if (char === '"') {
			const end = stringEnd(text, index);
			const after = text.slice(end + 1).trimStart();
			const names = objects[objects.length - 1];
			if (after.startsWith(':') && names !== undefined) {
				const name = JSON.parse(text.slice(index, end + 1)) as string;
				if (names.has(name)) return name;
				names.add(name);
			}
			index = end + 1;
			continue;
		}
		if (char === '{') objects.push(new Set());
		else if (char === '[') objects.push(undefined);
		else if (char === '}' || char === ']') objects.pop();
		index += 1;
	}
	return undefined;
}

/** The index of the quote closing the JSON string that opens at `start`. */
function stringEnd(text: string, start: number): number {
	let index = start + 1;
	while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
	return index;
}
