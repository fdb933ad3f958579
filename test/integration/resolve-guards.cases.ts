/**
 * What Resolve Unknown Outcomes must not conclude from: a "no such order" that HaiPay did not sign (the public key
 * is set, but the answer carries no valid signature), the signed answer about another order, and an empty answer.
 * Each would otherwise turn a create whose order may exist into `not_found` (resend it), `rejected`, `accepted`
 * or `duplicate`. Real n8n-core executions against the sandbox, or against a small fake gateway on 127.0.0.1
 * where the sandbox cannot give the answer (it signs every data object it sends).
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import type { IDataObject } from 'n8n-workflow';

import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import type { Sandbox } from '../../sandbox';
import { TEST_KEYS } from '../helpers/keys';
import { signBody } from '../helpers/signing';
import {
	credentialFor,
	NODE,
	payoutFromItem,
	runNode,
	sandboxPerFile,
	TZS_FIELDS,
	tzsRow,
	uniqueOrderId,
} from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const keepGoing = { onError: 'continueRegularOutput' };
/**
 * Not Found After passes within Resolve Within, so a "no such order" would count if it were proven: the second query,
 * a second after the first, is past it (the signed control below is settled by it). Resolve Within is no longer than
 * that needs, since an answer that settles nothing is asked about until it has passed.
 */
const resolving = {
	...payoutFromItem('TZS', TZS_FIELDS),
	options: { timeout: 1000, resolveWithin: 2, notFoundAfter: 1 },
};
const NOT_FOUND = 'order does not exist';

function queriesOf(orderId: unknown) {
	return sandbox.requests.filter((request) => request.path === '/tzs/pay/query' && request.orderId === orderId);
}

async function createOne(row: IDataObject, baseUrl = sandbox.baseUrl): Promise<IDataObject> {
	const credential = credentialFor(sandbox, 'TZS', { baseUrl });
	const result = await runNode(sandbox, { parameters: resolving, items: [row], settings: keepGoing, credential });
	return result.jsonOf(NODE)[0];
}

describe('an unsigned "no such order" settles nothing', () => {
	it('a create lost before HaiPay took it, queried and answered "no such order" with a spoiled signature: unknown, not not_found', async () => {
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		sandbox.control.addFault({ type: 'badSignature', path: '/tzs/pay/query' });
		const row = tzsRow();
		const item = await createOne(row);
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId });
		expect(String(item.error)).toContain("signature does not verify with the credential's HaiPay public key");
		// Asked on after Not Found After had passed: a signed answer then would have settled it.
		expect(queriesOf(row.orderId).length).toBeGreaterThanOrEqual(2);
	});

	it('a refusal, queried and answered "no such order" with a spoiled signature: unknown, not rejected', async () => {
		sandbox.control.addFault({
			type: 'statusZero',
			when: 'before',
			path: '/tzs/pay/apply',
			code: '5001',
			msg: 'Insufficient balance',
			times: 1,
		});
		sandbox.control.addFault({ type: 'badSignature', path: '/tzs/pay/query' });
		const row = tzsRow();
		const item = await createOne(row);
		expect(item).toMatchObject({ outcome: 'unknown', errorCode: '5001', orderId: row.orderId });
		expect(String(item.error)).toContain('that refusal is not signed');
		expect(queriesOf(row.orderId).length).toBeGreaterThanOrEqual(2);
	});

	it.each([
		['answered 503', (res: Reply) => res(503, 'Service Unavailable')],
		['refused with status "0"', (res: Reply) => res(200, { status: '0', error: '5001', msg: 'Insufficient balance' })],
	])('a create %s, then "no such order" with no sign member at all: unknown', async (_what, apply) => {
		const gateway = await fakeGateway(apply, (orderId) => ({ orderId, orderNo: '', status: 3, errorMsg: NOT_FOUND }));
		try {
			const row = tzsRow();
			const item = await createOne(row, gateway.url);
			expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
			expect(item).not.toHaveProperty('resolvedBy');
			expect(gateway.applies).toBe(1);
			expect(gateway.queries).toBeGreaterThanOrEqual(2);
		} finally {
			await gateway.close();
		}
	});

	it('the same fake gateway signing its "no such order" is believed: not_found (the fake gateway is not the cause)', async () => {
		const gateway = await fakeGateway(
			(res) => res(503, 'Service Unavailable'),
			(orderId) => ({ orderId, orderNo: '', status: 3, errorMsg: NOT_FOUND }),
			true,
		);
		try {
			expect(await createOne(tzsRow(), gateway.url)).toMatchObject({ outcome: 'not_found' });
		} finally {
			await gateway.close();
		}
	});
});

