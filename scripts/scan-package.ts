/**
 * `npm run scan`: the checks n8n's community-package scanner makes before a package is verified, run here on the
 * tarball `npm pack` makes and on the sources, since the scanner itself only reads packages already published.
 * The rule set is the scanner's: @n8n/eslint-plugin-community-nodes (recommended), no-console, and the
 * eslint-plugin-n8n-nodes-base community, credentials and nodes rules with the same rules switched off; inline
 * `eslint-disable` comments are ignored, as the scanner ignores them. Exits non-zero on any violation.
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { ESLint, type Linter } from 'eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const ROOT = resolve(__dirname, '..');

/** The sources the scanner reads from the attested repository. */
const SOURCE_PATTERNS = ['package.json', 'index.ts', 'nodes/**/*.{js,ts,json}', 'credentials/**/*.{js,ts,json}'];
/** What it reads from the tarball: the compiled code and the published package.json. */
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

const tsParser = tseslint.parser as Linter.Parser;

function scanConfig(): Linter.Config[] {
	const rules = n8nNodesBase.configs;
	return [
		n8nCommunityNodesPlugin.configs.recommended as Linter.Config,
		{ rules: { 'no-console': 'error' } },
		{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
		{ files: ['package.json'], rules: { ...rules.community.rules } },
		{
			files: ['**/credentials/**/*.ts'],
			rules: {
				...rules.credentials.rules,
				'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
				'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
			},
		},
		{
			files: ['**/nodes/**/*.ts'],
			rules: {
				...rules.nodes.rules,
				'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
				'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
				'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
			},
		},
		{ files: ['**/*.json', '**/*.ts'], languageOptions: { parser: tsParser } },
	];
}

async function scan(label: string, cwd: string, patterns: string[]): Promise<number> {
	const eslint = new ESLint({
		cwd,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: scanConfig(),
		errorOnUnmatchedPattern: false,
	});
	const results = await eslint.lintFiles(patterns);
	const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
	const formatted = await (await eslint.loadFormatter('stylish')).format(results);
	process.stdout.write(`${label}: ${results.length} files, ${errors} errors\n${errors > 0 ? formatted : ''}`);
	return errors;
}

/** Packs the package as `npm publish` would, and unpacks it into a temporary folder. */
function unpackedTarball(): { dir: string; cleanup: () => void } {
	const work = mkdtempSync(join(tmpdir(), 'haipay-scan-'));
	const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	const [report] = JSON.parse(output) as Array<{ filename: string }>;
	execFileSync('tar', ['xzf', join(work, report.filename), '-C', work]);
	return { dir: join(work, 'package'), cleanup: () => rmSync(work, { recursive: true, force: true }) };
}

async function main(): Promise<void> {
	const tarball = unpackedTarball();
	try {
		const errors =
			(await scan('tarball', tarball.dir, TARBALL_PATTERNS)) + (await scan('sources', ROOT, SOURCE_PATTERNS));
		process.exitCode = errors > 0 ? 1 : 0;
	} finally {
		tarball.cleanup();
	}
}

void main();
