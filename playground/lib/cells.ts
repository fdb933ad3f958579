/**
 * Cells of the results files that a spreadsheet must read as text. A cell that starts with =, +, -, @, a tab or a
 * carriage return is a formula to Excel and LibreOffice (CSV and formula injection, OWASP), whether the text came
 * from a sheet's row or from the gateway (errorMsg). Such text gets a leading apostrophe, as OWASP advises, and so
 * does text that already starts with one, so that reading a file back (`plainCell`) gives every value as it was.
 * Amounts written as numbers are not text and need none.
 */

const FORMULA_START = "/^[=+\\-@\\t\\r']/";

/** An n8n expression: the value of `expression` (JavaScript, without braces) as text safe to open in a spreadsheet. */
export function safeCell(expression: string): string {
	return `={{ ((value) => { const text = value === undefined || value === null ? '' : String(value); return ${FORMULA_START}.test(text) ? "'" + text : text; })(${expression}) }}`;
}

/** An n8n expression: a cell `safeCell` wrote, as the value it was written from. */
export function plainCell(expression: string): string {
	return `={{ String(${expression} ?? '').replace(/^'/, '') }}`;
}
