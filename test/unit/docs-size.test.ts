/**
 * The documentation's budget: docs/*.md at most 300,000 bytes. Field-by-field facts belong to the generated
 * docs/field-reference.md and figures to bench/results.md; hand-written pages keep to tasks, outcomes and reasons,
 * so a page that grows past the budget says something twice.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

const DOCS = join(__dirname, '..', '..', 'docs');
const BUDGET = 300_000;

describe('the documentation', () => {
	it(`stays within ${BUDGET.toLocaleString('en-US')} bytes of docs/*.md`, () => {
		const sizes = readdirSync(DOCS)
			.filter((name) => name.endsWith('.md'))
			.map((name) => [name, readFileSync(join(DOCS, name)).length] as const);
		const total = sizes.reduce((sum, [, size]) => sum + size, 0);
		expect(sizes.length).toBeGreaterThan(10);
		expect({ total, withinBudget: total <= BUDGET }).toEqual({ total, withinBudget: true });
	});
});
