import { parse } from 'flatted';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { WorkflowBuilder, type WorkflowFile } from '../../dev/workflow-builder';
import { callbackUrl } from '../../playground/examples';
import { haiPay, haiPayTrigger } from '../../playground/lib/haipay-nodes';
import { nodeOutput } from '../../playground/lib/n8n';
import { N8N_PORT } from '../../playground/lib/paths';
import { APP_IDS, SUBSCRIPTION } from '../fixtures/bodies';
import { eventually, startStack, type Stack } from './stack';

/**
 * A subscription on a real n8n server: Subscription → Create, its fields typed in the panel, run with `n8n execute`;
 * HaiPay's signed answer proves it. A recurring charge, asked of the sandbox over its HTTP control API (HaiPay
 * charges on its own schedule), reaches an active workflow's HaiPay Trigger, which labels it kind "subscription";
 * sent to example 2's USD trigger, a paid charge is booked as paid, under its subscription. Then a workflow finds
 * the subscription by its own ID and cancels it; the sandbox then refuses to charge it.
 */

const log = (line: string) => process.stdout.write(`${line}\n`);

const CREATE_ID = 'haipayTestSubNew';
const CANCEL_ID = 'haipayTestSubEnd';
const CALLBACKS_ID = 'haipayTestSubCb';
const WEBHOOK_ID = 'haipay-test-subscription-charges';
const SUBSCRIPTION_ORDER_ID = 'E2E-SUB-0001';
const USD = { haiPayApi: { id: `hpsandbox${APP_IDS.USD}`, name: 'HaiPay Sandbox USD' } };
const NOTIFY_URL = `http://localhost:${N8N_PORT}/webhook/${WEBHOOK_ID}/webhook`;

function manual(b: WorkflowBuilder) {
	return b.add({
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	});
}

function createWorkflow(): WorkflowFile {
	const b = new WorkflowBuilder(CREATE_ID);
	const parameters = {
		resource: 'subscription',
		operation: 'create',
		currency: 'USD',
		subscriptionOrderId: SUBSCRIPTION_ORDER_ID,
		...SUBSCRIPTION,
		additionalFields: { notifyUrl: NOTIFY_URL },
	};
	b.connect(manual(b), b.add(haiPay('Subscribe', 'USD', parameters, [220, 0], { credentials: USD })));
	return b.file('HaiPay test: create a subscription', 'One monthly USD subscription, its fields from the panel.');
}

/** Finds the subscription by the merchant's own ID, then cancels it by the subscriptionNo HaiPay answered. */
function cancelWorkflow(): WorkflowFile {
	const b = new WorkflowBuilder(CANCEL_ID);
	const find = b.add(
		haiPay(
			'Find',
			'USD',
			{ resource: 'subscription', operation: 'get', currency: 'USD', subscriptionOrderId: SUBSCRIPTION_ORDER_ID },
			[220, 0],
			{ credentials: USD },
		),
	);
	const cancel = b.add(
		haiPay(
			'Cancel',
			'USD',
			{ resource: 'subscription', operation: 'cancel', currency: 'USD', subscriptionNo: '={{ $json.subscriptionNo }}' },
			[440, 0],
			{ credentials: USD },
		),
	);
	b.connect(manual(b), find);
	b.connect(find, cancel);
	return b.file(
		'HaiPay test: cancel a subscription',
		'Finds the subscription by its Subscription Order ID and cancels it.',
	);
}

function chargesWorkflow(): WorkflowFile {
	const b = new WorkflowBuilder(CALLBACKS_ID);
	const trigger = b.add(
		haiPayTrigger('Subscription charges', WEBHOOK_ID, { kind: 'subscription', options: {} }, USD, [0, 0]),
	);
	b.connect(
		trigger,
		b.add({ name: 'Extend access', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} }),
	);
	return b.file('HaiPay test: subscription charges', 'Receives the signed recurring charges of subscriptions.');
}

