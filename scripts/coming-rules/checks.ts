/**
 * Rules that n8n's source holds (https://github.com/n8n-io/n8n/tree/master/packages/@n8n/eslint-plugin-community-nodes/src/rules)
 * but that the published plugin here (0.32.0) does not ship yet. Each keeps the rule's name and conditions. n8n's
 * rules read the object literal in a node's main file, which here is mostly spreads of descriptions built elsewhere,
 * so they would see little; these read the descriptions as n8n loads them, every version's parameters included.
 */
import type { INodeCredentialDescription, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import ts from 'typescript';

export interface Finding {
	rule: string;
	where: string;
	message: string;
}

/** n8n's NodePropertyTypes, as require-param-default lists them: an object with a name and one of these is a parameter. */
const PARAMETER_TYPES = new Set([
	'boolean',
	'button',
	'collection',
	'color',
	'dateTime',
	'fixedCollection',
	'hidden',
	'icon',
	'json',
	'callout',
	'notice',
	'multiOptions',
	'number',
	'options',
	'string',
	'credentialsSelect',
	'resourceLocator',
	'curlImport',
	'resourceMapper',
	'filter',
	'assignmentCollection',
	'credentials',
	'workflowSelector',
]);

/**
 * Every object under `value`, the value itself first. `skipModes` leaves out a resource locator's modes: n8n's type
 * for a mode (INodePropertyMode) has no `default`, the locator's own default holds the mode and value, and a mode
 * typed 'string' would otherwise look like a parameter (docs/n8n-coming-rules.md).
 */
function* objectsUnder(value: unknown, skipModes = false): Generator<Record<string, unknown>> {
	if (Array.isArray(value)) {
		for (const element of value) yield* objectsUnder(element, skipModes);
	} else if (value !== null && typeof value === 'object') {
		const object = value as Record<string, unknown>;
		yield object;
		for (const [key, child] of Object.entries(object)) {
			if (!(skipModes && key === 'modes' && object.type === 'resourceLocator')) yield* objectsUnder(child, skipModes);
		}
	}
}

/** require-param-default: without a default n8n cannot initialise a parameter the same way in the editor and at run time. */
export function requireParamDefault(description: INodeTypeDescription): Finding[] {
	return [...objectsUnder(description, true)]
		.filter(
			(object) =>
				typeof object.name === 'string' && PARAMETER_TYPES.has(object.type as string) && !('default' in object),
		)
		.map((object) => ({
			rule: 'require-param-default',
			where: `${description.name}.${object.name as string}`,
			message: 'no `default`',
		}));
}

export const MAX_HINT_LENGTH = 120;

/** hint-max-length: a hint renders inline under its field; a long one pushes the panel down (n8n's 95th percentile). */
export function hintMaxLength(description: INodeTypeDescription): Finding[] {
	return [...objectsUnder(description)]
		.filter((object) => typeof object.hint === 'string' && object.hint.length > MAX_HINT_LENGTH)
		.map((object) => ({
			rule: 'hint-max-length',
			where: `${description.name}.${String(object.name ?? '?')}`,
			message: `hint of ${(object.hint as string).length} characters, over ${MAX_HINT_LENGTH}`,
		}));
}

/** The rule's own exemptions: containers, fields that hold no input, and the selectors that decide what else shows. */
const CONTAINER_TYPES = new Set(['collection', 'fixedCollection']);
const NON_INPUT_TYPES = new Set(['notice', 'callout', 'hidden', 'curlImport']);
const SELECTOR_NAMES = new Set(['resource', 'operation', 'authentication']);

/**
 * non-required-fields-in-collection: a top-level parameter that is not `required: true` belongs in an Additional
 * Fields / Options collection. `recorded` names, per node, the fields that differ on purpose (each with its reason);
 * a recorded field that no longer exists at the top level is reported too, so the record cannot outlive the code.
 */
export function nonRequiredFieldsInCollection(
	description: INodeTypeDescription,
	recorded: Record<string, string> = {},
): Finding[] {
	const rule = 'non-required-fields-in-collection';
	const topLevel = description.properties.filter(
		(property) =>
			!SELECTOR_NAMES.has(property.name) && !CONTAINER_TYPES.has(property.type) && !NON_INPUT_TYPES.has(property.type),
	);
	const found = new Set<string>();
	const findings: Finding[] = [];
	for (const property of topLevel.filter((candidate) => candidate.required !== true)) {
		found.add(property.name);
		if (recorded[property.name] !== undefined) continue;
		findings.push({
			rule,
			where: `${description.name}.${property.name}`,
			message: 'not required, at the top level: move it into a collection or record why',
		});
	}
	for (const name of Object.keys(recorded).filter((name) => !found.has(name))) {
		findings.push({
			rule,
			where: `${description.name}.${name}`,
			message: 'recorded as a deliberate difference, but no such top-level field is optional',
		});
	}
	return findings;
}

type Conditions = Map<string, unknown[]>;

function showConditions(credential: INodeCredentialDescription): Conditions {
	const show: Record<string, unknown> = credential.displayOptions?.show ?? {};
	return new Map(Object.entries(show).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1])));
}

/** Two credentials never show together when some single-valued parameter must take different values for each. */
function mutuallyExclusive(left: Conditions, right: Conditions, multiOptions: Set<string>): boolean {
	for (const [name, leftValues] of left) {
		const rightValues = right.get(name);
		if (multiOptions.has(name) || rightValues === undefined || leftValues.length === 0 || rightValues.length === 0)
			continue;
		if (leftValues.every((value) => !rightValues.includes(value))) return true;
	}
	return false;
}

