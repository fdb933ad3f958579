/**
 * What n8n's editor (2.40) does to a node's parameters when one is changed in the panel, so that a test can save a
 * node as the editor would after "pick, then switch the currency". The editor (ParameterInputList's
 * updateNodeParameter) reads the parameters without defaults, sets the new value, drops the value of every drop-down
 * that depends on the changed parameter, is shown, and does not offer the value it holds, then fills the defaults in
 * again. Everything else is kept: a value of a parameter whose name another, shown one also has, stays.
 */
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

function isOptionList(options: unknown[]): boolean {
	return options.every((option) => typeof option === 'object' && option !== null && 'value' in option);
}

function dropMismatchedChoices(
	description: INodeTypeDescription,
	node: INode,
	values: INodeParameters,
	changed: string,
): void {
	for (const property of description.properties as INodeProperties[]) {
		const display = property.displayOptions;
		if (!Object.prototype.hasOwnProperty.call(values, property.name) || !display || !property.options) continue;
		if (display.show?.[changed] === undefined && display.hide?.[changed] === undefined) continue;
		const offered = isOptionList(property.options)
			? property.options.some((option) => (option as { value: unknown }).value === values[property.name])
			: Object.keys((values[property.name] ?? {}) as object).every((key) =>
					(property.options ?? []).some((option) => option.name === key),
				);
		if (!offered && NodeHelpers.displayParameter(values, property, node, description)) delete values[property.name];
	}
}

/** The node's parameters after the panel sets `name` to `value`, as the editor computes them. */
export function editorSet(
	description: INodeTypeDescription,
	node: INode,
	name: string,
	value: INodeParameters[string],
): INodeParameters {
	const { properties } = description;
	const bare = {
		...(NodeHelpers.getNodeParameters(properties, node.parameters, false, false, node, description) ?? {}),
	};
	bare[name] = value;
	dropMismatchedChoices(description, node, bare, name);
	return NodeHelpers.getNodeParameters(properties, bare, true, false, node, description) ?? {};
}

/** A node of the given version, its parameters set one after another as in the panel, from a new node's defaults. */
export function editorNode(
	description: INodeTypeDescription,
	typeVersion: number,
	steps: Array<[name: string, value: INodeParameters[string]]>,
	base: Partial<INode> = {},
): INode {
	const node: INode = {
		id: 'haipay-node',
		name: 'HaiPay',
		type: 'n8n-nodes-haipay.haiPay',
		typeVersion,
		position: [0, 0],
		parameters: {},
		...base,
	};
	node.parameters = NodeHelpers.getNodeParameters(description.properties, {}, true, false, node, description) ?? {};
	for (const [name, value] of steps) node.parameters = editorSet(description, node, name, value);
	return node;
}
