import { randomUUID } from 'crypto';
import type {
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { HarnessNodeTypes } from './registry';
import { fullTypeName, latestVersion } from './registry';

/**
 * The description of a node that exists only for tests: version 1, one main input and one main output, no
 * parameters, its name on the canvas its display name; `extra` says where it differs.
 */
export function testNodeDescription(
	displayName: string,
	name: string,
	description: string,
	extra: Partial<INodeTypeDescription> = {},
): INodeTypeDescription {
	return {
		displayName,
		name,
		group: ['transform'],
		version: 1,
		description,
		defaults: { name: displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
		...extra,
	};
}

export const START_NODE_TYPE = 'harness.start';
export const NO_OP_NODE_TYPE = 'harness.noOp';
export const COUNT_RUNS_NODE_TYPE = 'harness.countRuns';

/**
 * Where a harness run begins: emits the run's input items unchanged (they are put on its execution stack, the way
 * n8n puts a webhook's or a manual trigger's output there). Binary given as Buffers has been stored through
 * n8n-core's BinaryDataService before the run starts.
 */
export class HarnessStart implements INodeType {
	description = testNodeDescription('Harness Start', START_NODE_TYPE, 'Emits the items the test gives', {
		group: ['trigger'],
		defaults: { name: 'Start' },
		inputs: [],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/** Passes its input through; a place to hang connections or to check what reached a point of the workflow. */
export class HarnessNoOp implements INodeType {
	description = testNodeDescription('Harness No Op', NO_OP_NODE_TYPE, 'Passes items through', {
		defaults: { name: 'No Op' },
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/**
 * A later step that keeps static data of its own, as a Code node running
 * `const s = $getWorkflowStaticData('global'); s.count = (s.count ?? 0) + 1; return $input.all();` does: it counts
 * its runs in the workflow's global static data and passes its input through. n8n's Code node needs n8n's task
 * runner, which does not run in this process; this one changes static data through the same public API, so the run
 * ends with its static data marked changed and n8n saves that copy whole.
 */
export class HarnessCountRuns implements INodeType {
	description = testNodeDescription(
		'Harness Count Runs',
		COUNT_RUNS_NODE_TYPE,
		'Counts its runs in the global static data, and passes items through',
		{
			defaults: { name: 'Count Runs' },
		},
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const data = this.getWorkflowStaticData('global');
		data.count = ((data.count as number | undefined) ?? 0) + 1;
		return [this.getInputData()];
	}
}

/**
 * A node as a test writes it: only `name` and `type` are required. `type` may be the bare name (`haiPay`) or the
 * full one (`n8n-nodes-haipay.haiPay`). `credentials` may map a credential type to just a credential id.
 */
export type NodeSpec = Omit<Partial<INode>, 'credentials' | 'parameters'> & {
	name: string;
	type: string;
	/** Node parameters; plain data objects are accepted as they are. */
	parameters?: INodeParameters | IDataObject;
	credentials?: Record<string, string | INodeCredentialsDetails>;
};

/** Fills in what n8n's editor would: id, the type's latest version, position, credential names, webhook id. */
export function toNode(spec: NodeSpec, nodeTypes: HarnessNodeTypes, index = 0): INode {
	const type = nodeTypes.getByName(spec.type);
	const credentials: INode['credentials'] = {};
	for (const [credentialType, value] of Object.entries(spec.credentials ?? {})) {
		credentials[credentialType] = typeof value === 'string' ? { id: value, name: value } : value;
	}
	const node: INode = {
		...spec,
		id: spec.id ?? randomUUID(),
		type: spec.type.includes('.') ? spec.type : fullTypeName(spec.type),
		typeVersion: spec.typeVersion ?? latestVersion(type),
		position: spec.position ?? [index * 220, 0],
		parameters: (spec.parameters ?? {}) as INodeParameters,
		credentials: Object.keys(credentials).length > 0 ? credentials : undefined,
	};
	if (node.credentials === undefined) delete node.credentials;
	const description = nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description;
	if (description.webhooks?.length && node.webhookId === undefined) node.webhookId = randomUUID();
	return node;
}

/** Main connections that run `names` one after the other, first output to first input. */
export function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i + 1 < names.length; i++) {
		connections[names[i]] = {
			[NodeConnectionTypes.Main]: [[{ node: names[i + 1], type: NodeConnectionTypes.Main, index: 0 }]],
		};
	}
	return connections;
}

/** Adds a main connection `from`[output] → `to`[input] to `connections` (mutates and returns it). */
export function connect(connections: IConnections, from: string, to: string, output = 0, input = 0): IConnections {
	const outputs = (connections[from] ??= {});
	const main = (outputs[NodeConnectionTypes.Main] ??= []);
	while (main.length <= output) main.push([]);
	(main[output] ??= []).push({ node: to, type: NodeConnectionTypes.Main, index: input });
	return connections;
}
