/** How many characters of a received value a log line shows. */
export const SHOWN = 64;

/** A received value as it may appear in a log line: short, on one line. */
export function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	let line = '';
	for (const character of text.slice(0, SHOWN)) {
		const code = character.charCodeAt(0);
		line += code < 0x20 || code === 0x7f ? ' ' : character;
	}
	return text.length > SHOWN ? `${line}…` : line;
}
