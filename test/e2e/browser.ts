import { existsSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { OWNER } from '../../playground/lib/n8n';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a machine without a display, GPU or network beyond this one. */
const FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-quic',
	'--no-first-run',
	'--disable-component-update',
	'--disable-sync',
];

export interface Browser {
	page: Page;
	close(): Promise<void>;
}

/** Debian's Chromium with a fresh profile, removed on close. */
export async function openBrowser(): Promise<Browser> {
	if (!existsSync(CHROMIUM))
		throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
	const profile = mkdtempSync(join(tmpdir(), 'haipay-chromium-'));
	let context: BrowserContext | undefined;
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM,
			headless: true,
			args: FLAGS,
			viewport: { width: 1440, height: 1000 },
			timeout: 60_000,
		});
	} catch (error) {
		rmSync(profile, { recursive: true, force: true });
		throw error;
	}
	const opened = context;
	const page = opened.pages()[0] ?? (await opened.newPage());
	page.setDefaultTimeout(30_000);
	return {
		page,
		close: async () => {
			await opened.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

export async function signIn(
	page: Page,
	baseUrl: string,
	user: { email: string; password: string } = OWNER,
): Promise<void> {
	await page.goto(`${baseUrl}/signin`);
	await page.locator('#emailOrLdapLoginId').fill(user.email);
	await page.locator('#password').fill(user.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

export async function openWorkflow(page: Page, baseUrl: string, workflowId: string): Promise<void> {
	await page.goto(`${baseUrl}/workflow/${workflowId}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
}

export function canvasNode(page: Page, name: string) {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Opens a node's panel and returns the text of its parameters, with the values of its inputs, once they are drawn. */
export async function openNode(page: Page, name: string): Promise<string> {
	await canvasNode(page, name).dblclick();
	const parameters = page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]');
	await parameters.waitFor();
	// Parameters are drawn in steps after the panel opens; wait until the text stops changing.
	let previous = '';
	for (let i = 0; i < 20; i++) {
		const values = await parameters
			.locator('input')
			.evaluateAll((inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
		const text = `${await parameters.innerText()}\n${values.join('\n')}`;
		if (text === previous && text.trim().length > 0) return text;
		previous = text;
		await page.waitForTimeout(250);
	}
	return previous;
}

export async function closeNode(page: Page): Promise<void> {
	await page.keyboard.press('Escape');
	await page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden' });
}
