/**
 * `npm run lint` runs this after eslint: the lint rules n8n's source already holds for community nodes and the
 * published @n8n/eslint-plugin-community-nodes does not ship yet (scripts/coming-rules/checks.ts), run against the
 * package's nodes as n8n loads them, so that a release of the plugin with them finds nothing new. Where the package
 * differs from a rule on purpose, the field is named below and the reason is in docs/n8n-coming-rules.md; anything
 * else fails. Exits 1 on a finding.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import {
	type Finding,
	hintMaxLength,
	noHardcodedIds,
	nonRequiredFieldsInCollection,
	requireMitLicense,
	requireParamDefault,
	singleCredentialPerNode,
	validNodeCategories,
} from './coming-rules/checks';

const ROOT = join(__dirname, '..');

/**
 * Top-level optional fields, per node, that stay where saved workflows keep them (a field moved into a collection
 * changes its parameter path). The reasons, one per key, are in docs/n8n-coming-rules.md.
 */
export const DELIBERATE_TOP_LEVEL: Record<string, Record<string, string>> = {
	haiPay: {
		currency: 'decides which fields show',
		fieldsFrom: 'decides which fields show',
		swiftCode: 'required for some currencies',
		city: 'required for some currencies',
		street: 'required for some currencies',
		postalCode: 'required for some currencies',
		subject: 'required for some currencies',
		birth: 'required for some currencies',
		identifyType: 'required for some currencies',
		gender: 'required for some currencies',
		network: 'required for some currencies',
		inBankNo: 'required for some currencies',
		callBackUrl: 'required for some currencies',
		callBackFailUrl: 'required for some currencies',
		clientType: 'required for some currencies',
		accountTypeText: 'required for the currencies of its kind (version 4 names a field by kind)',
		bankCodeText: 'required for the currencies of its kind (version 4 names a field by kind)',
		bankCodeList: 'required for the currencies of its kind (version 4 names a field by kind)',
		payTypeText: 'required for the currencies of its kind (version 4 names a field by kind)',
		payTypeList: 'required for the currencies of its kind (version 4 names a field by kind)',
		inBankCodeText: 'required for the currencies of its kind (version 4 names a field by kind)',
		inBankCodeList: 'required for the currencies of its kind (version 4 names a field by kind)',
		orderId: 'one of two identifiers',
		orderNo: 'one of two identifiers',
		subscriptionOrderId: 'one of two identifiers',
		subscriptionNo: 'one of two identifiers',
		refundNo: 'one of two identifiers',
		ordersCurrency: 'voucher request',
		lang: 'voucher request',
		isAmount: 'voucher request',
		getFee: 'voucher request',
		getSubject: 'voucher request',
		binaryPropertyName: 'voucher request',
	},
	haiPayTrigger: {
		kind: 'which callbacks start the workflow',
		statuses: 'which callbacks start the workflow',
		currency: 'which callbacks start the workflow',
		verifySignature: 'kept in sight',
	},
};

export interface LoadedNode {
	/** The node's source file, relative to the repository. */
	file: string;
	description: INodeTypeDescription;
	codex: Record<string, unknown>;
}

export interface PackageUnderCheck {
	packageJson: Record<string, unknown>;
	nodes: LoadedNode[];
	/** The published sources (nodes/, credentials/), relative path and text. */
	sources: Array<{ file: string; text: string }>;
}

function sourcesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourcesUnder(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/**
 * The nodes package.json declares, from their TypeScript sources so that lint needs no build. The path ends in
 * `.ts` because a module path ending `.node` is taken for a native addon.
 */
async function loadNode(root: string, distPath: string): Promise<LoadedNode> {
	const file = distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts');
	const exported = (await import(join(root, file))) as Record<string, unknown>;
	const NodeClass = Object.values(exported).find((value): value is new () => INodeType => typeof value === 'function');
	if (NodeClass === undefined) throw new Error(`${file} exports no node class`);
	const codex = JSON.parse(readFileSync(join(root, file.replace(/\.ts$/, '.json')), 'utf8')) as Record<string, unknown>;
	return { file, description: new NodeClass().description as INodeTypeDescription, codex };
}

export async function loadPackage(root = ROOT): Promise<PackageUnderCheck> {
	const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[] };
	} & Record<string, unknown>;
	const sources = ['nodes', 'credentials']
		.flatMap((dir) => sourcesUnder(join(root, dir)))
		.map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }));
	const nodes = await Promise.all(packageJson.n8n.nodes.map((path) => loadNode(root, path)));
	return { packageJson, nodes, sources };
}

export function checkPackage(pkg: PackageUnderCheck, deliberate = DELIBERATE_TOP_LEVEL): Finding[] {
	return [
		...requireMitLicense(pkg.packageJson),
		...pkg.nodes.flatMap(({ file, description, codex }) => [
			...requireParamDefault(description),
			...nonRequiredFieldsInCollection(description, deliberate[description.name]),
			...hintMaxLength(description),
			...singleCredentialPerNode(description),
			...validNodeCategories(file.replace(/\.ts$/, '.json'), codex),
		]),
		...pkg.sources.flatMap(({ file, text }) => noHardcodedIds(file, text)),
	];
}

async function main(): Promise<void> {
	const pkg = await loadPackage();
	const findings = checkPackage(pkg);
	for (const finding of findings) console.error(`${finding.rule}: ${finding.where}: ${finding.message}`);
	const recorded = Object.values(DELIBERATE_TOP_LEVEL).reduce((sum, fields) => sum + Object.keys(fields).length, 0);
	console.log(
		`n8n's coming rules: ${pkg.nodes.length} nodes, ${pkg.sources.length} sources, ${findings.length} findings ` +
			`(${recorded} top-level optional fields recorded as deliberate: docs/n8n-coming-rules.md)`,
	);
	if (findings.length > 0) process.exitCode = 1;
}

if (require.main === module) void main();
