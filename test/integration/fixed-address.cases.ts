/**
 * HaiPay's crypto collection to a fixed address, end to end: Collection → Get Fixed Address asks for the permanent
 * USDT address of a network and gets the same one each time, checked as a TRON address, checksum included; every
 * transfer to it is a collection of its own, and the HaiPay Trigger runs once per transfer, a resend of one being
 * a repeat. A gateway that answers with a mistyped or foreign address is not believed. Real n8n-core executions
 * against the sandbox and a small signing gateway, over HTTP.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import type { Sandbox } from '../../sandbox';
import { NO_OP_NODE_TYPE, webhookServer } from '../harness';
import { credentialFor, NODE, runNode, sandboxPerFile } from './helpers';
import { credentialOf, runAgainst, signingGateway } from './signing-gateway';

const running = sandboxPerFile({ manual: true, callbackSchedule: [50, 50] });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const PATH = '/usdt/collect/apply/multiple';
const keepGoing = { onError: 'continueRegularOutput' };
const fixedAddress = (inBankCode = 'FIX_TRX'): INodeParameters => ({
	resource: 'collection',
	operation: 'getFixedAddress',
	currency: 'USDT',
	inBankCode,
});

async function addressOf(parameters = fixedAddress()): Promise<IDataObject> {
	const result = await runNode(sandbox, { currency: 'USDT', parameters, settings: keepGoing });
	return result.jsonOf(NODE)[0];
}

describe('Collection → Get Fixed Address', () => {
	it("answers the network's permanent address, a TRON one, the same on every request; only that path is asked", async () => {
		const before = sandbox.requests.length;
		const first = await addressOf();
		const second = await addressOf();
		expect(first).toMatchObject({ network: 'FIX_TRX', permanent: true, currency: 'USDT', verified: true });
		expect(String(first.address)).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
		expect(second.address).toBe(first.address);
		expect(first.payUrl).toEqual(expect.stringContaining(String(first.address)));
		const asked = sandbox.requests.slice(before);
		expect(asked.map((request) => request.path)).toEqual([PATH, PATH]);
	});

	it.each([
		['empty (n8n itself refuses the run)', ''],
		['mapped from an item that has none', '={{ $json.network }}'],
		['one the page does not list', 'FIX_ETH'],
	])('a network %s is refused before anything is sent', async (what, inBankCode) => {
		const before = sandbox.requests.length;
		if (inBankCode === '') {
			await expect(addressOf(fixedAddress(inBankCode))).rejects.toThrow(/"Network" is required/);
		} else {
			expect(await addressOf(fixedAddress(inBankCode))).toMatchObject({ errorType: 'invalid', field: 'inBankCode' });
		}
		expect(sandbox.requests.length).toBe(before);
	});
});

describe('a gateway whose signed answer gives an address that is not the network’s', () => {
	it.each([
		['a mistyped character (the checksum fails)', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
		['an EVM address', '0x52908400098527886E0F7030069857D2E4169EE7'],
		['none', ''],
	])('%s: not believed, nothing shown as the address', async (_what, bankNo) => {
		const gateway = await signingGateway(() => ({ data: { payUrl: 'https://pay.example/x', bankNo } }));
		try {
			const [item] = await runAgainst(credentialOf(gateway.url, ['USDT']), fixedAddress(), [{}]);
			expect(item).toMatchObject({ errorType: 'untrusted' });
			expect(item).not.toHaveProperty('address');
		} finally {
			await gateway.close();
		}
	});

	it('a valid address in an answer no signature proves (the credential has no HaiPay public key) is not shown', async () => {
		const bankNo = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
		const gateway = await signingGateway(() => ({ data: { payUrl: 'https://pay.example/x', bankNo } }));
		try {
			const credential = { ...credentialOf(gateway.url, ['USDT']), haipayPublicKey: '' };
			const [item] = await runAgainst(credential, fixedAddress(), [{}]);
			expect(item).toMatchObject({ errorType: 'untrusted' });
			expect(String(item.error)).toMatch(/not signed by HaiPay/);
			expect(item).not.toHaveProperty('address');
		} finally {
			await gateway.close();
		}
	});

	it('the other side: a valid TRON address is shown as it came', async () => {
		const bankNo = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
		const gateway = await signingGateway(() => ({ data: { payUrl: 'https://pay.example/x', bankNo } }));
		try {
			const [item] = await runAgainst(credentialOf(gateway.url, ['USDT']), fixedAddress(), [{}]);
			expect(item).toMatchObject({ address: bankNo, network: 'FIX_TRX', verified: true });
		} finally {
			await gateway.close();
		}
	});
});

describe('deposits to the fixed address reach the HaiPay Trigger', () => {
	it('once per deposit, each with its own orderNo and transaction hash; a resend of a deposit runs nothing', async () => {
		const server = await webhookServer({
			nodeTypes: [HaiPayTrigger],
			credentials: { hp: { type: 'haiPayApi', data: credentialFor(sandbox, 'USDT') } },
			nodes: [
				{ name: 'HaiPay Trigger', type: 'haiPayTrigger', parameters: { kind: 'collection' } },
				{ name: 'Next', type: NO_OP_NODE_TYPE },
			],
		});
		try {
			const address = String((await addressOf()).address);
			const url = server.url('HaiPay Trigger');
			const first = sandbox.control.deposit(address, '25.00', url);
			const second = sandbox.control.deposit(address, '40.50', url);
			await server.waitForExecutions(2);
			sandbox.control.resendCallback(first.orderNo, url);
			await sandbox.waitForCallback(
				(attempt) => attempt.orderNo === first.orderNo && attempt.attempt === 1 && attempt.jobId !== first.id,
			);
			await sandbox.control.flushCallbacks();
			// A run the resend wrongly started is recorded after its answer: wait for every run to end.
			await server.idle();
			// The two deposits' callbacks are sent at once, and either may start its run first.
			const items = server.executions
				.map((execution) => execution.items[0].json)
				.sort((a, b) => Number(a.amount) - Number(b.amount));
			expect(items).toHaveLength(2);
			expect(items.map((item) => [item.orderNo, item.amount, item.kind, item.status])).toEqual([
				[first.orderNo, '25.00', 'collection', 2],
				[second.orderNo, '40.50', 'collection', 2],
			]);
			expect(items[0].hash).toMatch(/^[0-9a-f]{64}$/);
			expect(items[1].hash).not.toBe(items[0].hash);
			expect(items[0].orderId).not.toBe(items[1].orderId);
			expect(items[0].unknownFields).toEqual([]);
			// The page gives a deposit's payTime in New York time: the item says so with the offset, and is that moment.
			for (const item of items) {
				expect(item.payTimeIso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[45]:00$/);
				expect(String(item.payTimeIso).slice(0, 19)).toBe(String(item.payTime).replace(' ', 'T'));
				expect(Math.abs(Date.parse(String(item.payTimeIso)) - Date.now())).toBeLessThan(120_000);
			}
		} finally {
			await server.close();
		}
	});
});
