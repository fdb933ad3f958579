import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import jsoncParser from 'jsonc-eslint-parser';
import tseslint from 'typescript-eslint';

// The published code (index.ts, nodes/, credentials/, package.json) is held to n8n's verified-community rules.
// Dev-only code (sandbox, tests, benchmarks, playground) is linted for TypeScript correctness.
const published = ['index.ts', 'nodes/**/*.ts', 'credentials/**/*.ts'];

export default [
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'playground/n8n/**',
			'playground/.n8n/**',
			'playground/files/**',
			'test/e2e/.output/**',
			'coverage/**',
			'bench/.work/**',
			'**/*.js',
			'**/*.mjs',
		],
	},
	...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts'] })),
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: [...published, 'package.json'] },
	{ files: ['package.json'], languageOptions: { parser: jsoncParser } },
	{
		files: ['package.json'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Both are n8n-repo conventions that the community rules replace: documentation may be a full URL
			// (credential-documentation-url), and "secret" fields are found by credential-password-field, which
			// knows a public key is not a secret.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// These two want the string 'main'; the community rule node-connection-type-literal requires
			// NodeConnectionTypes.Main. The community rule is the one n8n's verification scanner applies.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
];
