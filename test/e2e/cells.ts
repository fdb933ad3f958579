import type { WorkBook } from '@e965/xlsx';

const FORMULA_START = /^[=+\-@\t\r]/;

/** Every cell of a workbook's first sheet that is a formula, or text a spreadsheet would start one with. */
export function formulaCells(book: WorkBook): string[] {
	const sheet = book.Sheets[book.SheetNames[0]];
	return Object.entries(sheet)
		.filter(([address]) => !address.startsWith('!'))
		.filter(
			([, cell]) =>
				(cell as { f?: string }).f !== undefined ||
				((cell as { t: string }).t === 's' && FORMULA_START.test(String((cell as { v: unknown }).v))),
		)
		.map(([address, cell]) => `${address}: ${JSON.stringify(cell)}`);
}
