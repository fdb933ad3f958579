/*
 * The merchant's own IDs of creates (orderId, a Refund ID) as a person reads them. HaiPay states only "string, at most
 * 48, unique" and compares them as sent, so "a1" and "a1" with a zero-width space inside, or "ａ１" in fullwidth
 * letters, are three orders: a sheet row duplicated with an invisible or look-alike difference would be paid twice.
 * An ID holding a character nobody sees is therefore refused, and within a run two IDs that read alike are one.
 */

/**
 * Characters nobody sees in an ID: controls (Cc, C1 included), format characters (Cf: zero-width spaces and joiners,
 * bidirectional overrides such as U+202E, the soft hyphen, U+FEFF), lone surrogate halves (Cs, which UTF-8 cannot
 * carry), and the other characters Unicode says to render as nothing (variation selectors, U+034F, the Hangul fillers).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_ALL = /[\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;

/** A character as U+XXXX, the way an error names one nobody can see. */
export function codePoint(char: string): string {
	return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first invisible character of an ID and its position (1-based, in characters), or undefined. */
export function invisibleIn(text: string): { char: string; position: number } | undefined {
	const chars = [...text];
	const index = chars.findIndex((char) => INVISIBLE.test(char));
	return index < 0 ? undefined : { char: chars[index], position: index + 1 };
}

/**
 * How an ID reads: NFKC (fullwidth and other compatibility forms become their plain letters, "é" and "e" + U+0301
 * one), full case folding (upper case then lower case maps "ß" to "ss" as well as "A" to "a"), then NFKC again and
 * without invisible characters, close to Unicode's NFKC_Casefold. Two IDs with the same reading are one to a reader.
 */
export function readingOf(text: string): string {
	return text.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').replace(INVISIBLE_ALL, '');
}