/** single-credential-per-node: a node uses one credential at a time; alternatives must exclude each other. */
export function singleCredentialPerNode(description: INodeTypeDescription): Finding[] {
	const credentials = description.credentials ?? [];
	const multiOptions = new Set(
		description.properties
			.filter((property: INodeProperties) => property.type === 'multiOptions')
			.map((property) => property.name),
	);
	for (let left = 0; left < credentials.length - 1; left++) {
		for (let right = left + 1; right < credentials.length; right++) {
			if (!mutuallyExclusive(showConditions(credentials[left]), showConditions(credentials[right]), multiOptions)) {
				return [
					{
						rule: 'single-credential-per-node',
						where: description.name,
						message: `${credentials[left].name} and ${credentials[right].name} can both apply at once`,
					},
				];
			}
		}
	}
	return [];
}

const CATEGORIES = new Set([
	'Data & Storage',
	'Finance & Accounting',
	'Marketing & Content',
	'Productivity',
	'Miscellaneous',
	'Sales',
	'Development',
	'Analytics',
	'Communication',
	'Utility',
	'AI',
]);
const AI_SUBCATEGORIES = new Set([
	'Agents',
	'Chains',
	'Language Models',
	'Memory',
	'Output Parsers',
	'Tools',
	'Vector Stores',
	'Retrievers',
	'Embeddings',
	'Document Loaders',
	'Text Splitters',
	'Other Tools',
	'Root Nodes',
	'Model Context Protocol',
	'Human in the Loop',
	'Miscellaneous',
	'Rerankers',
	'Evaluation',
]);

/** valid-node-categories: an unknown category can hide the node from the node panel's search. */
export function validNodeCategories(file: string, codex: Record<string, unknown>): Finding[] {
	const finding = (message: string) => ({ rule: 'valid-node-categories', where: file, message });
	const { categories, subcategories } = codex;
	if (categories === undefined && subcategories === undefined) return [];
	if (categories !== undefined && (!Array.isArray(categories) || categories.length === 0))
		return [finding('"categories" must be a non-empty array')];
	const list = (categories ?? []) as unknown[];
	const findings = list
		.filter((category) => typeof category !== 'string' || !CATEGORIES.has(category))
		.map((category) =>
			finding(
				`"${String(category)}" is not a community node category${category === 'Marketing' ? ' (use "Marketing & Content")' : ''}`,
			),
		);
	const ai = (subcategories as Record<string, unknown> | undefined)?.AI;
	if (subcategories !== undefined && (typeof subcategories !== 'object' || ai === undefined))
		findings.push(finding('"subcategories" must be an object with an AI category'));
	if (list.includes('AI') && (!Array.isArray(ai) || ai.length === 0))
		findings.push(finding('the "AI" category needs a non-empty subcategories.AI'));
	if (ai !== undefined && !list.includes('AI')) findings.push(finding('subcategories.AI needs "AI" in categories'));
	for (const subcategory of Array.isArray(ai) ? ai : []) {
		if (typeof subcategory !== 'string' || !AI_SUBCATEGORIES.has(subcategory))
			findings.push(finding(`"${String(subcategory)}" is not an AI subcategory`));
	}
	return findings;
}

/** require-mit-license: n8n lists only MIT-licensed community packages. */
export function requireMitLicense(packageJson: Record<string, unknown>): Finding[] {
	if (packageJson.license === 'MIT') return [];
	return [
		{
			rule: 'require-mit-license',
			where: 'package.json',
			message: `"license" is ${JSON.stringify(packageJson.license)}, not "MIT"`,
		},
	];
}

/** Names the rule takes for an account's identifier: a fixed one would tie every user to one partner or account. */
const CONFIGURABLE_ID_NAME = /^(?:partner|affiliate|reseller|account|tenant|customer|client)(?:[_-]?id)$/i;

function keyName(name: ts.PropertyName | ts.MemberName | ts.Expression): string | undefined {
	if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
	return undefined;
}

/** The name and value of a declaration, property or assignment that gives a name a value, if `node` is one. */
function namedValue(node: ts.Node): [string | undefined, ts.Node | undefined] | undefined {
	if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) return [node.name.text, node.initializer];
	if (ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) return [keyName(node.name), node.initializer];
	if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
		const left = node.left;
		if (ts.isIdentifier(left)) return [left.text, node.right];
		if (ts.isPropertyAccessExpression(left)) return [left.name.text, node.right];
		if (ts.isElementAccessExpression(left) && ts.isStringLiteral(left.argumentExpression))
			return [left.argumentExpression.text, node.right];
	}
	return undefined;
}

/** no-hardcoded-ids: a partner, account or client ID written into the code, where a parameter or credential should give it. */
export function noHardcodedIds(file: string, text: string): Finding[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
	const findings: Finding[] = [];
	const visit = (node: ts.Node) => {
		const [name, value] = namedValue(node) ?? [];
		if (name !== undefined && value !== undefined && CONFIGURABLE_ID_NAME.test(name) && ts.isStringLiteral(value)) {
			const line = source.getLineAndCharacterOfPosition(value.getStart(source)).line + 1;
			findings.push({ rule: 'no-hardcoded-ids', where: `${file}:${line}`, message: `\`${name}\` is a fixed string` });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return findings;
}
