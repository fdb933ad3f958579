import { createPrivateKey } from 'crypto';
import { readFileSync } from 'fs';

import { WorkflowBuilder, type WorkflowFile } from '../../dev/workflow-builder';
import { repeatKeys } from '../../nodes/HaiPayTrigger/keys';
import { digestOf } from '../../nodes/HaiPayTrigger/memory';
import { signBody } from '../../sandbox';
import { credentialOf, haiPayTrigger } from '../../playground/lib/haipay-nodes';
import { httpRequest } from '../../playground/lib/rest';
import { callbackBody } from '../fixtures/bodies';
import { eventually, startStack, type Stack } from './stack';

/** One result in the repeat memory's saved text: a 14-character digest of its key and a 5-character age. */
const [DIGEST_LENGTH, RECORD_LENGTH] = [14, 19];

/**
 * The HaiPay Trigger followed by a Code node that keeps static data of its own, on a real n8n: n8n runs each
 * execution on a copy of the workflow's static data loaded as it starts, before the webhook request saved what the
 * trigger wrote, and saves that copy whole at the end of the run because the Code node changed it. The trigger's
 * repeat memory has to be in that copy, or a restart forgets it and HaiPay's resends start the workflow again.
 */

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Workflow IDs of at most 16 characters: n8n 1.x saves no static data of a workflow whose ID is longer
 * (`isWorkflowIdValid`), so a longer one would fail there whatever the trigger does.
 */
const WORKFLOW_ID = 'haipayTestCodeSD';
const WEBHOOK_ID = 'haipay-test-code-static-data';
const TRIGGER = 'HaiPay Trigger';
/** What a user writes to count runs across executions. */
const CODE = "const s = $getWorkflowStaticData('global');\ns.count = (s.count ?? 0) + 1;\nreturn $input.all();";

/** The slow/fast pair (issue 41, point 2): a run of the slow order takes 8 s in its Code node, started before the fast. */
const [SLOW_WORKFLOW_ID, SLOW_WEBHOOK_ID, SLOW_ORDER] = ['haipayTestSlowCd', 'haipay-test-slow-code', 'HPSLOW000001'];
const SLOW_CODE = `${CODE.replace(/return.*$/, '')}if ($input.first().json.orderNo === '${SLOW_ORDER}') await new Promise((done) => setTimeout(done, 8000));\nreturn $input.all();`;

function codeNodeWorkflow(id = WORKFLOW_ID, webhookId = WEBHOOK_ID, jsCode = CODE): WorkflowFile {
	const b = new WorkflowBuilder(id);
	const trigger = b.add(
		haiPayTrigger(TRIGGER, webhookId, { kind: 'payout', options: {} }, credentialOf('TZS'), [0, 0]),
	);
	const code = b.add({
		name: 'Count runs',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [220, 0],
		parameters: { jsCode },
	});
	b.connect(trigger, code);
	return b.file(
		'HaiPay test: trigger, then a Code node with static data',
		'Counts its runs in the global static data.',
	);
}

let stack: Stack;

beforeAll(async () => {
	stack = await startStack(log, {
		workflows: [codeNodeWorkflow(), codeNodeWorkflow(SLOW_WORKFLOW_ID, SLOW_WEBHOOK_ID, SLOW_CODE)],
	});
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
}, 60_000);

function url(webhookId = WEBHOOK_ID): string {
	return `${stack.server.url}/webhook/${webhookId}/webhook`;
}

/** A payout result signed as HaiPay signs it: the sandbox's platform key and the TZS App ID's secret. */
function signedCallback(orderNo: string): Record<string, unknown> {
	const credentials = JSON.parse(readFileSync(stack.credentialsFile, 'utf8')) as Array<{
		id: string;
		data: { secretKey: string };
	}>;
	const secret = credentials.find((credential) => credential.id === credentialOf('TZS').haiPayApi.id)?.data.secretKey;
	if (secret === undefined) throw new Error('the sandbox wrote no TZS credential');
	const body = callbackBody('payout', { orderId: `CODE-${orderNo}`, orderNo });
	return { ...body, sign: signBody(body, secret, createPrivateKey(stack.platformPrivateKey)) };
}

/** The executions of the workflow, once n8n lists at least `atLeast` and has finished every one it lists. */
async function finishedExecutions(
	atLeast: number,
	workflowId = WORKFLOW_ID,
): Promise<Array<{ status: string; mode: string }>> {
	return await eventually(`${atLeast} finished executions of the Code-node workflow`, async () => {
		const listed = await stack.rest.executions(workflowId);
		return listed.length >= atLeast && listed.every((execution) => !['new', 'running'].includes(execution.status))
			? listed
			: undefined;
	});
}

