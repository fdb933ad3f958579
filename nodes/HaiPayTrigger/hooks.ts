import type { IDataObject, IExecuteFunctions, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { MEMORY_FIELD, memoryForExecution, type RequestMemory } from './memory';

/*
 * Where n8n enters the repeat memory (memory.ts) after webhook() has returned. A callback's life enters the memory eight
 * times: five in webhook() itself, where a reader sees them (openMemory, repeatOf, provenRepeat, remember, resaver), and
 * three that n8n makes later, which webhook() does not show. Those three are all here, one function each, each saying
 * when n8n calls it:
 *
 * 1. `hookMemory`: n8n ends the request's response (its wrapped `res.end`), and the connection closes.
 * 2. `carrying`: n8n serialises the emitted item as it stores the execution (a hidden `toJSON`).
 * 3. `keepMemoryInExecution`: n8n runs the trigger's step in the execution the item started (execute()).
 */

/**
 * Hook 1, installed on every callback that reaches the memory. n8n ends the response of a request that emitted with 2xx
 * once the execution is stored, and with another status when the execution did not start, also after HaiPay hung up:
 * the result the request holds is then kept, or taken back out of the memory. A connection that closes first starts the
 * bound after which a result n8n never answers for is given up (memory.ts UNANSWERED_MS).
 */
export function hookMemory(ctx: IWebhookFunctions, memory: RequestMemory): void {
	const res = ctx.getResponseObject();
	const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
	res.end = ((...args: unknown[]) => {
		memory.answered(res.statusCode);
		return end(...args);
	}) as typeof res.end;
	res.once('close', () => memory.hungUp());
}

/**
 * Hook 2, on the item an emission starts the workflow with. n8n saves a request's static data after answering, if
 * marked changed, and n8n 2.x clears the mark as it starts the execution. The node's only code run between is the
 * item's serialisation as n8n stores the execution: a hidden toJSON writes the memory again there (`resave`, memory.ts
 * `resaver`), marking it. In queue mode it is the memory's only save. It returns a plain copy of the item.
 */
export function carrying(item: INodeExecutionData, resave: (() => void) | undefined): INodeExecutionData {
	if (resave === undefined) return item;
	const toJSON = function (this: INodeExecutionData) {
		resave();
		return deepCopy({ ...this });
	};
	return Object.defineProperty(item, 'toJSON', { enumerable: false, value: toJSON });
}

/**
 * Hook 3, from the trigger's execute(): n8n runs it as the first step of the execution the item started, on static
 * data loaded as the execution began. The memory as n8n will serialise it at the end of the run is put into that
 * static data (memory.ts `memoryForExecution`), which n8n saves then if a step changed it. Defined, not assigned: n8n
 * would count an assignment as a change and save all static data after every execution. n8n 2.x runs a Code node in
 * a task runner and replaces the run's static data with the runner's copy when the node changed it
 * (`Workflow.overrideStaticData`), a copy serialised as the node began: the memory goes into each replacement too.
 */
export function keepMemoryInExecution(ctx: IExecuteFunctions): void {
	const staticData = ctx.getWorkflowStaticData('node');
	const live = memoryForExecution(ctx, staticData);
	if (live === undefined) return;
	const keep = (data: IDataObject | undefined) =>
		data !== undefined &&
		Object.defineProperty(data, MEMORY_FIELD, { value: live, enumerable: true, writable: true, configurable: true });
	keep(staticData);
	// n8n-core's execute context holds the run's Workflow; another host may not, and has no replacement to follow then.
	const workflow = (ctx as unknown as { workflow?: { staticData?: IDataObject } }).workflow;
	if (workflow?.staticData === undefined) return;
	const part = `node:${ctx.getNode().name}`;
	let current = workflow.staticData;
	Object.defineProperty(workflow, 'staticData', {
		get: () => current,
		set: (replacement: IDataObject) => {
			current = replacement;
			keep(replacement?.[part] as IDataObject | undefined);
		},
		enumerable: true,
		configurable: true,
	});
}
