/**
 * A JSON number is a double, and JSON.parse keeps no text: 99999999999999999.99 reads as 100000000000000000, more
 * than was written, and nothing after the parse can tell. Below 10^13 a double is exact to a thousandth and holds
 * any 15 significant digits as written, so a limit or a balance given as a JSON number is taken only there; text
 * ("99999999999999999.99") is taken as written at any size.
 */

/** A number's digits when a double holds them as written, or undefined. */
export function exactNumberText(value: number): string | undefined {
	if (!Number.isFinite(value) || Math.abs(value) >= 1e13) return undefined;
	const text = String(value);
	const significant = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
	return /e/i.test(text) || significant.length > 15 ? undefined : text;
}
