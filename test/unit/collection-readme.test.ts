/**
 * The README's Operations table and docs/haipay-node.md list the Collection operations; each currency's collection
 * fields and rules are docs/field-reference.md's, which test/unit/field-reference.test.ts holds to the code.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const NODE_PAGE = readFileSync(join(__dirname, '..', '..', 'docs', 'haipay-node.md'), 'utf8');

describe('the documentation', () => {
	it('lists every operation of the Collection resource', () => {
		for (const page of [README, NODE_PAGE])
			for (const line of ['| Collection | Refund |', '| Collection | Get Refund |']) expect(page).toContain(line);
	});

	it('sends the reader to the field reference for the local collections', () => {
		expect(NODE_PAGE).toContain('(field-reference.md#collection--create)');
	});
});
