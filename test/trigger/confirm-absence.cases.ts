/**
 * Confirm With HaiPay for currencies whose order query publishes no "no such order" answer (rules
 * `queryShowsAbsence: false`: USDT and KRW payouts, USDT and USDC collections). Contract §4.7 gives status 3 without an
 * order that meaning for its own currencies only; elsewhere such an answer proves nothing, and a status 3 that names
 * HaiPay's order is that order, failed. Callbacks go over real HTTP into n8n-core's webhook machinery; the queries go
 * to a fake gateway on 127.0.0.1 that answers, signed, what HaiPay's page leaves open.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { NOT_YET } from '../../nodes/HaiPayTrigger/reply';
import { APP_IDS } from '../fixtures/bodies';
import type { WebhookServer } from '../harness';
import { TEST_KEYS } from '../helpers/keys';
import { withSignature } from '../helpers/signing';
import { credentials, freshOrder, payoutCallback, SECRET, serveTrigger, signedByPlatform, TRIGGER } from './callbacks';

type Fields = Record<string, unknown>;
const PLATFORM_KEY = parsePrivateKey(TEST_KEYS.platformPrivate);

interface Gateway {
	baseUrl: string;
	paths: string[];
	close(): Promise<void>;
}

/** A gateway that answers every query with `data(body)`, signed as HaiPay signs answers. */
async function gatewayAnswering(data: (asked: Fields) => Fields): Promise<Gateway> {
	const paths: string[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			paths.push(req.url ?? '');
			const asked = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Fields;
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify({
					status: '1',
					error: '00000000',
					msg: 'success',
					data: withSignature(data(asked), SECRET, PLATFORM_KEY),
				}),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		paths,
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** HaiPay's "no such order" of contract §4.7: status 3, the orderId asked for, and no order behind it. */
const noSuchOrder = (asked: Fields): Fields => ({
	orderId: asked.orderId,
	status: 3,
	errorMsg: 'order does not exist',
});

describe('Confirm With HaiPay where the query publishes no "no such order" answer', () => {
	let server: WebhookServer | undefined;
	let gateway: Gateway | undefined;

	afterEach(async () => {
		await server?.close();
		await gateway?.close();
		server = undefined;
		gateway = undefined;
	});

	async function deliver(currency: 'USDT' | 'KRW' | 'TZS', answer: (asked: Fields) => Fields, callback: Fields) {
		gateway = await gatewayAnswering(answer);
		const credential = credentials({ baseUrl: gateway.baseUrl, appId: APP_IDS[currency], currency });
		server = await serveTrigger({ kind: 'payout', options: { confirmWithHaiPay: true } }, credential);
		const body = signedByPlatform({ ...callback, appId: APP_IDS[currency], currency });
		const reply = await server.send(TRIGGER, JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
		return { reply, logs: JSON.stringify(server.calls.map((call) => call.logs)) };
	}

	it.each(['USDT', 'KRW'] as const)(
		'%s: a status-3 answer without an order is not "no such order": 503, and the log says it proves nothing',
		async (currency) => {
			const { reply, logs } = await deliver(
				currency,
				noSuchOrder,
				payoutCallback({ ...freshOrder(currency), status: 3, errorMsg: 'failed' }),
			);
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(server!.executions).toHaveLength(0);
			expect(gateway!.paths).toEqual([`/${currency.toLowerCase()}/pay/query`]);
			// The log line is cut short; what it keeps says the answer was not trusted, not that the order is unknown to HaiPay.
			expect(logs).toMatch(/gave no trusted answer \(untrusted: HaiPay's answer could not be trusted: the answer has/);
			expect(logs).not.toMatch(/does not know the order/);
		},
	);

	it('TZS (contract 4.7 publishes it): the same answer is HaiPay not knowing the order yet', async () => {
		const { reply, logs } = await deliver(
			'TZS',
			noSuchOrder,
			payoutCallback({ ...freshOrder('TZS'), status: 3, errorMsg: 'failed' }),
		);
		expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
		expect(logs).toMatch(/the payout query does not know the order \(yet\)/);
	});

	it.each(['USDT', 'KRW'] as const)(
		"%s: a failed payout whose signed answer names HaiPay's order with status 3 and no amount is confirmed, not found absent",
		async (currency) => {
			const order = freshOrder(currency);
			const failed = (asked: Fields): Fields => ({
				orderId: asked.orderId,
				orderNo: order.orderNo,
				status: 3,
				errorMsg: 'address rejected',
			});
			const { reply } = await deliver(
				currency,
				failed,
				payoutCallback({ ...order, status: 3, errorMsg: 'address rejected' }),
			);
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server!.executions).toHaveLength(1);
			expect(server!.executions[0].items[0].json).toMatchObject({ orderNo: order.orderNo, status: 3, confirmed: true });
		},
	);

	it('attack: the same shape under TZS, where 4.7 gives it meaning, is HaiPay\'s "no such order", never a confirmation', async () => {
		const order = freshOrder('TZS');
		const { reply } = await deliver(
			'TZS',
			(asked) => ({ orderId: asked.orderId, orderNo: order.orderNo, status: 3, errorMsg: 'x' }),
			payoutCallback({ ...order, status: 3, errorMsg: 'x' }),
		);
		expect(reply.status).toBe(503);
		expect(server!.executions).toHaveLength(0);
	});
});
