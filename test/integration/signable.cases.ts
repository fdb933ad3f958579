/**
 * The node's side of the rules it shares with the library's signBody (nodes/shared/signing/signable.ts), in real
 * n8n-core executions: Extra Fields given as an object by an expression, whose numbers lost their text, are refused
 * when a number is binary arithmetic's residue; a name that reads as `key` once width and invisible characters are
 * ignored is refused as `reserved`. Nothing reaches the gateway (a small one on 127.0.0.1 that would accept it).
 */
import type { IDataObject } from 'n8n-workflow';

import { PAYOUTS } from '../fixtures/bodies';
import { uniqueOrderId } from './helpers';
import { credentialOf, runAgainst, signingGateway, type SigningGateway } from './signing-gateway';

let gateway: SigningGateway;

beforeAll(async () => {
	gateway = await signingGateway((_path, body) => ({
		data: { orderId: body.orderId, orderNo: `HP-${String(body.orderId)}` },
	}));
});

afterAll(async () => {
	await gateway.close();
});

const parameters = {
	resource: 'payout',
	operation: 'create',
	currency: 'ZAR',
	fieldsFrom: 'input',
	options: { resolveUnknown: false, extraFields: '={{ $json.extra }}' },
};

async function payWith(extra: IDataObject): Promise<{ item: IDataObject; sent: number }> {
	const orderId = uniqueOrderId('SIGNABLE');
	const [item] = await runAgainst(credentialOf(gateway.url, ['ZAR']), parameters, [{ orderId, ...PAYOUTS.ZAR, extra }]);
	return { item, sent: gateway.requests.filter((request) => request.body.orderId === orderId).length };
}

describe('Extra Fields as an object: the rules the library shares', () => {
	it.each([
		['0.1 + 0.2', 0.1 + 0.2],
		['1.1 * 3', 1.1 * 3],
	])('refuses %s, whose digits are not the decimal meant, and sends nothing', async (_what, value) => {
		const { item, sent } = await payWith({ branchRate: value });
		expect(item).toMatchObject({ outcome: 'invalid', field: 'extraFields', rule: 'number' });
		expect(String(item.error)).toContain('"branchRate"');
		expect(String(item.error)).toContain('not the decimal meant');
		expect(sent).toBe(0);
	});

	it.each([
		['fullwidth letters', '\uff4b\uff45\uff59'],
		['a zero-width space', 'ke\u200by'],
	])('refuses a name that reads as "key" with %s, as reserved, and sends nothing', async (_what, name) => {
		const { item, sent } = await payWith({ [name]: 'x' });
		expect(item).toMatchObject({ outcome: 'invalid', field: 'extraFields', rule: 'reserved' });
		expect(String(item.error)).toContain('where the signed text holds the secret key');
		expect(sent).toBe(0);
	});

	it('signs exact numbers and plain names, and HaiPay takes it', async () => {
		const { item, sent } = await payWith({ branchRate: 0.3, branchRef: 9007199254740991, keyRef: 'K1' });
		expect(item).toMatchObject({ outcome: 'accepted', verified: true });
		expect(sent).toBe(1);
	});
});
