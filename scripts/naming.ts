/**
 * Which shipped files name a product in their code: in a name (an identifier, a property) or a string that is a
 * name in code (a path, a key, a value compared), comments and the words shown to a person aside. A product whose
 * code is spread over many files is one whose next change touches them all. `npx tsx scripts/naming.ts cashier subscription`
 * prints each word's files; test/unit/product-homes.test.ts holds the counts to their limits.
 */
import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { join } from 'path';
import ts from 'typescript';

const root = join(__dirname, '..');

/** The shipped TypeScript files: the package's entry point, the nodes and the credential. */
function shippedFiles(): string[] {
	const listed = execFileSync('git', ['ls-files', 'index.ts', 'nodes', 'credentials'], { cwd: root, encoding: 'utf8' });
	return listed.split('\n').filter((file) => file.endsWith('.ts'));
}

/** A string that is a name in code, not words for a person: no space in it (`'/global/cashier/collect/apply'`). */
const CODE_STRING = /^[^\s]+$/;

/** Whether a source text names `word` (in any case) in its code: a name, or a string without spaces. */
export function namesInCode(text: string, word: string): boolean {
	const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
	const pattern = new RegExp(word, 'i');
	const named = (node: ts.Node): boolean => {
		if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return pattern.test(node.text);
		if (ts.isStringLiteralLike(node)) return CODE_STRING.test(node.text) && pattern.test(node.text);
		return ts.forEachChild(node, (child) => (named(child) ? true : undefined)) ?? false;
	};
	return named(source);
}

/** The shipped files whose code names `word`. */
export function filesNaming(word: string): string[] {
	return shippedFiles().filter((file) => namesInCode(readFileSync(join(root, file), 'utf8'), word));
}

if (require.main === module) {
	for (const word of process.argv.slice(2)) {
		const files = filesNaming(word);
		console.log(`${word}: ${files.length} files\n  ${files.join('\n  ')}`);
	}
}
