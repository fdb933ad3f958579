import type { IDataObject, Workflow } from 'n8n-workflow';

import { plainStaticData } from './run';

/** A served workflow's static data as n8n stores it between calls: each call works on a copy, saved if it changed. */
export class StaticDataStore {
	private stored: IDataObject;

	constructor(initial: IDataObject = {}) {
		this.stored = structuredClone(initial);
	}

	/** A copy to instantiate a workflow with. */
	copy(): IDataObject {
		return structuredClone(this.stored);
	}

	/** A node's part (`node:<name>`) when a node name is given, else all of it; a copy. */
	of(nodeName?: string): IDataObject {
		return structuredClone((nodeName === undefined ? this.stored : this.stored[`node:${nodeName}`] ?? {}) as IDataObject);
	}

	set(data: IDataObject): void {
		this.stored = structuredClone(data);
	}

	reset(): void {
		this.stored = {};
	}

	/** What n8n's WorkflowStaticDataService.saveStaticData does: store the data if anything changed it. */
	save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged === true) {
			this.stored = plainStaticData(workflow);
			workflow.staticData.__dataChanged = false;
		}
	}
}
