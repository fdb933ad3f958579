import { execFileSync } from 'child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

/*
 * What n8n's verified community-node checks look at in the published package. `npm test` builds first,
 * so dist/ is what `npm publish` would ship.
 */
const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

/** The files `npm pack` would put in the tarball, as npm itself lists them. */
function packedFiles(): string[] {
	const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: root,
		encoding: 'utf8',
	});
	const [report] = JSON.parse(output) as Array<{ files: Array<{ path: string }> }>;
	return report.files.map((file) => file.path).sort();
}

describe('published package', () => {
	it('packs what runs and nothing else: the entry point, the built code, its codex and icons, the README and the licence', () => {
		const files = packedFiles();
		const entry = ['dist/index.d.ts', 'dist/index.js', 'dist/index.js.map'];
		const extra = files.filter(
			(path) =>
				!/^dist\/(nodes|credentials|icons)\//.test(path) &&
				![...entry, 'LICENSE.md', 'README.md', 'package.json'].includes(path),
		);
		expect(extra).toEqual([]);
		expect(files).toEqual(expect.arrayContaining([pkg.main, pkg.types]));
		expect(files).toEqual(expect.arrayContaining([...pkg.n8n.nodes, ...pkg.n8n.credentials]));
		expect(files).toEqual(
			expect.arrayContaining([
				'dist/nodes/HaiPay/HaiPay.node.json',
				'dist/nodes/HaiPayTrigger/HaiPayTrigger.node.json',
				'dist/icons/haipay.svg',
			]),
		);
		expect(files.filter((path) => /\.(png|jpe?g)$|^docs\//.test(path))).toEqual([]);
	});

	it('has no runtime dependencies and peer-depends on n8n-workflow only', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.keywords).toContain('n8n-community-node-package');
		// Only what n8n loads: n8n-node build also copies every image of the repository (docs/ screenshots) into dist/.
		expect(pkg.files).toEqual([
			'dist/index.js',
			'dist/index.d.ts',
			'dist/index.js.map',
			'dist/nodes',
			'dist/credentials',
			'dist/icons',
		]);
		expect(pkg.license).toBe('MIT');
	});

	it('points n8n at built files that exist', () => {
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
		// Strict mode would require eslint.config.mjs to be n8n-node's default, which lints the sandbox, tests and
		// benchmarks as published code (docs/n8n-coming-rules.md, "Strict mode"); the published code is held to the same
		// rules by this repository's config.
		expect(pkg.n8n.strict).toBe(false);
		// `main` is for code outside n8n (test/package/tarball.test.ts requires it from the packed tarball).
		expect(pkg.main).toBe('dist/index.js');
		expect(pkg.types).toBe('dist/index.d.ts');
		for (const path of [pkg.main, pkg.types]) expect(existsSync(join(root, path))).toBe(true);
		const paths: string[] = [...pkg.n8n.credentials, ...pkg.n8n.nodes];
		expect(paths.length).toBeGreaterThan(0);
		for (const path of paths) expect(existsSync(join(root, path))).toBe(true);
		for (const path of paths)
			expect(existsSync(join(root, path.replace(/\.js$/, '.json')))).toBe(path.includes('.node.'));
	});

	it('ships its icons beside the built code', () => {
		expect(existsSync(join(root, 'dist', 'icons', 'haipay.svg'))).toBe(true);
		expect(existsSync(join(root, 'dist', 'icons', 'haipay.dark.svg'))).toBe(true);
	});

	it('requires nothing at run time but n8n-workflow, crypto and its own files', () => {
		const required = new Set<string>();
		for (const file of filesUnder(join(root, 'dist')).filter((path) => path.endsWith('.js'))) {
			for (const match of readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g)) required.add(match[1]);
		}
		const external = [...required].filter((name) => !name.startsWith('.'));
		expect(external.sort()).toEqual(expect.arrayContaining(['n8n-workflow']));
		expect(external.filter((name) => !['n8n-workflow', 'crypto', 'node:crypto'].includes(name))).toEqual([]);
	});

	it('loads in n8n: every class named in the n8n field is exported, constructible, and declares its public name', () => {
		const names = (paths: string[], read: (instance: Record<string, unknown>) => unknown) =>
			paths.map((path) => {
				const module = jest.requireActual(join(root, path));
				const classes = Object.values(module) as Array<new () => Record<string, unknown>>;
				expect(classes).toHaveLength(1);
				return read(new classes[0]());
			});
		// Saved workflows and credentials refer to these names (DESIGN: public interface).
		expect(names(pkg.n8n.credentials, (credential) => credential.name)).toEqual(['haiPayApi']);
		expect(names(pkg.n8n.nodes, (node) => (node.description as { name: string }).name).sort()).toEqual([
			'haiPay',
			'haiPayTrigger',
		]);
	});
});