/** What n8n's database holds of the workflow's static data: the digests the trigger remembers, the Code node's count. */
async function stored(workflowId = WORKFLOW_ID): Promise<{ digests: string[]; count: unknown }> {
	const answer = await stack.rest.call('GET', `/workflows/${workflowId}`);
	expect(answer.status).toBe(200);
	type StaticData = Record<string, { repeatMemory?: { entries?: string }; count?: unknown } | undefined>;
	const { staticData } = (answer.json as { data: { staticData?: StaticData | null } }).data;
	const entries = staticData?.[`node:${TRIGGER}`]?.repeatMemory?.entries ?? '';
	const digests = (entries.match(new RegExp(`.{${RECORD_LENGTH}}`, 'g')) ?? []).map((record) =>
		record.slice(0, DIGEST_LENGTH),
	);
	return { digests, count: staticData?.global?.count };
}

/**
 * n8n answers its port before it has registered every active workflow's webhooks (slowly, on a busy machine): a body
 * the trigger refuses unread (401, nothing remembered) tells when this one's is registered.
 */
async function webhookRegistered(webhookId = WEBHOOK_ID): Promise<void> {
	await eventually("the trigger's production webhook registered", async () =>
		(await httpRequest(url(webhookId), { body: {} })).status === 404 ? undefined : true,
	);
}

describe('HaiPay Trigger, then a Code node with $getWorkflowStaticData, across a restart of n8n', () => {
	test('the resends after the restart start nothing, and the database holds the memory and the count', async () => {
		const callbacks = ['HPCODE000001', 'HPCODE000002'].map(signedCallback);
		await webhookRegistered();
		for (const body of callbacks) {
			const answer = await httpRequest(url(), { body });
			expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: 'SUCCESS' });
			// Each callback one execution, run to its end (and its static data saved) before the next one.
			await finishedExecutions(callbacks.indexOf(body) + 1);
		}
		const executions = await finishedExecutions(2);
		expect(executions.map((execution) => [execution.mode, execution.status])).toEqual([
			['webhook', 'success'],
			['webhook', 'success'],
		]);

		// The same instance and database; nothing of the trigger's memory survives in the process.
		await stack.restart();
		await webhookRegistered();
		for (const body of callbacks) {
			const answer = await httpRequest(url(), { body });
			expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: 'SUCCESS' });
		}
		// n8n answers SUCCESS for a callback that starts a run only once the run is stored: any is listed by now.
		const after = await finishedExecutions(2);
		const { digests, count } = await stored();
		expect({
			newExecutions: after.length - executions.length,
			remembered: callbacks.map((body) => digests.includes(digestOf(repeatKeys(body).dedupKey ?? ''))),
			count,
		}).toEqual({ newExecutions: 0, remembered: [true, true], count: 2 });
	});

	test(
		'a slow run whose Code node keeps static data, saved after a fast one, does not roll the memory back',
		async () => {
			const [slow, fast] = [SLOW_ORDER, 'HPFAST000001'].map(signedCallback);
			await webhookRegistered(SLOW_WEBHOOK_ID);
			const answers = [await httpRequest(url(SLOW_WEBHOOK_ID), { body: slow })];
			// The slow run's Code node has its copy of the static data (n8n sends it to the task runner) before the fast one.
			await new Promise((done) => setTimeout(done, 2000));
			answers.push(await httpRequest(url(SLOW_WEBHOOK_ID), { body: fast }));
			expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
				[200, 'SUCCESS'],
				[200, 'SUCCESS'],
			]);
			const executions = await finishedExecutions(2, SLOW_WORKFLOW_ID);
			const saved = (await stored(SLOW_WORKFLOW_ID)).digests;
			const keys = [slow, fast].map((body) => digestOf(repeatKeys(body).dedupKey ?? ''));
			expect(keys.map((key) => saved.includes(key))).toEqual([true, true]);

			await stack.restart();
			await webhookRegistered(SLOW_WEBHOOK_ID);
			for (const body of [fast, slow]) {
				const answer = await httpRequest(url(SLOW_WEBHOOK_ID), { body });
				expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: 'SUCCESS' });
			}
			const after = await finishedExecutions(2, SLOW_WORKFLOW_ID);
			expect(after.length - executions.length).toBe(0);
		},
		5 * 60_000,
	);
});
