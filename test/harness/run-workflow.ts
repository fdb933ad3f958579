import { prepareBinaryData } from 'n8n-core';
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { nextExecutionId } from './additional-data';
import { harnessEnvironment } from './environment';
import type { LogLine } from './logger';
import type { RunResult } from './run';
import { execute } from './run';
import type { WorkflowDefinition } from './workflow';
import { prepareWorkflow } from './workflow';

/**
 * Binary for an input item: bytes, stored through n8n-core's BinaryDataService before the run (the type comes
 * from `mimeType`, else from the file name's extension), or an IBinaryData as n8n keeps it, passed through.
 */
export type BinaryInput = Buffer | { data: Buffer; mimeType?: string; fileName?: string } | IBinaryData;

export interface InputItem {
	json?: IDataObject;
	binary?: Record<string, BinaryInput>;
	pairedItem?: INodeExecutionData['pairedItem'];
}

export type HarnessExecutionMode = 'manual' | 'trigger' | 'webhook';

export interface RunWorkflowOptions extends WorkflowDefinition {
	/** Items the start node emits. Default: one empty item, like a manual trigger. */
	items?: InputItem[];
	/** The node execution starts at. Default "Start" (the harness's start node). */
	startNode?: string;
	/** n8n's execution mode, which nodes can read with `this.getMode()`. Default 'manual'. */
	executionMode?: HarnessExecutionMode;
	/** The workflow's static data before the run; the result has it after. */
	staticData?: IDataObject;
	/** Stop the execution after this many milliseconds, as the workflow "Timeout" setting does. */
	timeoutMs?: number;
}

async function toBinaryData(value: BinaryInput, executionId: string, workflowId: string): Promise<IBinaryData> {
	if (!Buffer.isBuffer(value) && typeof value.data === 'string') return value as IBinaryData;
	const bytes = Buffer.isBuffer(value) ? value : (value.data as Buffer);
	const { fileName, mimeType } = Buffer.isBuffer(value) ? { fileName: undefined, mimeType: undefined } : value;
	// With neither a type nor a file name n8n-core sniffs the bytes through an ES-module import, which jest
	// cannot load without --experimental-vm-modules: a neutral type keeps input items independent of that.
	return await prepareBinaryData(
		bytes,
		executionId,
		workflowId,
		fileName,
		mimeType ?? (fileName === undefined ? 'application/octet-stream' : undefined),
	);
}

/**
 * Executes a workflow in process with n8n-core's WorkflowExecute, the engine the n8n server runs. Node errors,
 * "Continue On Fail", "On Error" and "Retry On Fail" behave as in n8n because WorkflowExecute implements them.
 *
 * @example
 * const result = await runWorkflow({
 *   nodeTypes: [HaiPay],
 *   credentials: { cred: { type: 'haiPayApi', data: { environment: 'custom', baseUrl, appId: 1, ... } } },
 *   nodes: [{ name: 'Balance', type: 'haiPay', parameters: { resource: 'account', operation: 'getBalance' } }],
 * });
 * expect(result.status).toBe('success');
 * expect(result.jsonOf('Balance')[0]).toMatchObject({ ... });
 */
export async function runWorkflow(options: RunWorkflowOptions): Promise<RunResult> {
	await harnessEnvironment();
	const prepared = prepareWorkflow(options, { addStart: true });
	const workflow = prepared.instantiate(structuredClone(options.staticData ?? {}));
	const executionId = nextExecutionId();
	const items: INodeExecutionData[] = [];
	for (const input of options.items ?? [{ json: {} }]) {
		const item: INodeExecutionData = { json: input.json ?? {} };
		if (input.pairedItem !== undefined) item.pairedItem = input.pairedItem;
		if (input.binary !== undefined) {
			item.binary = {};
			for (const [property, value] of Object.entries(input.binary)) {
				item.binary[property] = await toBinaryData(value, executionId, prepared.id);
			}
		}
		items.push(item);
	}
	const logs: LogLine[] = [];
	return await execute({
		prepared,
		workflow,
		mode: options.executionMode ?? 'manual',
		startNode: options.startNode ?? 'Start',
		startData: [items],
		executionId,
		logs,
		additionalData: { timeoutMs: options.timeoutMs },
	});
}
