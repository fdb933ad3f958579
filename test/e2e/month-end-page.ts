import { copyFileSync, mkdirSync } from 'fs';
import { join } from 'path';
import type { Page } from 'playwright-core';

import { ROOT } from '../../playground/lib/paths';

/** What example 6's pages show, read in Chromium (test/e2e/month-end.test.ts). */

export const OUTPUT = join(ROOT, 'test', 'e2e', '.output');

/** Screenshots go to test/e2e/.output; UPDATE_SCREENSHOTS=1 also copies them into docs/. */
export async function screenshot(page: Page, name: string): Promise<void> {
	mkdirSync(OUTPUT, { recursive: true });
	await page.screenshot({ path: join(OUTPUT, name), fullPage: true });
	if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(join(OUTPUT, name), join(ROOT, 'docs', name));
}

/** The approval page's To pay table, as the approver reads it: currency, rows and total per line. */
export async function shownTotals(page: Page): Promise<Array<{ currency: string; rows: number; total: string }>> {
	// The page's own text of each cell (this file is compiled without the DOM's types).
	type Cells = { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> };
	const lines = await page
		.locator('h3:has-text("To pay") + table')
		.locator('tbody tr')
		.evaluateAll((rows) =>
			rows.map((row) =>
				Array.from((row as unknown as Cells).querySelectorAll('td'), (cell) => (cell.textContent ?? '').trim()),
			),
		);
	return lines.map(([currency, rows, total]) => ({ currency, rows: Number(rows), total: total.replace(/,/g, '') }));
}

/** The page offers no decision at all: no Approve to click, no form to submit. */
export async function expectNoApprove(page: Page): Promise<void> {
	expect(await page.locator('.multiselect-option label').count()).toBe(0);
	expect(await page.locator('#submit-btn').count()).toBe(0);
	expect(await page.locator('body').innerText()).not.toMatch(/\bApprove\b/);
}
