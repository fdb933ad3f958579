/**
 * Every documentation link n8n shows for this package lands on a heading that exists: the nodes' and the
 * credential's URLs (which n8n opens as they are), the codex links, and the README's own table of contents.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { HaiPayApi } from '../../credentials/HaiPayApi.credentials';
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const REPOSITORY = 'https://github.com/haipay-n8n/n8n-nodes-haipay';

/** The anchors GitHub gives the README's headings (lower case, punctuation dropped, spaces as -, repeats numbered). */
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

const headings = anchors(readme);

function codexUrls(file: string): string[] {
	const codex = JSON.parse(readFileSync(join(root, file), 'utf8')) as { resources: Record<string, Array<{ url: string }>> };
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

	it.each(links)('%s: %s lands on a README heading', (_what, url) => {
		// n8n opens a full http(s) URL as it is; anything else it rewrites.
		expect(url).toMatch(/^https:\/\//);
		const [page, anchor] = String(url).split('#');
		expect(page).toBe(REPOSITORY);
		expect(headings).toContain(anchor);
	});

	it("every link of the README's own to a heading lands on one", () => {
		const internal = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]);
		expect(internal.length).toBeGreaterThan(5);
		expect(internal.filter((anchor) => !headings.has(anchor))).toEqual([]);
	});
});
