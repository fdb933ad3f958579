import type { IDataObject } from 'n8n-workflow';

import { fieldOfHeader } from './headers';

/**
 * What Payout → Check says of a sheet's columns, once for the sheet: a column it reads that no row has (and the
 * column to rename into it), two columns that read as the same field, and the columns it does not read at all. A
 * column is read only by its exact name (headers.ts says why); a header that reads as a field is named, never read.
 */

/** Who reads a field from a column: the column, and the words that name the reader (a parameter, Fields From). */
export interface ColumnRead {
	column: string;
	by: string;
}

export interface SheetShape {
	/** Every column some row has, in the order first seen. */
	columns: readonly string[];
	/** The column each field is read from, by field. */
	reads: ReadonlyMap<string, ColumnRead>;
	/** The fields the rows need: required for the currencies they are in, or the currency read from a column. */
	needed: ReadonlySet<string>;
	/** Fields a column spelled otherwise is named for as missing (`needed`, or with no row's currency known, any required). */
	wanted: ReadonlySet<string>;
	/** Fields whose column under another name refuses the sheet even when not needed (the row's own currency). */
	guarded: ReadonlySet<string>;
	/** Every field a header may read as. */
	fields: readonly string[];
	/** Columns an expression reads beside `reads`; undefined when an expression reads the row in a way not known. */
	alsoRead: ReadonlySet<string> | undefined;
}

/**
 * One finding. `refuses` is `sheet` when no row of the sheet may be paid (two columns read as one field; the row's
 * currency under another name), `rows` when the rows that lack the field are refused for it, and `none` for a note.
 */
export interface ColumnProblem {
	kind: 'missing' | 'ambiguous' | 'notRead';
	field: string | null;
	columns: string[];
	/** The column to rename into, when one reads as the field. */
	renameTo: string | null;
	refuses: 'sheet' | 'rows' | 'none';
	text: string;
}

const quoted = (columns: readonly string[]) => columns.map((column) => `"${column}"`).join(' and ');

function ambiguous(field: string, read: ColumnRead, others: string[], present: boolean): ColumnProblem {
	const columns = present ? [read.column, ...others] : others;
	const lead = present
		? `Columns ${quoted(columns)}`
		: `The sheet has no column "${read.column}", and columns ${quoted(columns)}`;
	return {
		kind: 'ambiguous',
		field,
		columns,
		renameTo: read.column,
		refuses: 'sheet',
		text: `${lead} all read as ${field}: Check cannot tell which one is meant, so no row of this sheet is paid. Keep one, named "${read.column}" (${read.by}), and remove or rename the other`,
	};
}

/** The finding about one field the node reads, or none. */
function readProblem(shape: SheetShape, field: string, read: ColumnRead, others: string[]): ColumnProblem | undefined {
	const present = shape.columns.includes(read.column);
	if (others.length > 1 || (present && others.length > 0)) return ambiguous(field, read, others, present);
	if (present) return undefined;
	const needed = shape.needed.has(field);
	const [other] = others;
	if (other === undefined) {
		if (!needed) return undefined;
		const text = `The sheet has no column "${read.column}" (${read.by}), and no row has ${field} under another name`;
		return { kind: 'missing', field, columns: [read.column], renameTo: null, refuses: 'rows', text };
	}
	const guarded = shape.guarded.has(field);
	const wanted = shape.wanted.has(field);
	const rename = `rename column "${other}" to "${read.column}"`;
	const text =
		wanted || guarded
			? `The sheet has no column "${read.column}" (${read.by}); its column "${other}" reads as ${field} but is not read under that name: ${rename}`
			: `Column "${other}" is not read: it reads as ${field}, which is read from column "${read.column}" (${read.by}); to have it sent, ${rename}`;
	const refuses = guarded ? 'sheet' : wanted ? 'rows' : 'none';
	return {
		kind: wanted || guarded ? 'missing' : 'notRead',
		field,
		columns: [other],
		renameTo: read.column,
		refuses,
		text,
	};
}

function notRead(column: string, field: string | undefined): ColumnProblem {
	const text =
		field === undefined
			? `Column "${column}" is not read: no payout field reads as it`
			: `Column "${column}" is not read: it reads as ${field}, which no parameter takes from the sheet`;
	return { kind: 'notRead', field: field ?? null, columns: [column], renameTo: null, refuses: 'none', text };
}

/** The findings about a sheet's columns: refusals first, then notes, each once. */
export function columnProblems(shape: SheetShape): ColumnProblem[] {
	const readColumns = new Set([...shape.reads.values()].map((read) => read.column));
	const spelled = new Map<string, string[]>();
	const unread: Array<[string, string | undefined]> = [];
	for (const column of shape.columns) {
		if (readColumns.has(column) || shape.alsoRead?.has(column) === true) continue;
		const field = fieldOfHeader(column, shape.fields);
		if (field !== undefined && shape.reads.has(field)) spelled.set(field, [...(spelled.get(field) ?? []), column]);
		else unread.push([column, field]);
	}
	const problems: ColumnProblem[] = [];
	for (const [field, read] of shape.reads) {
		const problem = readProblem(shape, field, read, spelled.get(field) ?? []);
		if (problem !== undefined) problems.push(problem);
	}
	// An expression that reads the row some other way may read any column: then no column is called unread.
	if (shape.alsoRead !== undefined) problems.push(...unread.map(([column, field]) => notRead(column, field)));
	const order = { sheet: 0, rows: 1, none: 2 };
	return problems.sort((a, b) => order[a.refuses] - order[b.refuses]);
}

/** The summary's account of the sheet's columns: every column, each finding and its text, the rows refused for them. */
export function sheetSummary(shape: SheetShape, problems: readonly ColumnProblem[], refusedRows: number): IDataObject {
	return {
		columns: [...shape.columns],
		refuses: problems.some((problem) => problem.refuses === 'sheet'),
		problems: problems.map((problem) => ({ ...problem })),
		refusedRows,
	};
}
