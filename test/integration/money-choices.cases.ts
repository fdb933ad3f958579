/**
 * No money choice preselected (node version 4): Subscription → Create's Recurring Interval starts on nothing, and an
 * item without one is refused with field and rule before anything is signed, in real n8n-core executions against the
 * sandbox. Fields From Input reads the row's own value; a fixed value the row contradicts is refused; a version 3
 * node (a saved workflow) keeps its Day default.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { SUBSCRIPTION } from '../fixtures/bodies';
import { NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const { recurringInterval: _chosen, ...unchosen } = SUBSCRIPTION;

async function run(parameters: INodeParameters, items: IDataObject[] = [{}], typeVersion?: number) {
	const settings = { onError: 'continueRegularOutput', ...(typeVersion === undefined ? {} : { typeVersion }) };
	const result = await runNode(sandbox, { currency: 'USD', parameters, items, settings });
	return result.jsonOf(NODE);
}

function parameters(subscriptionOrderId: string, overrides: IDataObject = {}): INodeParameters {
	const base = { resource: 'subscription', operation: 'create', currency: 'USD', subscriptionOrderId };
	return { ...base, ...unchosen, ...overrides, options: { timeout: 1500, resolveWithin: 8 } } as INodeParameters;
}

const sentInterval = (id: string) =>
	sandbox.requests
		.filter((request) => request.path === '/subscription/apply')
		.map((request) => request.body as IDataObject)
		.filter((body) => body.subscriptionOrderId === id)
		.map((body) => body.recurringInterval);

describe('Recurring Interval: never a default', () => {
	it('a new node (version 4) left on nothing does not run: n8n names the required parameter, and nothing is sent', async () => {
		const id = uniqueOrderId('SUB-NONE');
		await expect(run(parameters(id))).rejects.toThrow('Parameter "Recurring Interval" is required');
		expect(sentInterval(id)).toEqual([]);
	});

	it('mapped to an item without a value, the item is refused (field recurringInterval, rule required), nothing sent', async () => {
		const id = uniqueOrderId('SUB-EMPTY');
		const [item] = await run(parameters(id, { recurringInterval: '={{ $json.interval }}' }), [{ interval: '' }]);
		expect(item).toMatchObject({ outcome: 'invalid', field: 'recurringInterval', rule: 'required' });
		expect(String(item.error)).toContain('how often the subscriber is charged');
		expect(sentInterval(id)).toEqual([]);
	});

	it('a chosen interval is sent as chosen', async () => {
		const id = uniqueOrderId('SUB-W');
		const [item] = await run(parameters(id, { recurringInterval: 'W' }));
		expect(item).toMatchObject({ outcome: 'accepted' });
		expect(sentInterval(id)).toEqual(['W']);
	});

	it("Fields From Input reads the row's own value, and refuses a row without one", async () => {
		const [withIt, without] = [uniqueOrderId('SUB-ROW'), uniqueOrderId('SUB-ROW')];
		const rows = [
			{ ...SUBSCRIPTION, subscriptionOrderId: withIt, recurringInterval: 'Y' },
			{ ...unchosen, subscriptionOrderId: without },
		];
		const sheet = { resource: 'subscription', operation: 'create', currency: 'USD', fieldsFrom: 'input' };
		const out = await run({ ...sheet, options: { timeout: 1500, resolveWithin: 8 } }, rows);
		expect(out.map((item) => [item.outcome, item.field ?? null, item.rule ?? null])).toEqual([
			['accepted', null, null],
			['invalid', 'recurringInterval', 'required'],
		]);
		expect(sentInterval(withIt)).toEqual(['Y']);
		expect(sentInterval(without)).toEqual([]);
	});

	it('a value fixed on the node that the item contradicts is refused (rule conflict), sent neither way', async () => {
		const id = uniqueOrderId('SUB-CONFLICT');
		const [item] = await run(parameters(id, { recurringInterval: 'M' }), [{ recurringInterval: 'D' }]);
		expect(item).toMatchObject({ outcome: 'invalid', field: 'recurringInterval', rule: 'conflict' });
		expect(sentInterval(id)).toEqual([]);
	});

	it('a version 3 node (a saved workflow that never chose) keeps its Day default, as it ran before', async () => {
		const id = uniqueOrderId('SUB-V3');
		const [item] = await run(parameters(id), [{}], 3);
		expect(item).toMatchObject({ outcome: 'accepted' });
		expect(sentInterval(id)).toEqual(['D']);
	});
});
