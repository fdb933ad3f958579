/**
 * examples/7-pix.json: its PIX QR collection and PIX payout nodes, exactly as saved, run in n8n-core against the
 * sandbox on the items its "Order" and "Payee" nodes make. (The example's other nodes are n8n's own Set and Manual
 * Trigger, which run on a real n8n only.)
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { NODE, runNode, sandboxPerFile } from './helpers';

interface ExampleNode {
	name: string;
	type: string;
	parameters: IDataObject;
	typeVersion: number;
	credentials?: { haiPayApi?: { id: string; name: string } };
	disabled?: boolean;
}

const example = JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', '7-pix.json'), 'utf8')) as {
	nodes: ExampleNode[];
};
const byName = (name: string) => example.nodes.find((node) => node.name === name) as ExampleNode;

/** What an n8n Set node of the example outputs: its assignments, as one item. */
function setOutput(name: string): IDataObject {
	const assignments = (byName(name).parameters.assignments as { assignments: Array<{ name: string; value: string }> })
		.assignments;
	return Object.fromEntries(assignments.map((assignment) => [assignment.name, assignment.value]));
}

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

describe('examples/7-pix.json', () => {
	it('the PIX QR collection, as saved, returns the PIX code and page for the payer; a second run is a duplicate', async () => {
		const node = byName('PIX QR collection');
		expect(node.credentials?.haiPayApi).toEqual({ id: `hpsandbox${APP_IDS.BRL}`, name: 'HaiPay Sandbox BRL' });
		const order = setOutput('Order');
		const run = async () =>
			(
				await runNode(sandbox, {
					currency: 'BRL',
					parameters: node.parameters as INodeParameters,
					items: [order],
					settings: { onError: 'continueRegularOutput', typeVersion: node.typeVersion },
				})
			).jsonOf(NODE)[0];
		const first = await run();
		expect(first).toMatchObject({
			outcome: 'accepted',
			orderId: order.orderId,
			bankCode: 'PIX',
			payUrl: expect.stringContaining('/cashier/'),
		});
		expect(String(first.qrCode)).toMatch(/^000201.*br\.gov\.bcb\.pix/);
		expect(sandbox.requests.find((request) => request.path === '/brl/collect/apply')?.body).toMatchObject({
			inBankNo: order.cpf,
			payType: 'QR',
			inBankCode: 'PIX',
			amount: '300.00',
		});
		expect(await run()).toMatchObject({ outcome: 'duplicate', errorCode: '4006' });
	});

	it('the PIX payout, as saved, pays the CPF key; a second run is a duplicate', async () => {
		const node = byName('PIX payout');
		expect(node.disabled).toBeUndefined();
		expect(node.credentials?.haiPayApi).toEqual({ id: `hpsandbox${APP_IDS.BRL}`, name: 'HaiPay Sandbox BRL' });
		const payee = setOutput('Payee');
		const run = async () =>
			(
				await runNode(sandbox, {
					currency: 'BRL',
					parameters: node.parameters as INodeParameters,
					items: [payee],
					settings: { onError: 'continueRegularOutput', typeVersion: node.typeVersion },
				})
			).jsonOf(NODE)[0];
		expect(await run()).toMatchObject({ outcome: 'accepted', orderId: payee.orderId, currency: 'BRL' });
		expect(sandbox.requests.find((request) => request.path === '/brl/pay/apply')?.body).toMatchObject({
			bankCode: 'PIX',
			identifyType: 'CPF',
			accountNo: payee.cpf,
			amount: '500.00',
		});
		expect(await run()).toMatchObject({ outcome: 'duplicate', errorCode: '4006' });
	});
});
