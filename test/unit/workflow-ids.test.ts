/**
 * Workflow IDs n8n keeps static data for: n8n 1.x saves none of a workflow whose ID is longer than 16 characters
 * (`isWorkflowIdValid`), so a HaiPay Trigger there would forget every repeat at restart. The builder refuses such an
 * ID where it becomes the workflow's ID; the shipped examples and the e2e tests' workflows keep within it.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { checkWorkflowId, MAX_WORKFLOW_ID_LENGTH, WorkflowBuilder } from '../../dev/workflow-builder';

const root = join(__dirname, '..', '..');
const SIXTEEN = 'haipayTest123456';
const SEVENTEEN = `${SIXTEEN}7`;

function built(id: string) {
	const b = new WorkflowBuilder(id);
	b.add({ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
	return b;
}

describe('workflow IDs n8n 1.x saves static data for', () => {
	test('the limit is n8n 1.x’s 16 characters', () => {
		expect([SIXTEEN.length, SEVENTEEN.length, MAX_WORKFLOW_ID_LENGTH]).toEqual([16, 17, 16]);
	});

	test('an ID of 16 characters is taken, as a file’s ID', () => {
		expect(() => checkWorkflowId(SIXTEEN)).not.toThrow();
		expect(built(SIXTEEN).file('Sixteen', 'An ID at the limit.').id).toBe(SIXTEEN);
	});

	test('an ID of 17 characters is refused, saying why', () => {
		const why = /"haipayTest1234567" has 17 characters; use 1 to 16: n8n 1\.x saves no static data.*repeat memory/;
		expect(() => checkWorkflowId(SEVENTEEN)).toThrow(why);
		expect(() => built(SEVENTEEN).file('Seventeen', 'An ID past the limit.')).toThrow(why);
	});

	test('an empty ID is refused', () => {
		expect(() => checkWorkflowId('')).toThrow(/"" has 0 characters/);
	});

	test('a workflow sent to the REST API may be built under a longer name: n8n gives it an ID of its own', () => {
		const body = built(`bench-haipay-${SEVENTEEN}`).body('Bench');
		expect(body).not.toHaveProperty('id');
		expect(body.nodes).toHaveLength(1);
	});

	test('every shipped example’s ID keeps within the limit', () => {
		const files = readdirSync(join(root, 'examples')).filter((name) => name.endsWith('.json'));
		expect(files.length).toBeGreaterThanOrEqual(9);
		for (const file of files) {
			const { id } = JSON.parse(readFileSync(join(root, 'examples', file), 'utf8')) as { id: string };
			expect({ file, valid: id.length > 0 && id.length <= MAX_WORKFLOW_ID_LENGTH }).toEqual({ file, valid: true });
		}
	});

	test('every e2e test’s own workflow ID keeps within the limit (caught here before n8n and Chromium start)', () => {
		const dir = join(root, 'test', 'e2e');
		const ids = readdirSync(dir)
			.filter((name) => name.endsWith('.test.ts'))
			.flatMap((name) => [...readFileSync(join(dir, name), 'utf8').matchAll(/'(haipay(?:Test|Ex)[A-Za-z0-9]*)'/g)])
			.map((match) => match[1]);
		expect(ids.length).toBeGreaterThanOrEqual(8);
		expect(ids.filter((id) => id.length > MAX_WORKFLOW_ID_LENGTH)).toEqual([]);
	});
});
