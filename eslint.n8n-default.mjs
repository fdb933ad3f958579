// The rules of n8n-node's default lint config (what `n8n-node lint` applies in strict mode, from @n8n/node-cli's
// configs/eslint), applied by `npm run lint` to the published code only: index.ts, nodes/, credentials/ and package.json.
// The same rules are written out here because @n8n/node-cli cannot be a dev dependency of this repository: one of
// its dependencies lists platform packages that `npm ci` cannot resolve here. Only its import-x rules are left out
// (import order and resolution, which tsc already checks).
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import jsoncParser from 'jsonc-eslint-parser';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**'] },
	{
		files: ['**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended, n8nCommunityNodesPlugin.configs.recommended],
		rules: { 'prefer-spread': 'off', 'no-console': 'error' },
	},
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{
		files: ['package.json'],
		extends: [n8nCommunityNodesPlugin.configs.recommended],
		rules: { ...n8nNodesBase.configs.community.rules },
		languageOptions: { parser: jsoncParser },
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
