import { Container } from '@n8n/di';
import { BinaryDataService, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	ExecutionStatus,
	IBinaryData,
	IDataObject,
	INodeExecutionData,
	IRun,
	IRunData,
	ITaskData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError, createRunExecutionData } from 'n8n-workflow';

import type { AdditionalDataOptions } from './additional-data';
import { buildAdditionalData, recordingHooks } from './additional-data';
import { harnessEnvironment } from './environment';
import type { LogLine } from './logger';
import type { PreparedWorkflow } from './workflow';

/** An error as a test wants to compare it: plain fields, no prototype, no stack. */
export interface ErrorSummary {
	name: string;
	message: string;
	description?: string | null;
	/** The node the error belongs to, when n8n knows it. */
	node?: string;
	/** The item n8n attributes the error to (`itemIndex` given to NodeOperationError/NodeApiError). */
	itemIndex?: number;
	httpCode?: string | null;
}

export interface RunResult {
	/** n8n's execution status: 'success', 'error', 'canceled', 'waiting'... */
	status: ExecutionStatus;
	/** A plain summary of `executionError`, for `toMatchObject`. */
	error?: ErrorSummary;
	/** The error n8n records on the execution (`run.data.resultData.error`): what stopped it. */
	executionError?: ExecutionBaseError;
	/** Items a node put on one of its outputs. Throws when the node did not run that often. */
	outputOf(nodeName: string, runIndex?: number, outputIndex?: number): INodeExecutionData[];
	/** `outputOf(...)` reduced to each item's `json`. */
	jsonOf(nodeName: string, runIndex?: number, outputIndex?: number): IDataObject[];
	/** The error recorded on a node's task data (set when the node failed without continuing). */
	nodeError(nodeName: string, runIndex?: number): ExecutionBaseError | undefined;
	runData: IRunData;
	/** Node names in the order they finished. */
	executedNodes: string[];
	/** Log lines written during this execution (nodes' `this.logger` and n8n-core's own). */
	logs: LogLine[];
	/** The workflow's static data after the execution, as n8n would store it. */
	staticData: IDataObject;
	executionId: string;
	/** The whole IRun, for anything the helpers above do not cover. */
	run: IRun;
}

function summarize(error: ExecutionBaseError | undefined): ErrorSummary | undefined {
	if (error === undefined) return undefined;
	const raw = error as ExecutionBaseError & {
		node?: { name?: string };
		httpCode?: string | null;
		context?: { itemIndex?: number };
	};
	const summary: ErrorSummary = { name: raw.name, message: raw.message };
	if (raw.description !== undefined) summary.description = raw.description;
	if (raw.node?.name !== undefined) summary.node = raw.node.name;
	if (typeof raw.context?.itemIndex === 'number') summary.itemIndex = raw.context.itemIndex;
	if (raw.httpCode !== undefined) summary.httpCode = raw.httpCode;
	return summary;
}

/** Static data as n8n saves it: plain JSON, without the change marker. */
export function plainStaticData(workflow: Workflow): IDataObject {
	const data = JSON.parse(JSON.stringify(workflow.staticData ?? {})) as IDataObject;
	delete data.__dataChanged;
	return data;
}

function taskData(run: IRun, nodeName: string, runIndex: number): ITaskData {
	const runs = run.data.resultData.runData[nodeName];
	if (runs?.[runIndex] === undefined) {
		const ran = Object.keys(run.data.resultData.runData);
		throw new UnexpectedError(
			`Node "${nodeName}" has no run ${runIndex} (it ran ${runs?.length ?? 0} times; nodes that ran: ${ran.join(', ') || 'none'}).`,
		);
	}
	return runs[runIndex];
}

