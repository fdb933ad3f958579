import { deepCopy, type INodeExecutionData } from 'n8n-workflow';

/*
 * Getting what a request wrote into the workflow's static data saved, when the request starts an execution.
 *
 * n8n saves a webhook request's static data after answering it, and only when a change to it was marked. n8n 2.x
 * clears that mark while it starts the execution: it builds a second workflow over the same static data object,
 * which marks it unchanged again. Whatever the request wrote is then not saved, and the repeat memory would stay
 * in this process only: another webhook processor, or this one after a restart, would never see it.
 *
 * n8n stores the execution, items and all, after that point and before it answers and saves. So the emitted item
 * writes the memory again while it is being stored, which marks the static data changed once more, and n8n saves
 * it. The hook is a non-enumerable toJSON: invisible to the workflow, and it returns a plain copy of the item (n8n's
 * deepCopy takes what an own toJSON returns as the copy). On n8n versions that keep the mark, writing the same text
 * again changes nothing.
 */

export function carrying(item: INodeExecutionData, resave: (() => void) | undefined): INodeExecutionData {
	if (resave === undefined) return item;
	Object.defineProperty(item, 'toJSON', {
		enumerable: false,
		value(this: INodeExecutionData) {
			resave();
			return deepCopy({ ...this });
		},
	});
	return item;
}
