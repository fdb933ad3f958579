import { WorkflowBuilder, type WorkflowFile } from '../../dev/workflow-builder';
import { haiPay, haiPayTrigger } from '../../playground/lib/haipay-nodes';
import { nodeOutput } from '../../playground/lib/n8n';
import { N8N_PORT } from '../../playground/lib/paths';
import { APP_IDS, PAYOUTS } from '../fixtures/bodies';
import { eventually, startStack, type Stack } from './stack';

/**
 * A USDT payout on a real n8n server: a workflow with Payout → Create in USDT, its fields typed in the panel as a
 * person would, run with `n8n execute`; HaiPay's signed answer proves it; the sandbox pays it out and posts the signed
 * result to an active workflow's HaiPay Trigger, which verifies it with the USDT App ID and starts a run.
 */

const log = (line: string) => process.stdout.write(`${line}\n`);

const PAY_ID = 'haipayTestUsdt';
const CALLBACKS_ID = 'haipayTestUsdtCb';
const WEBHOOK_ID = 'haipay-test-usdt-callbacks';
const ORDER_ID = 'E2E-USDT-0001';
const USDT = { haiPayApi: { id: `hpsandbox${APP_IDS.USDT}`, name: 'HaiPay Sandbox USDT' } };
/** The trigger's production URL, as a merchant pastes it into Notify URL. */
const NOTIFY_URL = `http://localhost:${N8N_PORT}/webhook/${WEBHOOK_ID}/webhook`;

function payWorkflow(): WorkflowFile {
	const b = new WorkflowBuilder(PAY_ID);
	const start = b.add({
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	});
	const { amount, accountType, bankCode, accountNo, name, phone, email, partnerUserId } = PAYOUTS.USDT;
	const parameters = {
		resource: 'payout',
		operation: 'create',
		currency: 'USDT',
		...{ orderId: ORDER_ID, amount, accountType, bankCode, accountNo, name, phone, email, partnerUserId },
		additionalFields: { notifyUrl: NOTIFY_URL, subject: 'Affiliate payout' },
	};
	const pay = b.add(haiPay('Pay USDT', 'USDT', parameters, [220, 0], { credentials: USDT }));
	b.connect(start, pay);
	return b.file('HaiPay test: a USDT payout', 'One USDT payout to a wallet address, its fields from the panel.');
}

function callbacksWorkflow(): WorkflowFile {
	const b = new WorkflowBuilder(CALLBACKS_ID);
	const trigger = b.add(haiPayTrigger('USDT results', WEBHOOK_ID, { kind: 'payout', options: {} }, USDT, [0, 0]));
	const next = b.add({
		name: 'Mark paid',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	});
	b.connect(trigger, next);
	return b.file('HaiPay test: USDT payout results', 'Receives the signed USDT payout callbacks.');
}

let stack: Stack;

beforeAll(async () => {
	stack = await startStack(log, { workflows: [callbacksWorkflow()], runnable: [payWorkflow()] });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
}, 60_000);

describe('a USDT payout on n8n', () => {
	test("is accepted with a verified answer, made once under the USDT App ID, and its signed result starts the trigger's workflow", async () => {
		const { run } = await stack.execute(PAY_ID);
		const [item] = nodeOutput(run, 'Pay USDT');
		expect(item).toMatchObject({ orderId: ORDER_ID, currency: 'USDT', outcome: 'accepted', verified: true });
		const orders = stack.sandbox.orders.filter((order) => order.orderId === ORDER_ID);
		expect(orders.map((order) => [order.appId, order.orderNo, Number(order.amount)])).toEqual([
			[APP_IDS.USDT, item.orderNo, Number(PAYOUTS.USDT.amount)],
		]);
		const sent = stack.sandbox.requests.filter((request) => request.path === '/usdt/pay/apply');
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toMatchObject({
			accountNo: PAYOUTS.USDT.accountNo,
			bankCode: PAYOUTS.USDT.bankCode,
			notifyUrl: NOTIFY_URL,
			appId: APP_IDS.USDT,
		});

		const callback = await stack.sandbox.waitForCallback(
			(attempt) => attempt.orderId === ORDER_ID && attempt.acknowledged,
			60_000,
		);
		expect(callback).toMatchObject({ appId: APP_IDS.USDT, url: NOTIFY_URL, httpStatus: 200, response: 'SUCCESS' });
		const executions = await eventually('a finished run of the USDT results workflow', async () => {
			const listed = await stack.rest.executions(CALLBACKS_ID);
			return listed.length > 0 && listed.every((execution) => !['new', 'running'].includes(execution.status))
				? listed
				: undefined;
		});
		expect(executions.map((execution) => [execution.mode, execution.status])).toEqual([['webhook', 'success']]);
		expect(stack.sandbox.orders.find((order) => order.orderId === ORDER_ID)?.status).toBe(2);
	});
});
