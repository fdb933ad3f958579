import { read, type WorkBook } from '@e965/xlsx';
import JSZip from 'jszip';

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Every cell of a CSV file's first sheet (as SheetJS reads it) that is a formula, or text a spreadsheet opening the
 * file would start one with: in CSV only the text says what a cell is, so such text must carry the guard.
 */
export function csvFormulaCells(book: WorkBook): string[] {
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

/** A cell of an XLSX file as its sheet's XML writes it: its type, whether it has a formula, its value. */
export interface XlsxCell {
	ref: string;
	/** The `t` attribute: `s` (shared string), `str`, `inlineStr`, `n` (no attribute), `b`, `e`, `d`. */
	type: string;
	formula: boolean;
	value: string;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
	return text
		.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
		.replace(/&(#x[0-9A-Fa-f]+|#\d+|\w+);/g, (entity, name: string) =>
			name.startsWith('#x')
				? String.fromCodePoint(parseInt(name.slice(2), 16))
				: name.startsWith('#')
					? String.fromCodePoint(Number(name.slice(1)))
					: (XML_ENTITIES[name] ?? entity),
		);
}

/** The text of every `<t>` of an element (a shared or inline string, rich text runs joined). */
const textOf = (xml: string) =>
	[...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((m) => unescapeXml(m[1])).join('');

/**
 * Every cell of every sheet of an XLSX file, read from the file's own XML (not through SheetJS, which wrote it): what
 * Excel or LibreOffice opening the file is told about each cell. A formula is an `<f>` element, and nothing else is.
 */
export async function xlsxCells(bytes: Buffer): Promise<XlsxCell[]> {
	const zip = await JSZip.loadAsync(bytes);
	const shared = await zip.file('xl/sharedStrings.xml')?.async('string');
	const strings = shared === undefined ? [] : [...shared.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => textOf(m[1]));
	const sheets = Object.keys(zip.files).filter((name) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name));
	if (sheets.length === 0) throw new Error('the file has no worksheet: is it an XLSX file?');
	const cells: XlsxCell[] = [];
	for (const name of sheets) {
		const xml = (await zip.file(name)?.async('string')) ?? '';
		for (const [, attributes, body = ''] of xml.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
			const ref = /\br="([^"]+)"/.exec(attributes)?.[1] ?? '?';
			const type = /\bt="([^"]+)"/.exec(attributes)?.[1] ?? 'n';
			const raw = /<v(?:\s[^>]*)?>([\s\S]*?)<\/v>/.exec(body)?.[1];
			const value =
				type === 'inlineStr'
					? textOf(/<is>([\s\S]*?)<\/is>/.exec(body)?.[1] ?? '')
					: type === 's'
						? (strings[Number(raw)] ?? '')
						: unescapeXml(raw ?? '');
			cells.push({
				ref: `${name.replace(/^xl\/worksheets\//, '')}!${ref}`,
				type,
				formula: /<f[\s>/]/.test(body),
				value,
			});
		}
	}
	return cells;
}

/** Every cell of an XLSX file that holds a formula (`<f>`), as its XML writes it. */
export async function xlsxFormulaCells(bytes: Buffer): Promise<string[]> {
	return (await xlsxCells(bytes)).filter((cell) => cell.formula).map((cell) => JSON.stringify(cell));
}

const STRING_TYPES = ['s', 'str', 'inlineStr'];

/**
 * How each text is written in an XLSX file: every cell whose value is exactly that text, as the file's XML says
 * (a string type, no formula) and as SheetJS reads it back (type `s`, no formula, the text as it is). A text a
 * spreadsheet would run, written as an XLSX string cell, comes out `{ string: true, formula: false, read: text,
 * readType: 's', readFormula: false }` for each cell that holds it; a text written with an apostrophe before it is
 * found in no cell.
 */
export async function xlsxTextCells(
	bytes: Buffer,
	texts: string[],
): Promise<Array<{ text: string; cells: Array<Record<string, unknown>> }>> {
	const cells = await xlsxCells(bytes);
	const book = read(bytes, { type: 'buffer', cellFormula: true });
	return texts.map((text) => ({
		text,
		cells: cells
			.filter((cell) => cell.value === text)
			.map((cell) => {
				const [file, ref] = cell.ref.split('!');
				const sheet = book.Sheets[book.SheetNames[Number(/\d+/.exec(file)?.[0]) - 1]];
				const readBack = sheet?.[ref] as { t?: string; v?: unknown; f?: string } | undefined;
				return {
					string: STRING_TYPES.includes(cell.type),
					formula: cell.formula,
					read: readBack?.v,
					readType: readBack?.t,
					readFormula: readBack?.f !== undefined,
				};
			}),
	}));
}

/**
 * The XLSX results as a spreadsheet opens them: no cell a formula, none starting with an added apostrophe, and each of
 * `texts` (text a spreadsheet would run) in exactly one cell, a string cell holding it as it is.
 */
export async function expectTextAsIs(bytes: Buffer, texts: string[]): Promise<void> {
	expect(await xlsxFormulaCells(bytes)).toEqual([]);
	expect((await xlsxCells(bytes)).filter((cell) => cell.value.startsWith("'"))).toEqual([]);
	expect(await xlsxTextCells(bytes, texts)).toEqual(
		texts.map((text) => ({
			text,
			cells: [{ string: true, formula: false, read: text, readType: 's', readFormula: false }],
		})),
	);
}
