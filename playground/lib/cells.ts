/**
 * Cells of the results files that a spreadsheet must read as text. A cell that starts with =, +, -, @, a tab or a
 * carriage return is a formula to Excel and LibreOffice (CSV and formula injection, OWASP), whether the text came
 * from a sheet's row or from the gateway (errorMsg). Such text gets a leading apostrophe, as OWASP advises, and so
 * does text that already starts with one, so that reading a file back (`plainCell`) gives every value as it was.
 * Amounts written as numbers are not text and need none.
 */

const FORMULA_START = "/^[=+\\-@\\t\\r']/";

/** JavaScript: a function of one value that gives it as text safe to open in a spreadsheet (also in Code nodes). */
export const SAFE_TEXT = `((value) => { const text = value === undefined || value === null ? '' : String(value); return ${FORMULA_START}.test(text) ? "'" + text : text; })`;

/** An n8n expression: the value of `expression` (JavaScript, without braces) as text safe to open in a spreadsheet. */
export function safeCell(expression: string): string {
	return `={{ ${SAFE_TEXT}(${expression}) }}`;
}

/** JavaScript: a cell `safeCell` wrote, as the value it was written from. */
export function plainText(expression: string): string {
	return `String(${expression} ?? '').replace(/^'/, '')`;
}

/** An n8n expression: a cell `safeCell` wrote, as the value it was written from. */
export function plainCell(expression: string): string {
	return `={{ ${plainText(expression)} }}`;
}

/**
 * An n8n expression: one line of CSV (RFC 4180) of the values of `expressions`, each made safe as `safeCell` makes
 * it, then quoted when it holds a comma, a quote or a line break. For results files appended to a batch at a time,
 * where n8n's Convert to File would start each batch with a byte order mark and a header.
 */
export function csvLine(expressions: string[]): string {
	return `={{ ${csvLineFunction()}([${expressions.join(', ')}]) }}`;
}

/** JavaScript: a function of an array of values that gives them as one such line (also in Code nodes). */
export function csvLineFunction(): string {
	const quoted = `((text) => /[",\\r\\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text)`;
	return `((values) => values.map((value) => ${quoted}(${SAFE_TEXT}(value))).join(','))`;
}
