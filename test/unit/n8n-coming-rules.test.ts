import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import {
	hintMaxLength,
	noHardcodedIds,
	nonRequiredFieldsInCollection,
	requireMitLicense,
	requireParamDefault,
	singleCredentialPerNode,
	validNodeCategories,
} from '../../scripts/coming-rules/checks';
import {
	checkPackage,
	DELIBERATE_TOP_LEVEL,
	loadPackage,
	type PackageUnderCheck,
} from '../../scripts/n8n-coming-rules';

/** A minimal node description with the given parameters and credentials. */
function node(properties: unknown[], credentials: INodeTypeDescription['credentials'] = []): INodeTypeDescription {
	return { name: 'sample', credentials, properties: properties as INodeProperties[] } as INodeTypeDescription;
}

const rules = (findings: Array<{ rule: string }>) => findings.map((finding) => finding.rule);

describe("n8n's coming lint rules on this package", () => {
	let pkg: PackageUnderCheck;
	beforeAll(async () => {
		pkg = await loadPackage();
	});

	it('loads every node package.json declares, and the published sources', () => {
		expect(pkg.nodes.map((loaded) => loaded.description.name).sort()).toEqual(['haiPay', 'haiPayTrigger']);
		expect(pkg.sources.length).toBeGreaterThan(50);
	});

	it('finds nothing beyond the recorded differences', () => {
		expect(checkPackage(pkg)).toEqual([]);
	});

	it('fails as soon as a recorded difference is taken away, or a new optional field appears at the top level', () => {
		const { haiPay, ...others } = DELIBERATE_TOP_LEVEL;
		const { lang: _lang, ...withoutLang } = haiPay;
		expect(checkPackage(pkg, { ...others, haiPay: withoutLang })).toEqual([
			expect.objectContaining({ rule: 'non-required-fields-in-collection', where: 'haiPay.lang' }),
		]);
	});
});

describe('each check fails on a crafted bad description', () => {
	it('require-param-default: a parameter without a default, at the top level or inside a collection', () => {
		const good = { name: 'a', type: 'string', default: '' };
		expect(requireParamDefault(node([good]))).toEqual([]);
		expect(rules(requireParamDefault(node([{ name: 'a', type: 'string' }])))).toEqual(['require-param-default']);
		const collection = { name: 'more', type: 'collection', default: {}, options: [{ name: 'b', type: 'boolean' }] };
		expect(requireParamDefault(node([collection]))[0].where).toBe('sample.b');
		const locator = {
			name: 'c',
			type: 'resourceLocator',
			default: { mode: 'id', value: '' },
			modes: [{ name: 'id', type: 'string' }],
		};
		expect(requireParamDefault(node([locator]))).toEqual([]);
	});

	it('non-required-fields-in-collection: an optional top-level field, unless recorded; a record with no such field', () => {
		const fields = [
			{ name: 'resource', type: 'options', default: 'a' },
			{ name: 'id', type: 'string', default: '', required: true },
			{ name: 'note', type: 'notice', default: '' },
			{ name: 'additionalFields', type: 'collection', default: {}, options: [] },
			{ name: 'limit', type: 'number', default: 50 },
		];
		expect(nonRequiredFieldsInCollection(node(fields)).map((finding) => finding.where)).toEqual(['sample.limit']);
		expect(nonRequiredFieldsInCollection(node(fields), { limit: 'why' })).toEqual([]);
		expect(
			nonRequiredFieldsInCollection(node(fields), { limit: 'why', id: 'why' }).map((finding) => finding.where),
		).toEqual(['sample.id']);
	});

	it('hint-max-length: a hint over 120 characters, wherever it sits', () => {
		const nested = (hint: string) =>
			node([
				{ name: 'more', type: 'collection', default: {}, options: [{ name: 'a', type: 'string', default: '', hint }] },
			]);
		expect(hintMaxLength(nested('x'.repeat(120)))).toEqual([]);
		expect(rules(hintMaxLength(nested('x'.repeat(121))))).toEqual(['hint-max-length']);
	});

	it('single-credential-per-node: two credentials that can apply at once; alternatives that exclude each other pass', () => {
		const either = (a: string[], b: string[]) =>
			node(
				[],
				[
					{ name: 'oneApi', required: true, displayOptions: { show: { authentication: a } } },
					{ name: 'twoApi', required: true, displayOptions: { show: { authentication: b } } },
				],
			);
		expect(singleCredentialPerNode(node([], [{ name: 'oneApi', required: true }]))).toEqual([]);
		expect(singleCredentialPerNode(either(['key'], ['oAuth2']))).toEqual([]);
		expect(rules(singleCredentialPerNode(either(['key'], ['key', 'oAuth2'])))).toEqual(['single-credential-per-node']);
		expect(rules(singleCredentialPerNode(node([], [{ name: 'oneApi' }, { name: 'twoApi' }])))).toEqual([
			'single-credential-per-node',
		]);
	});

	it('valid-node-categories: an unknown or empty category, and AI subcategories without the AI category', () => {
		expect(validNodeCategories('x.node.json', { categories: ['Finance & Accounting'] })).toEqual([]);
		expect(rules(validNodeCategories('x.node.json', { categories: ['Finance'] }))).toEqual(['valid-node-categories']);
		expect(validNodeCategories('x.node.json', { categories: ['Marketing'] })[0].message).toContain(
			'Marketing & Content',
		);
		expect(rules(validNodeCategories('x.node.json', { categories: [] }))).toEqual(['valid-node-categories']);
		expect(
			rules(validNodeCategories('x.node.json', { categories: ['Sales'], subcategories: { AI: ['Tools'] } })),
		).toEqual(['valid-node-categories']);
		expect(validNodeCategories('x.node.json', { categories: ['AI'], subcategories: { AI: ['Tools'] } })).toEqual([]);
	});

	it('require-mit-license: a licence other than MIT, or none', () => {
		expect(requireMitLicense({ license: 'MIT' })).toEqual([]);
		expect(rules(requireMitLicense({ license: 'ISC' }))).toEqual(['require-mit-license']);
		expect(rules(requireMitLicense({}))).toEqual(['require-mit-license']);
	});

	it('no-hardcoded-ids: a fixed partner, account or client ID in a declaration, a property or an assignment', () => {
		const found = (text: string) => noHardcodedIds('x.node.ts', text).map((finding) => finding.where);
		expect(
			found(
				"const partnerId = 'p-1';\nconst x = { accountId: 'a-1' };\nthis.clientId = 'c-1';\nclass A { tenant_id = 't'; }",
			),
		).toEqual(['x.node.ts:1', 'x.node.ts:2', 'x.node.ts:3', 'x.node.ts:4']);
		expect(
			found(
				"const partnerId = this.getNodeParameter('partnerId', 0);\nconst partnerUserId = 'u';\nconst n = { name: 'accountId' };",
			),
		).toEqual([]);
	});
});
