import { existsSync } from 'fs';
import { join } from 'path';

import type { IExecuteFunctions, INodeExecutionData, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { INSTALL_DIR } from '../../playground/lib/paths';
import { testNodeDescription } from '../harness/nodes';

/**
 * n8n's own nodes (Set, If, Merge, Filter, Extract from File, Convert to File) from the pinned n8n the end-to-end
 * tests install, for the harness to run an example's nodes as saved in process: the same n8n-core and n8n-workflow
 * versions as this package's, so the nodes behave as on the server. Forms and triggers need the server.
 */

const NODES_DIR = join(INSTALL_DIR, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes');

const BASE_NODES: Record<string, [path: string, exported: string]> = {
	set: ['Set/Set.node.js', 'Set'],
	if: ['If/If.node.js', 'If'],
	merge: ['Merge/Merge.node.js', 'Merge'],
	filter: ['Filter/Filter.node.js', 'Filter'],
	extractFromFile: ['Files/ExtractFromFile/ExtractFromFile.node.js', 'ExtractFromFile'],
	convertToFile: ['Files/ConvertToFile/ConvertToFile.node.js', 'ConvertToFile'],
};

/** The node type answering to its workflow name (`n8n-nodes-base.set`), which the harness registers it under. */
function underFullName(type: INodeType | IVersionedNodeType, fullName: string): INodeType | IVersionedNodeType {
	const description = { ...type.description, name: fullName };
	return Object.assign(Object.create(Object.getPrototypeOf(type) as object) as object, type, { description }) as
		INodeType | IVersionedNodeType;
}

export async function baseNodeTypes(): Promise<Array<INodeType | IVersionedNodeType>> {
	if (!existsSync(NODES_DIR))
		throw new Error(`n8n is not installed at ${INSTALL_DIR}: run npm run playground:install (or set HAIPAY_N8N_DIR)`);
	const types: Array<INodeType | IVersionedNodeType> = [];
	for (const [name, [path, exported]] of Object.entries(BASE_NODES)) {
		const Type = ((await import(join(NODES_DIR, path))) as Record<string, new () => INodeType | IVersionedNodeType>)[
			exported
		];
		types.push(underFullName(new Type(), `n8n-nodes-base.${name}`));
	}
	return types;
}

/** What a test does in place of a node the harness cannot run (a form page), or to edit a sheet between two steps. */
export type Step = (items: INodeExecutionData[]) => INodeExecutionData[];

const STEPS = new Map<string, Step>();

/** Registers a step under a name, for a `harness.step` node whose parameter `step` names it. */
export function step(name: string, run: Step): string {
	STEPS.set(name, run);
	return name;
}

export const STEP_NODE_TYPE = 'harness.step';

export class HarnessStep implements INodeType {
	description = testNodeDescription('Harness Step', STEP_NODE_TYPE, 'Runs a step the test registered', {
		defaults: { name: 'Step' },
		properties: [{ displayName: 'Step', name: 'step', type: 'string', default: '' }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const run = STEPS.get(this.getNodeParameter('step', 0) as string);
		if (run === undefined) throw new Error('no such step');
		return [run(this.getInputData())];
	}
}
