import { createHash } from 'crypto';

/**
 * n8n workflow JSON written as code: the one builder of the benchmark's and queue tests' workflows (bench/) and of
 * the example workflows a person imports (playground/examples.ts, with its node makers in playground/lib/). Node ids
 * derive from the workflow's id and the node's name, so a workflow built twice is the same text.
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
	executeOnce?: boolean;
	notes?: string;
	notesInFlow?: boolean;
}

/** A node as a node maker gives it: the builder adds the id, and a position when it has none. */
export type NodeSpec = Omit<WorkflowNode, 'id' | 'position'> & { position?: [number, number] };

export type Connections = Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }>;

/** What n8n's REST API takes to create a workflow (POST /rest/workflows). */
export interface WorkflowBody {
	name: string;
	nodes: WorkflowNode[];
	connections: Connections;
	settings: Record<string, unknown>;
}

/** A workflow file as n8n exports it and `n8n import:workflow` (or the editor's import) reads it. */
export interface WorkflowFile extends WorkflowBody {
	id: string;
	pinData: Record<string, unknown>;
	active: boolean;
	versionId: string;
	meta: Record<string, unknown>;
	tags: unknown[];
}

/** The settings a workflow created in n8n's editor has. */
export const EDITOR_SETTINGS: Record<string, unknown> = { executionOrder: 'v1' };

/** The settings of an importable example: its manual runs saved, callable by the owner's other workflows. */
export const FILE_SETTINGS: Record<string, unknown> = {
	executionOrder: 'v1',
	saveManualExecutions: true,
	callerPolicy: 'workflowsFromSameOwner',
};

/** A UUID-shaped id made from `parts`: the same parts give the same id. */
export function stableId(...parts: string[]): string {
	const hex = createHash('sha256').update(parts.join('/')).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The longest workflow ID whose static data n8n 1.x saves (`isWorkflowIdValid` in n8n's dist/utils.js; 2.x takes
 * 21): of a longer one it saves none, warning only in its log, so a HaiPay Trigger's repeat memory is lost at restart.
 */
export const MAX_WORKFLOW_ID_LENGTH = 16;

/** Refuses a workflow ID n8n would take but keep no static data of. */
export function checkWorkflowId(id: string): void {
	if (id.length > 0 && id.length <= MAX_WORKFLOW_ID_LENGTH) return;
	throw new Error(
		`Workflow ID "${id}" has ${id.length} characters; use 1 to ${MAX_WORKFLOW_ID_LENGTH}: n8n 1.x saves no static ` +
			"data of a workflow with a longer ID, so the HaiPay Trigger's repeat memory would not survive a restart",
	);
}

/** Nodes without a position are laid out in a row, this far apart. */
const STEP_X = 220;

export class WorkflowBuilder {
	readonly nodes: WorkflowNode[] = [];
	readonly connections: Connections = {};

	/**
	 * `id`: the workflow's id in a file (at most `MAX_WORKFLOW_ID_LENGTH` characters); for a workflow sent to the REST
	 * API, which gives it an ID of n8n's own, any name that is its own.
	 */
	constructor(readonly id: string) {}

	/** Adds a node and returns its name, for `connect`. */
	add(node: NodeSpec): string {
		const position = node.position ?? [this.nodes.length * STEP_X, 0];
		this.nodes.push({ id: stableId(this.id, node.name), ...node, position });
		return node.name;
	}

	/** Connects output `output` of `from` to input `input` of `to`. */
	connect(from: string, to: string, output = 0, input = 0): void {
		const outputs = (this.connections[from] ??= { main: [] }).main;
		while (outputs.length <= output) outputs.push([]);
		outputs[output].push({ node: to, type: 'main', index: input });
	}

	/** The workflow as n8n's REST API creates it. */
	body(name: string, settings: Record<string, unknown> = EDITOR_SETTINGS): WorkflowBody {
		return { name, nodes: this.nodes, connections: this.connections, settings: { ...settings } };
	}

	/**
	 * The workflow as an importable file; its versionId changes only when its nodes or connections do. Here `id`
	 * becomes the workflow's ID in n8n, so it is checked (`checkWorkflowId`).
	 */
	file(name: string, description: string, settings: Record<string, unknown> = FILE_SETTINGS): WorkflowFile {
		checkWorkflowId(this.id);
		return {
			id: this.id,
			name,
			nodes: this.nodes,
			connections: this.connections,
			settings: { ...settings },
			pinData: {},
			active: false,
			versionId: stableId(this.id, 'version', JSON.stringify(this.nodes), JSON.stringify(this.connections)),
			meta: { templateCredsSetupCompleted: true, description },
			tags: [],
		};
	}
}
