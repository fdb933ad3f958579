/**
 * A product's code stays in few homes (scripts/naming.ts): the files whose code names it, comments and the words
 * shown to a person aside. The limits are today's counts, so that no change spreads a product further; each is
 * lowered when a change gathers a product's code: its endpoints and paths, its App ID, how a callback names it, its
 * repeat-key form and its trigger option now live in its module (nodes/shared/products/), read through the registry.
 */
import { filesNaming, namesInCode } from '../../scripts/naming';

describe('what names a product in code', () => {
	it.each([
		['an identifier', 'const cashierOrder = 1;', true],
		['a property', 'x.createCashier();', true],
		['a path in a string', "const path = '/global/cashier/collect/apply';", true],
		['a comment', '// the cashier query needs both numbers\nconst x = 1;', false],
		['words for a person', "const text = 'The cashier needs its orderNo';", false],
		['a regular expression before it', 'const r = /a\\/b/;\nconst cashier = r;', true],
	])('%s', (_what, text, named) => {
		expect(namesInCode(text, 'cashier')).toBe(named);
	});
});

describe('where each product lives', () => {
	it.each([
		['cashier', 6],
		['subscription', 7],
	])('code naming %s sits in at most %i shipped files', (word, limit) => {
		const files = filesNaming(word);
		expect(files.length).toBeGreaterThan(2);
		expect(files.length).toBeLessThanOrEqual(limit);
	});
});
