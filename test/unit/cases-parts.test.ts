/**
 * Every `*.cases.ts` file runs: its folder has runner files (test/helpers/cases.ts) for each part 1 to N of one N, so
 * that none is left out of `npm test` by a missing or misnumbered part.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';

import { casesFiles } from '../helpers/cases';

const TEST = join(__dirname, '..');
const CALL = /runCases\(__dirname, (\d+), (\d+)\)/;

function folders(dir: string): string[] {
	const below = readdirSync(dir)
		.map((name) => join(dir, name))
		.filter((path) => statSync(path).isDirectory());
	return [dir, ...below.flatMap(folders)];
}

function partsOf(dir: string): Array<[number, number]> {
	return readdirSync(dir)
		.filter((name) => name.endsWith('.test.ts'))
		.map((name) => CALL.exec(readFileSync(join(dir, name), 'utf8')))
		.filter((match): match is RegExpExecArray => match !== null)
		.map((match) => [Number(match[1]), Number(match[2])]);
}

describe('cases files', () => {
	it('each folder with cases files runs every part of them once', () => {
		const withCases = folders(TEST).filter((dir) => casesFiles(dir).length > 0);
		expect(withCases.map((dir) => relative(TEST, dir)).sort()).toEqual(['integration', 'trigger', 'unit']);
		for (const dir of withCases) {
			const parts = partsOf(dir).sort(([a], [b]) => a - b);
			const [, count] = parts[0] ?? [0, 0];
			expect({ dir: relative(TEST, dir), parts }).toEqual({
				dir: relative(TEST, dir),
				parts: Array.from({ length: count }, (_, index) => [index + 1, count]),
			});
			expect(count).toBeGreaterThan(0);
		}
	});

	it('integration/ and trigger/ hold only cases files and their runners, so that none loads n8n-core on its own', () => {
		for (const folder of ['integration', 'trigger']) {
			const dir = join(TEST, folder);
			const tests = readdirSync(dir).filter((name) => name.endsWith('.test.ts'));
			expect({ folder, tests }).toEqual({
				folder,
				tests: tests.filter((name) => CALL.test(readFileSync(join(dir, name), 'utf8'))),
			});
		}
	});

	it('no runner is left in a folder without cases files', () => {
		for (const dir of folders(TEST)) if (partsOf(dir).length > 0) expect(casesFiles(dir).length).toBeGreaterThan(0);
	});
});
