import { readdirSync } from 'fs';
import { join } from 'path';

/**
 * Runs a folder's `*.cases.ts` files inside one jest test file, each within a describe named after the file, so that
 * its hooks stay its own. jest gives every test file a module registry of its own: n8n-core and the nodes, which
 * nearly every file of integration/ and trigger/ loads (about a second of CPU each time), load once per part instead
 * of once per file. Part `part` of `parts` takes every parts-th file by name, so that jest spreads a folder over its
 * workers and every cases file is in exactly one part. One file alone: `npx jest --testMatch '<rootDir>/test/trigger/memory.cases.ts'`.
 */
export function runCases(dir: string, part: number, parts: number): void {
	const names = casesFiles(dir);
	if (names.length === 0) throw new Error(`no *.cases.ts files in ${dir}`);
	names.forEach((name, index) => {
		if (index % parts !== part - 1) return;
		describe(name.replace(/\.cases\.ts$/, ''), () => {
			// Loading the file inside the describe is what scopes its top-level tests and hooks to it.
			jest.requireActual(join(dir, name));
		});
	});
}

/** The cases files of a folder, by name. */
export function casesFiles(dir: string): string[] {
	return readdirSync(dir)
		.filter((name) => name.endsWith('.cases.ts'))
		.sort();
}
