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

const WORKFLOW_ID = 'haipayTestCodeSD';
const WEBHOOK_ID = 'haipay-test-code-static-data';
const TRIGGER = 'HaiPay Trigger';
/** What a user writes to count runs across executions. */
const CODE = "const s = $getWorkflowStaticData('global');\ns.count = (s.count ?? 0) + 1;\nreturn $input.all();";

function codeNodeWorkflow(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_ID);
	const trigger = b.add(
		haiPayTrigger(TRIGGER, WEBHOOK_ID, { kind: 'payout', options: {} }, credentialOf('TZS'), [0, 0]),
	);
	const code = b.add({
		name: 'Count runs',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [220, 0],
		parameters: { jsCode: CODE },
	});
	b.connect(trigger, code);
	return b.file(
		'HaiPay test: trigger, then a Code node with static data',
		'Counts its runs in the global static data.',
	);
}

let stack: Stack;

beforeAll(async () => {
	stack = await startStack(log, { workflows: [codeNodeWorkflow()] });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
}, 60_000);

function url(): string {
	return `${stack.server.url}/webhook/${WEBHOOK_ID}/webhook`;
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
async function finishedExecutions(atLeast: number): Promise<Array<{ status: string; mode: string }>> {
	return await eventually(`${atLeast} finished executions of the Code-node workflow`, async () => {
		const listed = await stack.rest.executions(WORKFLOW_ID);
		return listed.length >= atLeast && listed.every((execution) => !['new', 'running'].includes(execution.status))
			? listed
			: undefined;
	});
}

/** What n8n's database holds of the workflow's static data: the digests the trigger remembers, the Code node's count. */
async function stored(): Promise<{ digests: string[]; count: unknown }> {
	const answer = await stack.rest.call('GET', `/workflows/${WORKFLOW_ID}`);
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
async function webhookRegistered(): Promise<void> {
	await eventually("the trigger's production webhook registered", async () =>
		(await httpRequest(url(), { body: {} })).status === 404 ? undefined : true,
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
});
