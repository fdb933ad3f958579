import type { IDataObject, Workflow } from 'n8n-workflow';

import { plainStaticData } from './run';

/**
 * A served workflow's static data as n8n 2.40 keeps it in its database (the workflow entity's `staticData` column),
 * and the three ways n8n reads and writes it around a webhook request (webhook-call.ts puts them in n8n's order):
 *
 * - `load()`: WorkflowStaticDataService.getStaticDataById, and LiveWebhooks.loadWebhookExecutionData. Every request
 *   works on a copy of its own, and so does every execution: WorkflowRunner.prepareNewExecution loads a fresh one
 *   when the request starts it (`run(data, loadStaticData = true)`), before the request has saved its own.
 * - `save(workflow)`: WorkflowStaticDataService.saveStaticData, what LiveWebhooks.executeWebhook's response
 *   callback does with the request's copy: stores it whole, only if a change to it is still marked.
 * - `saveWhole(data)`: WorkflowStaticDataService.saveStaticDataById, what the lifecycle hook hookFunctionsSave
 *   (workflowExecuteAfter) does with an execution's copy that a node changed (n8n-core's WorkflowExecute hands it
 *   over as `newStaticData` when `workflow.staticData.__dataChanged === true`): stores it whole, over anything
 *   saved since that copy was loaded.
 */
export class StaticDataStore {
	private stored: IDataObject;

	/** `dropSaves`: a database that never stores what n8n saves (a change in n8n that breaks persistence, on purpose). */
	constructor(
		initial: IDataObject = {},
		private readonly dropSaves = false,
	) {
		this.stored = structuredClone(initial);
	}

	/** A copy as n8n reads it from its database, for a request or an execution to work on. */
	load(): IDataObject {
		return structuredClone(this.stored);
	}

	/** A node's part (`node:<name>`) when a node name is given, else all of it; a copy. */
	of(nodeName?: string): IDataObject {
		return structuredClone(
			(nodeName === undefined ? this.stored : (this.stored[`node:${nodeName}`] ?? {})) as IDataObject,
		);
	}

	set(data: IDataObject): void {
		this.stored = structuredClone(data);
	}

	reset(): void {
		this.stored = {};
	}

	/** WorkflowStaticDataService.saveStaticData: the workflow's copy stored whole if a change is marked, then unmarked. */
	save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged === true) {
			if (!this.dropSaves) this.stored = plainStaticData(workflow);
			workflow.staticData.__dataChanged = false;
		}
	}

	/** WorkflowStaticDataService.saveStaticDataById: `data` stored whole, as JSON (the change mark is not enumerable). */
	saveWhole(data: IDataObject): void {
		if (this.dropSaves) return;
		this.stored = JSON.parse(JSON.stringify(data)) as IDataObject;
	}
}
