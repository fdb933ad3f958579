/**
 * Cells of the results files that a spreadsheet must read as text. In a CSV file a cell that starts with =, +, -, @,
 * a tab or a carriage return is a formula to Excel and LibreOffice (CSV and formula injection, OWASP), whether the
 * text came from a sheet's row or from the gateway (errorMsg). Such text gets a leading apostrophe, as OWASP advises,
 * and so does text that already starts with one, so that reading a file back (`plainCell`) gives every value as it
 * was. Amounts written as numbers are not text and need none.
 *
 * An XLSX file says which cell is a formula (an `<f>` element): n8n's Convert to File (SheetJS `json_to_sheet`)
 * writes text as a string cell, its value and no formula, which a spreadsheet shows as it is and never runs. There
 * text is written as it is (`textCell`): an apostrophe would be seen in the cell and read back as part of the value.
 */

const FORMULA_START = "/^[=+\\-@\\t\\r']/";

/** JavaScript: a function of one value that gives it as text safe to open in a spreadsheet (also in Code nodes). */
export const SAFE_TEXT = `((value) => { const text = value === undefined || value === null ? '' : String(value); return ${FORMULA_START}.test(text) ? "'" + text : text; })`;

/** An n8n expression: the value of `expression` (JavaScript, without braces) as CSV text safe to open in a spreadsheet. */
export function safeCell(expression: string): string {
	return `={{ ${SAFE_TEXT}(${expression}) }}`;
}

/** JavaScript: a function of one value that gives it as text, as it is (an XLSX string cell; empty for none). */
export const PLAIN_TEXT = `((value) => value === undefined || value === null ? '' : String(value))`;

/** An n8n expression: the value of `expression` as the text of an XLSX string cell, as it is. */
export function textCell(expression: string): string {
	return `={{ ${PLAIN_TEXT}(${expression}) }}`;
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
