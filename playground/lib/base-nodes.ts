import { stableId, type NodeSpec, type Parameters } from '../../dev/workflow-builder';

/**
 * Makers for the n8n nodes of n8n-nodes-base that the example workflows use, placed where the example says, with
 * the settings an example wants (loose type validation, CSV with its byte order mark): each example then reads as
 * its list of nodes. The HaiPay nodes are in haipay-nodes.ts; the workflow itself is dev/workflow-builder.ts.
 */

export function stickyNote(
	name: string,
	content: string,
	position: [number, number],
	width: number,
	height: number,
): NodeSpec {
	return { name, type: 'n8n-nodes-base.stickyNote', typeVersion: 1, position, parameters: { content, width, height } };
}

export function manualTrigger(position: [number, number], name = 'Run'): NodeSpec {
	return { name, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position, parameters: {} };
}

export function readFile(
	name: string,
	path: string,
	position: [number, number],
	extra: Partial<NodeSpec> = {},
): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.readWriteFile',
		typeVersion: 1,
		position,
		parameters: { operation: 'read', fileSelector: path, options: {} },
		...extra,
	};
}

export function writeFile(name: string, path: string, position: [number, number], append = false): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.readWriteFile',
		typeVersion: 1,
		position,
		parameters: {
			operation: 'write',
			fileName: path,
			dataPropertyName: 'data',
			options: append ? { append: true } : {},
		},
	};
}

export function csvFromFile(name: string, position: [number, number]): NodeSpec {
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

export function csvToFile(name: string, fileName: string, position: [number, number]): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position,
		parameters: { operation: 'csv', binaryPropertyName: 'data', options: { fileName, headerRow: true } },
	};
}

/** A text file of the item's field `sourceProperty`, as binary `data`. */
export function textToFile(
	name: string,
	sourceProperty: string,
	fileName: string,
	position: [number, number],
): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position,
		parameters: { operation: 'toText', sourceProperty, binaryPropertyName: 'data', options: { fileName } },
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

export function ifNode(name: string, test: Parameters, position: [number, number]): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
		position,
		parameters: { conditions: test, looseTypeValidation: true, options: {} },
	};
}

export function switchNode(
	name: string,
	rules: Array<{ key: string; test: Parameters }>,
	position: [number, number],
	fallback?: string,
): NodeSpec {
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

export function merge(name: string, inputs: number, position: [number, number]): NodeSpec {
	return { name, type: 'n8n-nodes-base.merge', typeVersion: 3.1, position, parameters: { numberInputs: inputs } };
}

export function setFields(
	name: string,
	fields: Array<[string, string, string?]>,
	position: [number, number],
	includeOtherFields = false,
): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position,
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: fields.map(([field, value, type]) => ({
					id: stableId(name, field),
					name: field,
					value,
					type: type ?? 'string',
				})),
			},
			includeOtherFields,
			options: {},
		},
	};
}

/** An expression on the item's column of that name. */
export const row = (field: string) => `={{ $json.${field} }}`;
