import { LoadOptionsContext } from 'n8n-core';
import type { INodeListSearchResult, INodeParameters, INodeType } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import { harnessEnvironment } from './environment';
import type { NodeTypeInput } from './registry';
import { prepareWorkflow } from './workflow';

export interface ListSearchCall {
	nodeType: NodeTypeInput;
	/** The node's type name, as a workflow names it ('haiPay'). */
	type: string;
	typeVersion?: number;
	/** The parameters as the editor holds them while the list is open. */
	parameters: INodeParameters;
	/** The parameter whose list is open, e.g. 'bankCode'. */
	parameter: string;
	method: string;
	filter?: string;
	paginationToken?: string;
}

/**
 * Runs a node's list search the way n8n's editor does (DynamicNodeParametersService): n8n-core's LoadOptionsContext
 * over the workflow, with the panel's current parameters in the additional data.
 */
export async function runListSearch(call: ListSearchCall): Promise<INodeListSearchResult> {
	await harnessEnvironment();
	const prepared = prepareWorkflow(
		{
			nodeTypes: [call.nodeType],
			nodes: [{ name: 'Node', type: call.type, typeVersion: call.typeVersion, parameters: call.parameters }],
		},
		{ addStart: false },
	);
	const workflow = prepared.instantiate();
	const node = workflow.getNode('Node');
	if (node === null) throw new UserError('the harness lost its node');
	const nodeType = prepared.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
	const search = nodeType.methods?.listSearch?.[call.method];
	if (search === undefined) throw new UserError(`the node has no list search "${call.method}"`);
	const additionalData = buildAdditionalData({
		credentialsHelper: prepared.credentialsHelper,
		executionId: nextExecutionId(),
		workflowId: prepared.id,
	});
	additionalData.currentNodeParameters = call.parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, `parameters.${call.parameter}`);
	return await search.call(context, call.filter, call.paginationToken);
}
