/**
 * The size limits of the code others must read first: no file over 300 lines and no function over 60 lines in
 * nodes/, credentials/ and sandbox/. Prints the largest of each and exits 1 when a limit is passed.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';
import ts from 'typescript';

export const FILE_LIMIT = 300;
export const FUNCTION_LIMIT = 60;
export const CHECKED = ['nodes', 'credentials', 'sandbox'];

const root = join(__dirname, '..');

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

export interface Measure {
	where: string;
	lines: number;
}

function functionsOf(file: string, text: string): Measure[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
	const found: Measure[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
			const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			const name = node.name !== undefined && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
			found.push({ where: `${relative(root, file)}:${start + 1} ${name}`, lines: end - start + 1 });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

export function measure(): { files: Measure[]; functions: Measure[] } {
	const files: Measure[] = [];
	const functions: Measure[] = [];
	for (const file of CHECKED.flatMap((dir) => sources(join(root, dir)))) {
		const text = readFileSync(file, 'utf8');
		files.push({ where: relative(root, file), lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) });
		functions.push(...functionsOf(file, text));
	}
	const largest = (a: Measure, b: Measure) => b.lines - a.lines;
	return { files: files.sort(largest), functions: functions.sort(largest) };
}

if (require.main === module) {
	const { files, functions } = measure();
	const over = [...files.filter((file) => file.lines > FILE_LIMIT), ...functions.filter((fn) => fn.lines > FUNCTION_LIMIT)];
	console.log(`largest files (limit ${FILE_LIMIT}):`, files.slice(0, 5).map((m) => `${m.where} ${m.lines}`).join(', '));
	console.log(`longest functions (limit ${FUNCTION_LIMIT}):`, functions.slice(0, 5).map((m) => `${m.where} ${m.lines}`).join(', '));
	for (const measure of over) console.error(`over the limit: ${measure.where} (${measure.lines} lines)`);
	process.exit(over.length > 0 ? 1 : 0);
}
