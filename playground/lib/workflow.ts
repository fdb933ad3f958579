import { createHash } from 'crypto';

/**
 * Building blocks of the example workflows: n8n's workflow JSON as types, a builder that gives every node a stable
 * id, and makers for the n8n nodes the examples use, so that each example reads as its list of nodes.
 */

export type Parameters = Record<string, unknown>;

/** A node as n8n's workflow JSON holds it. */
export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Parameters;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	onError?: 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow';
	alwaysOutputData?: boolean;
	notes?: string;
	notesInFlow?: boolean;
}

export type Connections = Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }>;

export interface Workflow {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Connections;
	settings: Record<string, unknown>;
	pinData: Record<string, unknown>;
	active: boolean;
	versionId: string;
	meta: Record<string, unknown>;
	tags: unknown[];
}

export function stableId(...parts: string[]): string {
	const hex = createHash('sha256').update(parts.join('/')).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export class Builder {
	readonly nodes: WorkflowNode[] = [];
	readonly connections: Connections = {};

	constructor(readonly id: string) {}

	add(node: Omit<WorkflowNode, 'id'>): string {
		this.nodes.push({ id: stableId(this.id, node.name), ...node });
		return node.name;
	}

	connect(from: string, to: string, output = 0, input = 0): void {
		const outputs = (this.connections[from] ??= { main: [] }).main;
		while (outputs.length <= output) outputs.push([]);
		outputs[output].push({ node: to, type: 'main', index: input });
	}

	workflow(name: string, description: string): Workflow {
		return {
			id: this.id,
			name,
			nodes: this.nodes,
			connections: this.connections,
			settings: { executionOrder: 'v1', saveManualExecutions: true, callerPolicy: 'workflowsFromSameOwner' },
			pinData: {},
			active: false,
			versionId: stableId(this.id, 'version', JSON.stringify(this.nodes), JSON.stringify(this.connections)),
			meta: { templateCredsSetupCompleted: true, description },
			tags: [],
		};
	}
}

// ---- node makers ---------------------------------------------------------------------------------------

export function stickyNote(name: string, content: string, position: [number, number], width: number, height: number): Omit<WorkflowNode, 'id'> {
	return { name, type: 'n8n-nodes-base.stickyNote', typeVersion: 1, position, parameters: { content, width, height } };
}

export function manualTrigger(position: [number, number], name = 'Run'): Omit<WorkflowNode, 'id'> {
	return { name, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position, parameters: {} };
}

export function readFile(name: string, path: string, position: [number, number], extra: Partial<WorkflowNode> = {}): Omit<WorkflowNode, 'id'> {
	return {
		name,
		type: 'n8n-nodes-base.readWriteFile',
		typeVersion: 1,
		position,
		parameters: { operation: 'read', fileSelector: path, options: {} },
		...extra,
	};
}

export function writeFile(name: string, path: string, position: [number, number], append = false): Omit<WorkflowNode, 'id'> {
	return {
		name,
		type: 'n8n-nodes-base.readWriteFile',
		typeVersion: 1,
		position,
		parameters: { operation: 'write', fileName: path, dataPropertyName: 'data', options: append ? { append: true } : {} },
	};
}

export function csvFromFile(name: string, position: [number, number]): Omit<WorkflowNode, 'id'> {
	return {
		name,
		type: 'n8n-nodes-base.extractFromFile',
		typeVersion: 1.1,
		position,
		// A CSV written by Convert to File starts with a byte order mark; without enableBOM it would become part of
		// the first column's name.
		parameters: { operation: 'csv', binaryPropertyName: 'data', options: { headerRow: true, enableBOM: true } },
	};
}

export function csvToFile(name: string, fileName: string, position: [number, number]): Omit<WorkflowNode, 'id'> {
	return {
		name,
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position,
		parameters: { operation: 'csv', binaryPropertyName: 'data', options: { fileName, headerRow: true } },
	};
}

export function condition(leftValue: string, operation: string, rightValue: unknown, type = 'string'): Parameters {
	const operator: Parameters = { type, operation };
	if (['exists', 'notExists', 'empty', 'notEmpty', 'true', 'false'].includes(operation)) operator.singleValue = true;
	return { id: stableId(leftValue, operation, String(rightValue)), leftValue, rightValue, operator };
}

export function conditions(list: Parameters[], combinator: 'and' | 'or' = 'and'): Parameters {
	return {
		options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
		conditions: list,
		combinator,
	};
}

export function ifNode(name: string, test: Parameters, position: [number, number]): Omit<WorkflowNode, 'id'> {
	return { name, type: 'n8n-nodes-base.if', typeVersion: 2.2, position, parameters: { conditions: test, looseTypeValidation: true, options: {} } };
}

export function switchNode(
	name: string,
	rules: Array<{ key: string; test: Parameters }>,
	position: [number, number],
	fallback?: string,
): Omit<WorkflowNode, 'id'> {
	return {
		name,
		type: 'n8n-nodes-base.switch',
		typeVersion: 3.2,
		position,
		parameters: {
			rules: { values: rules.map((rule) => ({ conditions: rule.test, renameOutput: true, outputKey: rule.key })) },
			looseTypeValidation: true,
			options: fallback ? { fallbackOutput: 'extra', renameFallbackOutput: fallback } : {},
		},
	};
}

export function merge(name: string, inputs: number, position: [number, number]): Omit<WorkflowNode, 'id'> {
	return { name, type: 'n8n-nodes-base.merge', typeVersion: 3.1, position, parameters: { numberInputs: inputs } };
}

export function sortBy(name: string, field: string, position: [number, number]): Omit<WorkflowNode, 'id'> {
	return {
		name,
		type: 'n8n-nodes-base.sort',
		typeVersion: 1,
		position,
		parameters: { sortFieldsUi: { sortField: [{ fieldName: field, order: 'ascending' }] }, options: {} },
	};
}

export function setFields(
	name: string,
	fields: Array<[string, string, string?]>,
	position: [number, number],
	includeOtherFields = false,
): Omit<WorkflowNode, 'id'> {
	return {
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position,
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: fields.map(([field, value, type]) => ({ id: stableId(name, field), name: field, value, type: type ?? 'string' })),
			},
			includeOtherFields,
			options: {},
		},
	};
}

/** An expression on the item's column of that name. */
export const row = (field: string) => `={{ $json.${field} }}`;
