import { read, utils, write } from '@e965/xlsx';

/** XLSX files of the examples and their tests, written and read with SheetJS (the library n8n's file nodes use). */

export type SheetRow = Record<string, unknown>;

/** An XLSX workbook of one sheet: a header row of `columns`, then one row per entry; numbers stay number cells. */
export function sheetFile(rows: readonly SheetRow[], columns: readonly string[], sheetName: string): Buffer {
	const sheet = utils.aoa_to_sheet([
		[...columns],
		...rows.map((entry) => columns.map((column) => entry[column] ?? '')),
	]);
	const book = utils.book_new();
	utils.book_append_sheet(book, sheet, sheetName);
	return write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/** The rows of the workbook's first sheet, keyed by its header row, each cell as its stored type. */
export function sheetRows(file: Buffer): { sheetName: string; rows: SheetRow[] } {
	const book = read(file, { type: 'buffer' });
	const [sheetName] = book.SheetNames;
	if (sheetName === undefined) throw new Error('the workbook has no sheet');
	return { sheetName, rows: utils.sheet_to_json<SheetRow>(book.Sheets[sheetName], { defval: '' }) };
}
