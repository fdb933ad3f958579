/**
 * Every documentation link lands: the nodes' and the credential's URLs (which n8n opens as they are), the codex
 * links, and every link of the README and of docs/ to a file of the repository or to a heading of one.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

import { HaiPayApi } from '../../credentials/HaiPayApi.credentials';
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';

const root = join(__dirname, '..', '..');
const REPOSITORY = 'https://github.com/haipay-n8n/n8n-nodes-haipay';
const PAGES = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The anchors GitHub gives a page's headings (lower case, punctuation dropped, spaces as -, repeats numbered). */
function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		const match = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
		if (!match) continue;
		const base = match[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	return result;
}

const text = (page: string) => readFileSync(join(root, page), 'utf8');
const headings = new Map(PAGES.map((page) => [page, anchors(text(page))]));

/** Why a link of `page` does not land, or undefined when it does: the file exists and so does the heading. */
function brokenLink(page: string, target: string): string | undefined {
	const [path, anchor] = target.split('#');
	const file = path === '' ? page : relative(root, resolve(dirname(join(root, page)), decodeURI(path)));
	if (!existsSync(join(root, file))) return `${page}: ${target} (no file ${file})`;
	if (anchor === undefined || anchor === '') return undefined;
	const known = headings.get(file);
	if (known === undefined) return `${page}: ${target} (an anchor into a page that is not checked)`;
	return known.has(anchor) ? undefined : `${page}: ${target} (no heading #${anchor} in ${file})`;
}

/** The links of a page outside its code blocks: markdown links and images, not web addresses. */
function localLinks(markdown: string): string[] {
	const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
	return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((target) => !/^[a-z]+:/i.test(target));
}

function codexUrls(file: string): string[] {
	const codex = JSON.parse(text(file)) as { resources: Record<string, Array<{ url: string }>> };
	return Object.values(codex.resources).flatMap((links) => links.map((link) => link.url));
}

describe('documentation links', () => {
	const links = [
		['HaiPay node', new HaiPay().description.documentationUrl],
		['HaiPay Trigger', new HaiPayTrigger().description.documentationUrl],
		['credential', new HaiPayApi().documentationUrl],
		...codexUrls('nodes/HaiPay/HaiPay.node.json').map((url) => ['HaiPay codex', url]),
		...codexUrls('nodes/HaiPayTrigger/HaiPayTrigger.node.json').map((url) => ['HaiPay Trigger codex', url]),
	] as Array<[string, string | undefined]>;

	it.each(links)('%s: %s lands on a heading of the repository', (_what, url) => {
		// n8n opens a full http(s) URL as it is; anything else it rewrites.
		expect(url).toMatch(/^https:\/\//);
		const [page, anchor] = String(url).split('#');
		const file = page === REPOSITORY ? 'README.md' : page.replace(`${REPOSITORY}/blob/main/`, '');
		expect(page === REPOSITORY || page.startsWith(`${REPOSITORY}/blob/main/docs/`)).toBe(true);
		expect(headings.has(file)).toBe(true);
		if (anchor !== undefined) expect(headings.get(file)).toContain(anchor);
	});

	it.each(PAGES)('every link of %s lands on a file, and on a heading where it names one', (page) => {
		const targets = localLinks(text(page));
		expect(targets.map((target) => brokenLink(page, target)).filter((problem) => problem !== undefined)).toEqual([]);
	});

	it('checks links that exist: the README links every page for its readers', () => {
		const readme = localLinks(text('README.md'));
		for (const page of ['docs/haipay-node.md', 'docs/haipay-trigger.md', 'docs/queue-mode.md', 'docs/development.md', 'docs/benchmarks.md']) {
			expect(readme.some((target) => target.startsWith(page))).toBe(true);
		}
		expect(brokenLink('README.md', 'docs/no-such-page.md')).toBeDefined();
		expect(brokenLink('README.md', '#no-such-heading')).toBeDefined();
	});
});
