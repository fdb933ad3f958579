import type { IConnections, IDataObject, INode, IWorkflowBase, IWorkflowSettings } from 'n8n-workflow';
import { NodeHelpers, UserError, Workflow } from 'n8n-workflow';

import { HaiPayApi } from '../../credentials/HaiPayApi.credentials';
import type { CredentialStore } from './credentials-helper';
import { HarnessCredentialsHelper } from './credentials-helper';
import type { NodeSpec } from './nodes';
import { HarnessCountRuns, HarnessNoOp, HarnessStart, START_NODE_TYPE, chain, toNode } from './nodes';
import type { CredentialTypeInput, NodeTypeInput } from './registry';
import { HarnessCredentialTypes, HarnessNodeTypes } from './registry';

/** What both `runWorkflow` and `webhookServer` take to describe a workflow. */
export interface WorkflowDefinition {
	/** The workflow's nodes. `runWorkflow` adds its own start node named "Start" unless one with that name is given. */
	nodes: NodeSpec[];
	/**
	 * n8n connections. When left out the nodes run in a line, in the order given (after "Start" for
	 * `runWorkflow`, starting at the trigger for `webhookServer`).
	 */
	connections?: IConnections;
	/** Credentials by id. A node that needs a type and names none gets the only credential of that type. */
	credentials?: CredentialStore;
	/** Node classes (or instances) under test; the harness's own helper nodes (nodes.ts) are always there. */
	nodeTypes?: NodeTypeInput[];
	/** Extra credential types; HaiPayApi is always there. */
	credentialTypes?: CredentialTypeInput[];
	/** Workflow settings; `executionOrder` defaults to 'v1' like any workflow created in n8n 1.0+. */
	settings?: IWorkflowSettings;
	workflowId?: string;
	workflowName?: string;
}

let lastWorkflowId = 0;

/** The definition turned into what n8n-core needs, shared by every execution of one workflow. */
export interface PreparedWorkflow {
	id: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
	settings: IWorkflowSettings;
	nodeTypes: HarnessNodeTypes;
	credentialTypes: HarnessCredentialTypes;
	credentialsHelper: HarnessCredentialsHelper;
	credentials: CredentialStore;
	/** A fresh n8n Workflow over these nodes (one per execution, as the n8n server does). */
	instantiate(staticData?: IDataObject): Workflow;
	/** The IWorkflowBase n8n's hooks and webhook helpers expect. */
	base(): IWorkflowBase;
}

/** Gives a node the only stored credential of a type its description requires, when the node names none. */
function wireCredentials(node: INode, nodeTypes: HarnessNodeTypes, credentials: CredentialStore): void {
	const description = nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description;
	for (const credential of description.credentials ?? []) {
		if (node.credentials?.[credential.name] !== undefined) continue;
		if (!NodeHelpers.displayParameter(node.parameters, credential, node, description, node.parameters)) continue;
		const candidates = Object.entries(credentials).filter(([, entry]) => entry.type === credential.name);
		if (candidates.length !== 1) continue;
		const [id, entry] = candidates[0];
		node.credentials = { ...node.credentials, [credential.name]: { id, name: entry.name ?? id } };
	}
}

let lastCredentialSerial = 0;

/**
 * The definition's credentials, each under an id unique to this prepared workflow, as n8n's ids are per stored
 * credential: a node may keep what it read by the id. Returns them and the mapping from a given id.
 */
function storeCredentials(
	given: CredentialStore | undefined,
	credentialTypes: HarnessCredentialTypes,
): { credentials: CredentialStore; storedId: (id: string) => string } {
	const serial = ++lastCredentialSerial;
	const storedId = (id: string) => `${id}~${serial}`;
	const credentials: CredentialStore = Object.fromEntries(
		Object.entries(structuredClone(given ?? {})).map(([id, entry]) => [
			storedId(id),
			{ ...entry, name: entry.name ?? id },
		]),
	);
	for (const [id, entry] of Object.entries(credentials)) {
		if (!credentialTypes.recognizes(entry.type)) {
			throw new UserError(
				`Credential "${id}" has type "${entry.type}", which is not registered (credentialTypes option).`,
			);
		}
	}
	return { credentials, storedId };
}

/** The nodes, "Start" first when asked for, names unique, credential references pointed at the stored credentials. */
function buildNodes(
	given: NodeSpec[],
	addStart: boolean,
	nodeTypes: HarnessNodeTypes,
	{ credentials, storedId }: ReturnType<typeof storeCredentials>,
): INode[] {
	const specs = [...given];
	if (addStart && !specs.some((spec) => spec.name === 'Start')) {
		specs.unshift({ name: 'Start', type: START_NODE_TYPE });
	}
	const names = new Set<string>();
	for (const spec of specs) {
		if (names.has(spec.name)) throw new UserError(`Two nodes are named "${spec.name}"; n8n needs unique node names.`);
		names.add(spec.name);
	}
	const nodes = specs.map((spec, index) => toNode(spec, nodeTypes, index));
	for (const node of nodes) {
		for (const reference of Object.values(node.credentials ?? {})) {
			if (reference.id !== null && credentials[storedId(reference.id)] !== undefined)
				reference.id = storedId(reference.id);
		}
		wireCredentials(node, nodeTypes, credentials);
	}
	return nodes;
}

export function prepareWorkflow(definition: WorkflowDefinition, options: { addStart: boolean }): PreparedWorkflow {
	const nodeTypes = new HarnessNodeTypes([
		HarnessStart,
		HarnessNoOp,
		HarnessCountRuns,
		...(definition.nodeTypes ?? []),
	]);
	const credentialTypes = new HarnessCredentialTypes([HaiPayApi, ...(definition.credentialTypes ?? [])]);
	const stored = storeCredentials(definition.credentials, credentialTypes);
	const credentialsHelper = new HarnessCredentialsHelper(stored.credentials, credentialTypes, nodeTypes);
	const nodes = buildNodes(definition.nodes, options.addStart, nodeTypes, stored);
	lastWorkflowId += 1;
	const id = definition.workflowId ?? `harness-${lastWorkflowId}`;
	return withInstances({
		id,
		name: definition.workflowName ?? `Harness workflow ${id}`,
		nodes,
		connections: definition.connections ?? chain(...nodes.map((node) => node.name)),
		settings: { executionOrder: 'v1', ...definition.settings },
		nodeTypes,
		credentialTypes,
		credentialsHelper,
		credentials: stored.credentials,
	});
}

/** Adds what makes n8n's objects of a prepared workflow: a Workflow per execution, the IWorkflowBase of hooks. */
function withInstances(parts: Omit<PreparedWorkflow, 'instantiate' | 'base'>): PreparedWorkflow {
	const { id, name, nodes, connections, settings, nodeTypes } = parts;
	const createdAt = new Date();
	return {
		...parts,
		instantiate: (staticData) =>
			new Workflow({
				id,
				name,
				nodes: structuredClone(nodes),
				connections,
				active: true,
				nodeTypes,
				staticData: staticData ?? {},
				settings,
			}),
		base: () => ({
			id,
			name,
			active: true,
			isArchived: false,
			activeVersionId: null,
			createdAt,
			updatedAt: createdAt,
			nodes,
			connections,
			settings,
		}),
	};
}
