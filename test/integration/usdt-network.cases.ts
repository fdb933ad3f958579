/**
 * USDT payouts name their Network (node version 4), which decides the wallet address check, in real n8n-core
 * executions against the sandbox: each edge on both sides (valid, one character changed, the other chain's address,
 * EVM in lower, upper and mixed case) refused before anything is signed or accepted by the sandbox's own USDT schema,
 * in Payout → Check and Payout → Create alike; By Code sent as given, which Check says; the network never sent; a
 * version 3 node (a saved workflow) sending as it did, with Check saying the address was not checked.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { PAYOUTS } from '../fixtures/bodies';
import { EVM, TRON } from '../helpers/usdt-addresses';
import { named, NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const keepGoing = { onError: 'continueRegularOutput' };

function row(network: string | undefined, accountNo: string): IDataObject {
	return { orderId: uniqueOrderId('USDT-NET'), ...PAYOUTS.USDT, network, accountNo };
}

/** [row, expected field and rule, or null for valid]: every edge of the check, on both sides. */
const EDGES: Array<[IDataObject, [string, string] | null]> = [
	[row('TRON', TRON.valid[0]), null],
	[row('TRON', TRON.valid[1]), null],
	[row('TRON', TRON.oneChanged[0]), ['accountNo', 'checksum']],
	[row('TRON', TRON.oneChanged[1]), ['accountNo', 'checksum']],
	[row('TRON', 'not an address!'), ['accountNo', 'address']],
	[row('TRON', EVM.mixed[0]), ['accountNo', 'network']],
	[row('EVM', EVM.mixed[0]), null],
	[row('EVM', EVM.lower[0]), null],
	[row('EVM', EVM.upper[0]), null],
	[row('EVM', EVM.oneChanged[0]), ['accountNo', 'checksum']],
	[row('EVM', EVM.oneChanged[1]), ['accountNo', 'checksum']],
	[row('EVM', EVM.malformed[0]), ['accountNo', 'address']],
	[row('EVM', TRON.valid[0]), ['accountNo', 'network']],
	[row('BY_CODE', 'not an address!'), null],
	[row(undefined, TRON.valid[0]), ['network', 'required']],
	[row('TRC20', TRON.valid[0]), ['network', 'enum']],
];

function sheet(operation: 'check' | 'create'): INodeParameters {
	return {
		resource: 'payout',
		operation,
		currency: 'USDT',
		fieldsFrom: 'input',
		options: { timeout: 1000, resolveWithin: 10, notFoundAfter: 1 },
	};
}

async function run(parameters: INodeParameters, rows: IDataObject[], typeVersion?: number): Promise<IDataObject[]> {
	const result = await runNode(sandbox, {
		currency: 'USDT',
		parameters,
		items: rows,
		settings: { ...keepGoing, ...(typeVersion === undefined ? {} : { typeVersion }) },
	});
	return result.jsonOf(NODE);
}

const sent = (orderId: unknown) =>
	sandbox.requests
		.filter((request) => request.path === '/usdt/pay/apply' && request.orderId === orderId)
		.map((request) => request.body as IDataObject);

describe('USDT: the Network decides the address check', () => {
	it('Payout → Check: every edge valid or invalid with field and rule, nothing sent; By Code and checksum-less EVM warned', async () => {
		const before = sandbox.appliesReceived();
		const out = await run(
			sheet('check'),
			EDGES.map(([item]) => item),
		);
		expect(out.map((item) => [item.outcome, item.field ?? null, item.rule ?? null])).toEqual(
			EDGES.map(([, refused]) => (refused === null ? ['valid', null, null] : ['invalid', ...refused])),
		);
		expect(sandbox.appliesReceived()).toBe(before);
		const warned = (index: number) => (out[index].warnings as string[]).join(' ');
		expect(warned(13)).toContain('Network is By Code');
		expect(warned(7)).toContain('no EIP-55 checksum');
		expect(warned(8)).toContain('no EIP-55 checksum');
		expect(out[6].warnings).toEqual([]);
		expect(out[0].warnings).toEqual([]);
	});

	it('Payout → Create: the same edges, the valid ones accepted by the sandbox as given, the network never sent', async () => {
		const before = sandbox.appliesReceived();
		const out = await run(
			sheet('create'),
			EDGES.map(([item]) => item),
		);
		expect(out.map((item) => [item.outcome, item.field ?? null, item.rule ?? null])).toEqual(
			EDGES.map(([, refused]) => (refused === null ? ['accepted', null, null] : ['invalid', ...refused])),
		);
		const valid = EDGES.filter(([, refused]) => refused === null);
		expect(sandbox.appliesReceived() - before).toBe(valid.length);
		for (const [item] of valid) {
			const bodies = sent(item.orderId);
			expect(bodies.map((body) => [body.accountNo, body.bankCode, 'network' in body])).toEqual([
				[item.accountNo, PAYOUTS.USDT.bankCode, false],
			]);
		}
		for (const [item] of EDGES.filter(([, refused]) => refused !== null)) expect(sent(item.orderId)).toEqual([]);
	});

	it('Parameters Below: the Network starts on nothing and an item without one is refused; a fixed EVM refuses a TRON address', async () => {
		const fields = { ...PAYOUTS.USDT, network: undefined };
		const base = named({ resource: 'payout', operation: 'create', currency: 'USDT', ...fields } as INodeParameters);
		const [unchosen] = await run({ ...base, orderId: uniqueOrderId('USDT-NET') }, [{}]);
		expect(unchosen).toMatchObject({ outcome: 'invalid', field: 'network', rule: 'required' });
		const [mismatch] = await run({ ...base, orderId: uniqueOrderId('USDT-NET'), network: 'EVM' }, [{}]);
		expect(mismatch).toMatchObject({ outcome: 'invalid', field: 'accountNo', rule: 'network' });
		const orderId = uniqueOrderId('USDT-NET');
		const [paid] = await run({ ...base, orderId, network: 'EVM', accountNo: EVM.mixed[1] }, [{}]);
		expect(paid).toMatchObject({ outcome: 'accepted' });
		expect(sent(orderId).map((body) => body.accountNo)).toEqual([EVM.mixed[1]]);
	});

	it('a version 3 node (a saved workflow) sends the address as given, as before; its Check says it was not checked', async () => {
		const item = row(undefined, 'not an address!');
		const [checked] = await run(sheet('check'), [item], 3);
		expect(checked).toMatchObject({ outcome: 'valid' });
		expect((checked.warnings as string[]).join(' ')).toContain('was not checked');
		const [paid] = await run(sheet('create'), [item], 3);
		expect(paid).toMatchObject({ outcome: 'accepted' });
		expect(sent(item.orderId).map((body) => body.accountNo)).toEqual(['not an address!']);
	});
});
