/** The plugin ships no types: its rule sets, as the scan reads them. */
declare module 'eslint-plugin-n8n-nodes-base' {
	import type { ESLint, Linter } from 'eslint';

	const plugin: ESLint.Plugin & { configs: Record<string, { rules: Linter.RulesRecord }> };
	export default plugin;
}
