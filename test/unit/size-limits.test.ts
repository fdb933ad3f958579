import { join } from 'path';

import {
	CHECKED,
	FILE_LIMIT,
	FUNCTION_LIMIT,
	contentOf,
	functionsOf,
	measure,
	overLimits,
} from '../../scripts/size-limits';

/**
 * The code a newcomer reads stays small enough to read: files and functions in the shipped folders and in the
 * tools beside them (scripts/size-limits.ts names them), with jest `describe` blocks aside.
 */
describe('size limits', () => {
	const measured = measure();
	const { files, functions } = measured;

	it('measures every checked folder', () => {
		for (const dir of CHECKED) expect(files.some((file) => file.where.startsWith(`${dir}/`))).toBe(true);
		expect(files.length).toBeGreaterThan(150);
		expect(functions.length).toBeGreaterThan(900);
	});

	it(`no file is over ${FILE_LIMIT} content characters and no function over ${FUNCTION_LIMIT}`, () => {
		expect(overLimits(measured)).toEqual([]);
	});
});

describe('what counts as a function', () => {
	const body = (lines: number) => Array.from({ length: lines }, (_, i) => `\tconst v${i} = ${i};`).join('\n');
	const measured = (text: string) =>
		functionsOf(join(__dirname, 'sample.ts'), text).map((fn) => `${fn.where.replace(/^.*:/, '')} ${fn.size}`);

	it('leaves jest describe blocks out, in all their spellings, and measures the functions inside them', () => {
		const text = [
			"describe('a', () => {",
			"\tit('b', () => {",
			body(3),
			'\t});',
			'});',
			"describe.each([1])('c %s', function () {",
			body(2),
			'});',
			'xdescribe(`d`, () => undefined);',
		].join('\n');
		expect(measured(text)).toEqual(['2 (anonymous) 36']);
	});

	it('measures every other function: declarations, methods, arrows, callbacks of other calls', () => {
		const text = [
			'function f() {',
			body(2),
			'}',
			'class C {',
			'\tm() {',
			body(1),
			'\t}',
			'}',
			'run(() => {',
			body(1),
			'});',
		].join('\n');
		expect(measured(text)).toEqual(['1 f 33', '6 m 15', '10 (anonymous) 16']);
	});

	it('measures content, not width: the same call on one line or wrapped over five has one size', () => {
		const oneLine = 'function g() {\n\treturn call(first, second, third);\n}';
		const wrapped = 'function g() {\n\treturn call(\n\t\tfirst,\n\t\tsecond,\n\t\tthird\n\t);\n}';
		expect(measured(oneLine)).toEqual(['1 g 44']);
		expect(measured(wrapped)).toEqual(['1 g 44']);
		expect(contentOf('a  b\n\tc')).toBe(3);
	});
});
