/**
 * The emitted item that writes the repeat memory again while n8n stores the execution (nodes/HaiPayTrigger/hooks.ts
 * `carrying`): invisible to the workflow, and every way n8n copies or stores an item gives the same plain item.
 */
import { deepCopy, type INodeExecutionData } from 'n8n-workflow';

import { carrying } from '../../nodes/HaiPayTrigger/hooks';

function counted() {
	const calls: number[] = [];
	return { calls, resave: () => calls.push(1) };
}

describe('an item carrying the repeat memory', () => {
	const json = { orderNo: 'HP1', status: 2, dedupKey: 'no:HP1|2', nested: { amount: '100.00' } };

	it('is stored as the plain item, and each time it is stored it writes the memory again', () => {
		const { calls, resave } = counted();
		const item = carrying({ json: structuredClone(json) }, resave);
		expect(JSON.stringify(item)).toBe(JSON.stringify({ json }));
		expect(calls).toHaveLength(1);
		expect(JSON.stringify([[item]])).toBe(JSON.stringify([[{ json }]]));
		expect(calls).toHaveLength(2);
	});

	it('shows the workflow nothing more than its json: no enumerable field, and copies are plain', () => {
		const { resave } = counted();
		const item = carrying({ json: structuredClone(json) }, resave);
		expect(Object.keys(item)).toEqual(['json']);
		expect({ ...item }).toEqual({ json });
		const cloned = structuredClone(item);
		expect(Object.getOwnPropertyNames(cloned)).toEqual(['json']);
		// n8n's deepCopy uses an own toJSON: the copy must still be a copy, not the item itself.
		const copied = deepCopy(item) as INodeExecutionData;
		expect(copied).toEqual({ json });
		copied.json.orderNo = 'changed';
		expect(item.json.orderNo).toBe('HP1');
	});

	it('is not confused by a callback field named toJSON: JSON brings no functions, so it stays data', () => {
		const { calls, resave } = counted();
		const hostile = { ...json, toJSON: 'not a function' };
		const item = carrying({ json: structuredClone(hostile) }, resave);
		expect(JSON.parse(JSON.stringify(item))).toEqual({ json: hostile });
		expect(deepCopy(item)).toEqual({ json: hostile });
		expect(calls).toHaveLength(2);
	});

	it('is the item unchanged when the request wrote no memory', () => {
		const item = { json: structuredClone(json) };
		expect(carrying(item, undefined)).toBe(item);
		expect(Object.getOwnPropertyNames(item)).toEqual(['json']);
	});
});
