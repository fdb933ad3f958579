/**
 * The size limits of the code others must read: no file over 16,500 and no function over 3,300 content characters
 * (about 300 and 60 full lines), in the shipped folders and in the tools beside them (the sandbox, the benchmarks,
 * the playground, the scripts, the shared dev code and the tests). Content is every character but white space, so
 * that a limit measures what there is to read, not the formatter's line width: prettier wrapping a call over four
 * lines changes no size. A jest `describe` block is a list of tests, not a function to read in
 * one go: it is not measured, the functions inside it are. Prints the largest of each and exits 1 when a limit is
 * passed. There is no allowance: a file or function over a limit is restructured, or the limit changed in review.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';
import ts from 'typescript';

/** Content characters (white space aside): 300 lines of 55, as dense as the densest file
 * that kept the former 300-line limit. */
export const FILE_LIMIT = 16_500;
/** About 60 such lines. */
export const FUNCTION_LIMIT = 3_300;
export const CHECKED = ['nodes', 'credentials', 'sandbox', 'bench', 'scripts', 'dev', 'test', 'playground'];

/** Folders that hold no source of the project: installs, generated and run-time data. */
const SKIPPED = new Set(['node_modules', 'playground/n8n', 'playground/files']);

const root = join(__dirname, '..');

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (name.startsWith('.') || SKIPPED.has(name) || SKIPPED.has(relative(root, path))) return [];
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** How much there is to read in a text: its characters but white space. */
export function contentOf(text: string): number {
	return text.replace(/\s+/g, '').length;
}

export interface Measure {
	where: string;
	/** Content characters: every character but white space. */
	size: number;
}

/** The name a call is made by, through `describe.each(...)`, `describe.skip` and tagged templates. */
function calleeName(expression: ts.Expression): string | undefined {
	if (ts.isIdentifier(expression)) return expression.text;
	if (ts.isPropertyAccessExpression(expression)) return calleeName(expression.expression);
	if (ts.isCallExpression(expression)) return calleeName(expression.expression);
	if (ts.isTaggedTemplateExpression(expression)) return calleeName(expression.tag);
	return undefined;
}

/** A function given to jest's `describe` (or `fdescribe`, `xdescribe`, `describe.each`...). */
export function isDescribeBlock(node: ts.Node): boolean {
	const call = node.parent;
	if (call === undefined || !ts.isCallExpression(call) || !call.arguments.some((argument) => argument === node))
		return false;
	return ['describe', 'fdescribe', 'xdescribe'].includes(calleeName(call.expression) ?? '');
}

/** Every function with a body in a source text, but describe blocks, with its first line and length. */
export function functionsOf(file: string, text: string): Measure[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
	const found: Measure[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined && !isDescribeBlock(node)) {
			const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const name = node.name !== undefined && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
			found.push({ where: `${relative(root, file)}:${start + 1} ${name}`, size: contentOf(node.getText(source)) });
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
		files.push({ where: relative(root, file), size: contentOf(text) });
		functions.push(...functionsOf(file, text));
	}
	const largest = (a: Measure, b: Measure) => b.size - a.size;
	return { files: files.sort(largest), functions: functions.sort(largest) };
}

/** Every file and function over its limit. */
export function overLimits({ files, functions }: { files: Measure[]; functions: Measure[] }): Measure[] {
	return [...files.filter((file) => file.size > FILE_LIMIT), ...functions.filter((fn) => fn.size > FUNCTION_LIMIT)];
}

if (require.main === module) {
	const measured = measure();
	const { files, functions } = measured;
	const over = overLimits(measured);
	console.log(
		`largest files (limit ${FILE_LIMIT}):`,
		files
			.slice(0, 5)
			.map((m) => `${m.where} ${m.size}`)
			.join(', '),
	);
	console.log(
		`longest functions (limit ${FUNCTION_LIMIT}):`,
		functions
			.slice(0, 5)
			.map((m) => `${m.where} ${m.size}`)
			.join(', '),
	);
	for (const found of over) console.error(`over the limit: ${found.where} (${found.size} content characters)`);
	process.exit(over.length > 0 ? 1 : 0);
}