describe("another order's answer, or an empty one, settles nothing", () => {
	/** Another order HaiPay really has, for the same amount as the row. */
	function otherOrder() {
		return sandbox.control.createOrder({
			appId: credentialFor(sandbox, 'TZS').appId as number,
			orderId: uniqueOrderId('OTHER'),
			amount: '15000.00',
			status: 2,
		});
	}

	it.each([
		["another order's, same amount, paid", () => ({ ...pick(otherOrder()), status: 2 })],
		["another order's, another amount", () => ({ ...pick(otherOrder()), amount: '99000.00', status: 2 })],
		[
			'another orderId\'s "no such order"',
			() => ({ orderId: uniqueOrderId('OTHER'), orderNo: '', status: 3, errorMsg: NOT_FOUND }),
		],
		['an empty data object', () => ({})],
	])('a create lost before HaiPay took it, queried and answered (signed) with %s: unknown', async (_what, answer) => {
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		sandbox.control.addFault({ type: 'replaceData', path: '/tzs/pay/query', data: answer() });
		const row = tzsRow();
		const item = await createOne(row);
		expect(item).toMatchObject({ outcome: 'unknown', errorType: 'unknown', orderId: row.orderId });
		expect(item).not.toHaveProperty('orderNo');
		expect(String(item.error)).toContain("HaiPay's answer could not be trusted");
	});

	it('answered success with an empty text for data: unknown, and it says there was no data object', async () => {
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		sandbox.control.addFault({ type: 'replaceData', path: '/tzs/pay/query', data: '' });
		const row = tzsRow();
		const item = await createOne(row);
		expect(item).toMatchObject({ outcome: 'unknown', orderId: row.orderId });
		expect(String(item.error)).toContain('answered the order query without a data object');
	});
});

function pick(order: { orderId: string; orderNo: string; amount: string }): IDataObject {
	return { orderId: order.orderId, orderNo: order.orderNo, amount: order.amount, fee: '0.00', errorMsg: '' };
}

type Reply = (status: number, body: string | IDataObject) => void;

interface FakeGateway {
	url: string;
	applies: number;
	queries: number;
	close(): Promise<void>;
}

/**
 * A gateway that answers creates with `apply` and queries with `query`'s data, in HaiPay's envelope; signed with
 * the sandbox's platform key and the TZS secret only when `sign` is set (the sandbox signs every data object).
 */
async function fakeGateway(
	apply: (res: Reply) => void,
	query: (orderId: string) => IDataObject,
	sign = false,
): Promise<FakeGateway> {
	const platform = parsePrivateKey(TEST_KEYS.platformPrivate);
	const counts = { applies: 0, queries: 0 };
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const reply: Reply = (status, body) => {
				const json = typeof body !== 'string';
				res
					.writeHead(status, { 'content-type': json ? 'application/json' : 'text/plain' })
					.end(json ? JSON.stringify(body) : body);
			};
			if (req.url?.endsWith('/pay/apply')) {
				counts.applies += 1;
				apply(reply);
				return;
			}
			counts.queries += 1;
			const data = query(String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as IDataObject).orderId));
			const signed = sign ? { ...data, sign: signBody(data, 'test-only-secret-tzs', platform) } : data;
			reply(200, { status: '1', error: '00000000', msg: 'success', data: signed });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		get applies() {
			return counts.applies;
		},
		get queries() {
			return counts.queries;
		},
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
