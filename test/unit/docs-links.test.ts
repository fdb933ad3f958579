/**
 * Every documentation link lands: the nodes' and the credential's URLs (which n8n opens as they are), the codex
 * links, and every link of the README and of docs/ to a file of the repository or to a heading of one. And every
 * repository path a page or a code comment names exists, so that a rename or a move cannot leave a reader looking
 * for a file that is gone.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, posix, relative, resolve } from 'path';

import { HaiPayApi } from '../../credentials/HaiPayApi.credentials';
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';

const root = join(__dirname, '..', '..');
const REPOSITORY = 'https://github.com/haipay-n8n/n8n-nodes-haipay';
const PAGES = [
	'README.md',
	'CHANGELOG.md',
	...readdirSync(join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

/** The anchors GitHub gives a page's headings (lower case, punctuation dropped, spaces as -, repeats numbered). */
function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		const match = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
		if (!match) continue;
		const base = match[1]
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
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

/**
 * Where a path a page or a comment names is read from: the folder of its file and the folders above, unless
 * `folders` are given (a module map's entry: the folder it stands in, which its bare names must be under), and
 * `exact` (the entry itself: its name within that folder, nowhere else).
 */
interface Place {
	file: string;
	folders: string[];
	exact?: boolean;
}

interface Named {
	place: Place;
	path: string;
	anchor?: string;
}

/** Folders a run writes (git-ignored): a page may name what the reader finds there after a run. */
const MADE_BY_A_RUN = [
	'dist/',
	'.sandbox/',
	'bench/.work/',
	'playground/n8n/',
	'playground/.n8n/',
	'playground/.queue/',
	'playground/files/',
	'test/e2e/.output/',
	// The examples' folder in the folder n8n runs in, which the reader makes.
	'haipay/',
];
const NOT_WALKED = new Set([
	'node_modules',
	'dist',
	'.git',
	'.sandbox',
	'.work',
	'.queue',
	'.output',
	'n8n',
	'.n8n',
	'files',
	'coverage',
]);

/** The repository's files, and its folders with a trailing '/'. */
function walk(folder = ''): string[] {
	return readdirSync(join(root, folder), { withFileTypes: true })
		.filter((entry) => !NOT_WALKED.has(entry.name))
		.flatMap((entry) => {
			const path = `${folder}${entry.name}`;
			return entry.isDirectory() ? [`${path}/`, ...walk(`${path}/`)] : [path];
		});
}
const FILES = walk();

const ENDINGS = 'ts|js|mjs|cjs|json|jsonl|md|sh|svg|png|csv|ya?ml|txt|pem|html';
/**
 * A path: segments of word characters, dots and dashes (`<placeholder>` and `*` stand for a segment or part of
 * one), ending in a file name with a known ending, or in '/' for a folder. Not the tail of a longer word, of a URL,
 * of an absolute path (`/usr/bin/chromium`, HaiPay's `/tzs/pay/apply`), of a home folder or of a package scope.
 */
const PATH = new RegExp(
	String.raw`(?<![\w./@~:*}<>$\\-])((?:\.\.?/)*(?:[\w.<>*-]+/)*(?:[\w.<>*-]+\.(?:${ENDINGS})|[\w.<>*-]+/))(#[\w-]+)?(?![\w/<*-])`,
	'g',
);
/** A bare name is read as a file only with these endings: `express.json`, `Node.js` or `res.json` are code and words. */
const BARE_FILE = /\.(ts|md|sh|svg|png)$/;
/** Web addresses, with or without a scheme (`doc.haipay.net/...`), are not the repository's paths. */
const ADDRESS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)`'"<>]+|\b(?:[\w-]+\.)+(?:net|com|io|org|dev|cn)\/[^\s)`'"]*/gi;

const patternOf = (path: string) =>
	path
		.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
		.replace(/<[^>/]*>/g, '[^/]+')
		.replace(/\*/g, '[^/]*');

function namedPaths(text: string, place: Place): Named[] {
	return [...text.replace(ADDRESS, ' ').matchAll(PATH)].map((match) => ({
		place,
		path: match[1],
		anchor: match[2]?.slice(1),
	}));
}

/** The folder of `file` and each folder above it, '' for the repository's root. */
function foldersAbove(file: string): string[] {
	const parts = file.split('/').slice(0, -1);
	return parts.map((_, index) => `${parts.slice(0, parts.length - index).join('/')}/`).concat('');
}

/** Why a named path is not a file or folder of the repository (or its anchor not a heading), or undefined. */
function missingPath({ place, path, anchor }: Named): string | undefined {
	if (MADE_BY_A_RUN.some((folder) => path.startsWith(folder))) return undefined;
	if (/^[./]+$/.test(path)) return undefined;
	// A bare file name (no folder) is read within a module map's entry; a folder, from anywhere.
	const bare = !path.includes('/');
	if (bare && !BARE_FILE.test(path)) return undefined;
	const relativeOnly = /^\.\.?\//.test(path);
	const bases = relativeOnly
		? [foldersAbove(place.file)[0]]
		: place.folders.length > 0 && (bare || place.exact === true)
			? place.folders
			: [...place.folders, ...foldersAbove(place.file)];
	const at = (pattern: string) => new RegExp(`^${pattern}$`);
	let found = bases
		.map((base) => at(patternOf(posix.normalize(`${base}${path}`))))
		.map((pattern) => FILES.find((file) => pattern.test(file)))
		.find(Boolean);
	if (found === undefined && !relativeOnly && place.exact !== true) {
		// Named from below the root, as prose and comments do: `signing/credential.ts`, `body.ts`.
		const scope = bare ? (place.folders[0] ?? '') : '';
		const tail = new RegExp(`(^|/)${patternOf(path)}$`);
		found = FILES.find((file) => file.startsWith(scope) && tail.test(file));
	}
	const where = place.folders.length > 0 ? ` (in ${place.folders[0] || 'the root'})` : '';
	if (found === undefined) return `${place.file}: ${path}${where}`;
	if (anchor === undefined) return undefined;
	return headings.get(found)?.has(anchor) === true
		? undefined
		: `${place.file}: ${path}#${anchor} (no heading #${anchor} in ${found})`;
}