export function toRunResult(
	run: IRun,
	workflow: Workflow,
	executionId: string,
	executedNodes: string[],
	logs: LogLine[],
): RunResult {
	const executionError = run.data.resultData.error;
	const outputOf = (nodeName: string, runIndex = 0, outputIndex = 0): INodeExecutionData[] =>
		taskData(run, nodeName, runIndex).data?.main?.[outputIndex] ?? [];
	return {
		status: run.status,
		error: summarize(executionError),
		executionError,
		outputOf,
		jsonOf: (nodeName, runIndex, outputIndex) => outputOf(nodeName, runIndex, outputIndex).map((item) => item.json),
		nodeError: (nodeName, runIndex = 0) => taskData(run, nodeName, runIndex).error,
		runData: run.data.resultData.runData,
		executedNodes,
		logs,
		staticData: plainStaticData(workflow),
		executionId,
		run,
	};
}

export interface ExecuteOptions {
	prepared: PreparedWorkflow;
	workflow: Workflow;
	mode: WorkflowExecuteMode;
	startNode: string;
	/** What the start node is fed, per input (n8n's `nodeExecutionStack[0].data.main`). */
	startData: INodeExecutionData[][];
	executionId: string;
	logs: LogLine[];
	additionalData?: Partial<AdditionalDataOptions>;
	/**
	 * An error the start node raised before the run (a webhook() that threw): n8n records it as the last node's
	 * error, so the run fails at the start node just as it does in n8n.
	 */
	startError?: Error;
	/**
	 * Where the run's static data goes when a node changed it: n8n-core's WorkflowExecute passes the changed object
	 * to the workflowExecuteAfter hook as `newStaticData`, and n8n's hookFunctionsSave stores it whole
	 * (WorkflowStaticDataService.saveStaticDataById), except in manual mode. Without it nothing is saved.
	 */
	saveStaticData?: (newStaticData: IDataObject) => void;
}

/**
 * Runs a workflow from one node the way n8n's WorkflowRunner does for webhook and trigger executions: the start
 * node and its data go on the execution stack and WorkflowExecute.processRunExecutionData takes it from there.
 */
export async function execute(options: ExecuteOptions): Promise<RunResult> {
	const { prepared, workflow, mode, executionId } = options;
	const env = await harnessEnvironment();
	const startNode = workflow.getNode(options.startNode);
	if (startNode === null) {
		throw new UnexpectedError(`Start node "${options.startNode}" is not in the workflow.`);
	}
	const { hooks, executedNodes } = recordingHooks(mode, executionId, prepared.base());
	const { saveStaticData } = options;
	if (saveStaticData !== undefined) {
		hooks.addHandler('workflowExecuteAfter', (_run, newStaticData?: IDataObject) => {
			if (mode !== 'manual' && newStaticData !== undefined) saveStaticData(newStaticData);
		});
	}
	const additionalData = buildAdditionalData({
		credentialsHelper: prepared.credentialsHelper,
		executionId,
		workflowId: prepared.id,
		hooks,
		...options.additionalData,
	});
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: options.startData }, source: null }],
		},
	});
	if (options.startError !== undefined) {
		const { startError } = options;
		runExecutionData.resultData = {
			runData: {},
			lastNodeExecuted: startNode.name,
			error: { ...startError, message: startError.message, stack: startError.stack } as ExecutionBaseError,
		};
	}
	const run = await env.logger.capture(options.logs, async () => {
		const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
		return await workflowExecute.processRunExecutionData(workflow);
	});
	return toRunResult(run, workflow, executionId, executedNodes, options.logs);
}

/** The bytes of one binary property of one output item, read back through n8n-core's BinaryDataService. */
export async function binaryBuffer(
	result: RunResult,
	nodeName: string,
	itemIndex = 0,
	property = 'data',
	runIndex = 0,
	outputIndex = 0,
): Promise<Buffer> {
	const item = result.outputOf(nodeName, runIndex, outputIndex)[itemIndex];
	const binary: IBinaryData | undefined = item?.binary?.[property];
	if (binary === undefined) {
		const available =
			item === undefined ? 'no such item' : `properties: ${Object.keys(item.binary ?? {}).join(', ') || 'none'}`;
		throw new UnexpectedError(
			`Item ${itemIndex} of "${nodeName}" has no binary property "${property}" (${available}).`,
		);
	}
	await harnessEnvironment();
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}
