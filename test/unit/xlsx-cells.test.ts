/**
 * The XLSX check the example tests rely on (test/e2e/cells.ts) sees what a spreadsheet is told: a formula cell is
 * found whatever its cached value, text is read from shared, inline and `str` cells alike (escaped characters
 * included), and text written behind an apostrophe is not taken for the text itself.
 */
import { utils, write, type WorkSheet } from '@e965/xlsx';

import { xlsxCells, xlsxFormulaCells, xlsxTextCells } from '../e2e/cells';

const HOSTILE = '=HYPERLINK("http://evil.example/","Open")';

function file(sheet: WorkSheet, bookSST: boolean): Buffer {
	return write({ SheetNames: ['S'], Sheets: { S: sheet } }, { bookType: 'xlsx', bookSST, type: 'buffer' }) as Buffer;
}

function rows(): WorkSheet {
	return utils.json_to_sheet([{ a: HOSTILE, b: '\tTZS', c: 'a & <b>', d: "'+1", e: 5 }]);
}

describe('the XLSX cells check', () => {
	it.each([
		['string cells written as n8n writes them (str)', false, 'str'],
		['shared strings', true, 's'],
	])('reads text from %s exactly, as no formula', async (_, shared, type) => {
		const bytes = file(rows(), shared);
		expect(await xlsxFormulaCells(bytes)).toEqual([]);
		const values = (await xlsxCells(bytes)).filter((cell) => cell.ref.endsWith('2'));
		expect(values.map((cell) => [cell.type, cell.value])).toEqual([
			[type, HOSTILE],
			[type, '\tTZS'],
			[type, 'a & <b>'],
			[type, "'+1"],
			['n', '5'],
		]);
		expect(await xlsxTextCells(bytes, [HOSTILE, '+1'])).toEqual([
			{ text: HOSTILE, cells: [{ string: true, formula: false, read: HOSTILE, readType: 's', readFormula: false }] },
			// Behind an apostrophe: not the text itself.
			{ text: '+1', cells: [] },
		]);
	});

	it('finds a formula cell, and a text written as a formula is not a string cell', async () => {
		const sheet = rows();
		sheet.A2 = { t: 's', v: HOSTILE.slice(1), f: HOSTILE.slice(1) };
		sheet.F2 = { t: 'n', v: 3, f: '1+2' };
		sheet['!ref'] = 'A1:F2';
		const bytes = file(sheet, false);
		expect((await xlsxFormulaCells(bytes)).map((cell) => JSON.parse(cell).ref)).toEqual([
			'sheet1.xml!A2',
			'sheet1.xml!F2',
		]);
		expect((await xlsxTextCells(bytes, [HOSTILE]))[0].cells).toEqual([]);
	});

	it('refuses a file that is no XLSX', async () => {
		const zip = new (await import('jszip')).default();
		zip.file('hello.txt', 'hi');
		await expect(xlsxCells(await zip.generateAsync({ type: 'nodebuffer' }))).rejects.toThrow(/no worksheet/);
	});
});