/**
 * The paths a page names. A module map (a fenced block without a language whose lines are `name   description`)
 * is read as a tree: an entry's name is within the folder of the entries above it, and the names in its
 * description are read from the folder it stands in.
 */
function pagePaths(page: string, markdown = text(page)): Named[] {
	const named: Named[] = [];
	let fence: string | undefined;
	let column = 0;
	const stack: string[] = [];
	let folder = '';
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) {
			fence = fence === undefined ? line.slice(3).trim() : undefined;
			column = 0;
			stack.length = 0;
			continue;
		}
		if (fence === '' && column === 0) column = /^\S+\s{2,}(?=\S)/.exec(line)?.[0].length ?? -1;
		if (fence !== '' || column < 0) {
			named.push(...namedPaths(line, { file: page, folders: [] }));
			continue;
		}
		const left = line.slice(0, column).trim();
		if (left !== '') {
			stack.length = Math.floor((/^ */.exec(line)?.[0].length ?? 0) / 2);
			const parent = stack.join('');
			named.push(
				...left.split(/\s+/).flatMap((name) => namedPaths(name, { file: page, folders: [parent], exact: true })),
			);
			if (left.endsWith('/')) stack.push(left);
			folder = stack.join('');
		}
		named.push(...namedPaths(line.slice(column), { file: page, folders: [folder] }));
	}
	return named;
}

/** Code whose comments are read: what ships, and what a maintainer reads beside it. */
const COMMENTED = FILES.filter(
	(file) => /^(nodes|credentials|sandbox|scripts)\/.*\.ts$/.test(file) || file === 'index.ts',
);
const commentsOf = (source: string) => (source.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? []).join('\n');

function commentPaths(file: string, source = text(file)): Named[] {
	return commentsOf(source)
		.split('\n')
		.flatMap((line) => namedPaths(line, { file, folders: [] }));
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
		for (const page of [
			'docs/haipay-node.md',
			'docs/haipay-trigger.md',
			'docs/queue-mode.md',
			'docs/development.md',
			'docs/benchmarks.md',
		]) {
			expect(readme.some((target) => target.startsWith(page))).toBe(true);
		}
		expect(brokenLink('README.md', 'docs/no-such-page.md')).toBeDefined();
		expect(brokenLink('README.md', '#no-such-heading')).toBeDefined();
	});
});

describe('repository paths', () => {
	const problems = (named: Named[]) => named.map(missingPath).filter((problem) => problem !== undefined);

	it.each(PAGES)('every file and folder %s names exists', (page) => {
		expect(problems(pagePaths(page))).toEqual([]);
	});

	it('every file and folder a comment in nodes/, credentials/, sandbox/ or scripts/ names exists; a page by its path', () => {
		expect(COMMENTED.length).toBeGreaterThan(100);
		expect(problems(COMMENTED.flatMap((file) => commentPaths(file)))).toEqual([]);
		// "the README" in a comment is unchecked: a table that moves to another page leaves it wrong unseen.
		const unnamed = COMMENTED.filter((file) => /\bREADME\b(?!\.md)/.test(commentsOf(text(file))));
		expect(unnamed).toEqual([]);
	});

	it('sees a path that is gone, and reads no web address as one', () => {
		const page = 'docs/architecture.md';
		expect(problems(pagePaths(page, 'The runner (`nodes/HaiPay/execute/options.ts`).'))).toEqual([
			`${page}: nodes/HaiPay/execute/options.ts`,
		]);
		expect(problems(pagePaths(page, 'The table in docs/haipay-node.md#no-such-heading.'))).toHaveLength(1);
		expect(problems(pagePaths(page, 'Step 2: `credentialCache.ts` reads it, then `signing/credential.ts`.'))).toEqual(
			[],
		);
		expect(problems(pagePaths(page, 'Step 2: `credentialCache.ts` reads it, then `signing/credentials.ts`.'))).toEqual([
			`${page}: signing/credentials.ts`,
		]);
		const map = [
			'```',
			'nodes/HaiPay/         the node',
			'  execute/             runner.ts, pool.ts, options.ts',
			'  HaiPay.node.ts       execute() → execute/runner.ts',
			'  gone.ts              nothing',
			'```',
		].join('\n');
		expect(problems(pagePaths(page, map))).toEqual([
			`${page}: options.ts (in nodes/HaiPay/execute/)`,
			`${page}: gone.ts (in nodes/HaiPay/)`,
		]);
		const addresses =
			'HaiPay documents `/usdt/pay/apply` at https://doc.haipay.net/en/usdt/pay/apply.md and doc.haipay.net/tzs/payout.html; `~/.n8n/nodes/x.json`.';
		expect(pagePaths(page, addresses)).toEqual([]);
		expect(
			problems(
				commentPaths(
					'nodes/HaiPay/execute/runner.ts',
					"// The order is resolve.ts's (settle.ts); see ../../shared/gateway/nothing.ts.",
				),
			),
		).toEqual(['nodes/HaiPay/execute/runner.ts: ../../shared/gateway/nothing.ts']);
	});
});