/** The sandbox's control API, as a playground user drives it with curl. */
async function control(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
	const response = await fetch(`${stack.sandbox.baseUrl}/__sandbox${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The items the trigger emitted in the workflow's one finished run. */
async function emitted(): Promise<Array<Record<string, unknown>>> {
	const executions = await eventually('a finished run of the subscription charges workflow', async () => {
		const listed = await stack.rest.executions(CALLBACKS_ID);
		return listed.length > 0 && listed.every((execution) => !['new', 'running'].includes(execution.status))
			? listed
			: undefined;
	});
	expect(executions.map((execution) => [execution.mode, execution.status])).toEqual([['webhook', 'success']]);
	const execution = (await stack.rest.execution(executions[0].id)) as { data: string };
	const run = { data: parse(execution.data) } as Parameters<typeof nodeOutput>[0];
	return nodeOutput(run, 'Subscription charges');
}

let stack: Stack;

beforeAll(async () => {
	stack = await startStack(log, { workflows: [chargesWorkflow()], runnable: [createWorkflow(), cancelWorkflow()] });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
}, 60_000);

describe('a subscription on n8n', () => {
	let subscriptionNo = '';

	test('is created once under the USD App ID, with a verified answer', async () => {
		const { run } = await stack.execute(CREATE_ID);
		const [item] = nodeOutput(run, 'Subscribe');
		const subs = stack.sandbox.subscriptions.filter((sub) => sub.subscriptionOrderId === SUBSCRIPTION_ORDER_ID);
		expect(subs.map((sub) => [sub.appId, sub.status])).toEqual([[APP_IDS.USD, '2']]);
		subscriptionNo = subs[0].subscriptionNo;
		expect(item).toMatchObject({
			outcome: 'accepted',
			verified: true,
			subscriptionOrderId: SUBSCRIPTION_ORDER_ID,
			subscriptionNo,
			currency: 'USD',
		});
		const sent = stack.sandbox.requests.filter((request) => request.path === '/subscription/apply');
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toMatchObject({
			appId: APP_IDS.USD,
			amount: '9.99',
			recurringInterval: 'M',
			recurringIntervalCount: 1,
			notifyUrl: NOTIFY_URL,
		});
	});

	test('its recurring charge starts the trigger\'s workflow once, as kind "subscription"', async () => {
		const charge = await control('/subscriptions/charge', { subscriptionNo });
		expect(charge.status).toBe(200);
		expect(charge.json).toMatchObject({ url: NOTIFY_URL, body: { subscriptionNo, status: 2 } });
		const callback = await stack.sandbox.waitForCallback(
			(attempt) => attempt.orderNo === `${subscriptionNo}-1` && attempt.acknowledged,
			60_000,
		);
		expect(callback).toMatchObject({ appId: APP_IDS.USD, httpStatus: 200, response: 'SUCCESS' });
		const [item] = await emitted();
		expect(item).toMatchObject({
			kind: 'subscription',
			subscriptionNo,
			subscriptionOrderId: SUBSCRIPTION_ORDER_ID,
			orderNo: `${subscriptionNo}-1`,
			amount: '9.99',
			verified: true,
			// A charge is a card collection HaiPay numbers: its status 2 reads as a collection order's success.
			statusGroup: 'success',
		});
		expect(item.dedupKey).toMatch(new RegExp(`^sub:${subscriptionNo}\\|`));
	});

	test("sent to example 2's USD trigger, a paid charge is booked as paid, under its subscription", async () => {
		const charge = await control('/subscriptions/charge', { subscriptionNo, url: callbackUrl('USD') });
		expect(charge.status).toBe(200);
		const orderNo = String((charge.json.body as Record<string, unknown>).orderNo);
		const callback = await stack.sandbox.waitForCallback((a) => a.orderNo === orderNo && a.acknowledged, 60_000);
		expect(callback).toMatchObject({ url: callbackUrl('USD'), httpStatus: 200, response: 'SUCCESS' });
		const file = join(stack.files, 'callbacks.jsonl');
		const lines = () =>
			(existsSync(file) ? readFileSync(file, 'utf8') : '')
				.split('\n')
				.filter((line) => line !== '')
				.map((line) => JSON.parse(line) as Record<string, unknown>);
		const line = await eventually(`example 2's line for ${orderNo}`, () =>
			lines().find((entry) => entry.orderNo === orderNo),
		);
		expect(line).toEqual({
			receivedAt: expect.any(String),
			action: 'mark paid',
			kind: 'subscription',
			subscriptionNo,
			subscriptionOrderId: SUBSCRIPTION_ORDER_ID,
			currency: 'USD',
			orderNo,
			status: 2,
			statusLabel: 'success',
			amount: '9.99',
			payTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
			errorMsg: null,
		});
		// Booked once; a charge carries no card token, so none is stored.
		expect(lines().filter((entry) => entry.subscriptionNo === subscriptionNo)).toHaveLength(1);
		expect(readdirSync(join(stack.files, 'mit-tokens'))).toEqual([]);
	});

	test('a declined charge reaches example 2 once, booked failed under its subscription, its orderNo left off as unproven', async () => {
		const charge = await control('/subscriptions/charge', { subscriptionNo, status: 3, url: callbackUrl('USD') });
		expect(charge.status).toBe(200);
		const body = charge.json.body as Record<string, unknown>;
		expect(body).toMatchObject({ status: 3, errorMsg: 'card declined' });
		const callback = await stack.sandbox.waitForCallback((a) => a.orderNo === body.orderNo && a.acknowledged, 60_000);
		expect(callback).toMatchObject({ httpStatus: 200, response: 'SUCCESS' });
		const file = join(stack.files, 'callbacks.jsonl');
		const failed = () =>
			readFileSync(file, 'utf8')
				.split('\n')
				.filter((line) => line !== '')
				.map((line) => JSON.parse(line) as Record<string, unknown>)
				.filter((entry) => entry.subscriptionNo === subscriptionNo && entry.action === 'mark failed');
		const [line] = await eventually("example 2's failed line", () => (failed().length > 0 ? failed() : undefined));
		expect(line).toMatchObject({ kind: 'subscription', status: 3, errorMsg: 'card declined', unproven: ['orderNo'] });
		expect(line.orderNo).toBeUndefined();
		expect(failed()).toHaveLength(1);
	});

	test('is found by its Subscription Order ID and cancelled, proven by the signed answer; no charge follows', async () => {
		const { run } = await stack.execute(CANCEL_ID);
		expect(nodeOutput(run, 'Find')).toMatchObject([{ subscriptionNo, status: '2', verified: true }]);
		expect(nodeOutput(run, 'Cancel')).toMatchObject([
			{ outcome: 'changed', subscriptionNo, status: '4', verified: true },
		]);
		expect(stack.sandbox.requests.filter((request) => request.path === '/subscription/cancel')).toHaveLength(1);
		expect(stack.sandbox.subscriptions.find((sub) => sub.subscriptionNo === subscriptionNo)?.status).toBe('4');
		expect((await control('/subscriptions/charge', { subscriptionNo })).status).toBe(409);
	});
});
