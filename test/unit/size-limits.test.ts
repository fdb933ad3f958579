import { FILE_LIMIT, FUNCTION_LIMIT, measure } from '../../scripts/size-limits';

/** The code a newcomer reads first stays small enough to read: files and functions in nodes/, credentials/, sandbox/. */
describe('size limits', () => {
	const { files, functions } = measure();

	it(`no file is over ${FILE_LIMIT} lines`, () => {
		expect(files.length).toBeGreaterThan(50);
		expect(files.filter((file) => file.lines > FILE_LIMIT)).toEqual([]);
	});

	it(`no function is over ${FUNCTION_LIMIT} lines`, () => {
		expect(functions.length).toBeGreaterThan(300);
		expect(functions.filter((fn) => fn.lines > FUNCTION_LIMIT)).toEqual([]);
	});
});
