/**
 * Never SUCCESS for a result that did not run. n8n answers an emitting callback only once it has started the run
 * (2xx), or with an error when it could not (its database or Redis failed): the trigger learns which from n8n's own
 * call that ends the answer, also when HaiPay's connection closed first, and a copy arriving before then waits (503).
 * Over real HTTP into n8n-core's webhook machinery; the second callback of a burst waits out the rest of the
 * memory's save interval (a second) before its run starts, which is when the copies and the closed connection come.
 */
import { request as httpRequest } from 'http';

import { NOT_YET } from '../../nodes/HaiPayTrigger/reply';
import type { WebhookServer } from '../harness';
import { deliver, expectEmitted, freshOrder, payoutCallback, serveTrigger, signedByPlatform, TRIGGER } from './callbacks';

/** Posts `body` and closes the connection after `afterMs`, before any answer: HaiPay's side timing out. */
async function postAndHangUp(server: WebhookServer, body: unknown, afterMs: number): Promise<void> {
	await new Promise<void>((resolve) => {
		const req = httpRequest(server.url(TRIGGER), { method: 'POST', headers: { 'Content-Type': 'application/json' } });
		req.on('error', () => resolve());
		req.on('response', () => resolve());
		req.end(JSON.stringify(body));
		setTimeout(() => {
			req.destroy();
			resolve();
		}, afterMs);
	});
}

/** The runs started for one order. */
function runsOf(server: WebhookServer, orderNo: unknown): number {
	return server.executions.filter((execution) => execution.items[0]?.json.orderNo === orderNo).length;
}

describe('HaiPay Trigger: a result whose run n8n could not start', () => {
	let server: WebhookServer;
	beforeEach(async () => {
		server = await serveTrigger({ kind: 'payout' });
	});
	afterEach(async () => {
		await server.close();
	});

	it('is taken back when n8n writes its error to a connection HaiPay already closed: the resend runs once', async () => {
		expectEmitted(await deliver(server, signedByPlatform(payoutCallback(freshOrder()))));
		const body = signedByPlatform(payoutCallback(freshOrder()));
		server.failExecutionStarts(1);
		await postAndHangUp(server, body, 200);
		await server.idle();
		expect(runsOf(server, body.orderNo)).toBe(0);
		expect(server.calls.at(-1)?.statusCode).toBe(500);

		const resend = await deliver(server, body);
		expectEmitted(resend);
		expect(runsOf(server, body.orderNo)).toBe(1);
		expect((await deliver(server, body)).reply.text).toBe('SUCCESS');
		expect(runsOf(server, body.orderNo)).toBe(1);
	});

	it('is never acknowledged to a copy that came while n8n was starting it: the copy gets 503, and a resend runs once', async () => {
		expectEmitted(await deliver(server, signedByPlatform(payoutCallback(freshOrder()))));
		const body = signedByPlatform(payoutCallback(freshOrder()));
		server.failExecutionStarts(1);
		const first = server.send(TRIGGER, body);
		await new Promise((resolve) => setTimeout(resolve, 200));
		const copy = await server.send(TRIGGER, body);
		expect([copy.status, copy.text]).toEqual([503, NOT_YET]);
		expect((await first).status).toBe(500);
		await server.idle();
		expect(runsOf(server, body.orderNo)).toBe(0);

		expectEmitted(await deliver(server, body));
		expect(runsOf(server, body.orderNo)).toBe(1);
	});

	it('is acknowledged to a copy once its run started', async () => {
		expectEmitted(await deliver(server, signedByPlatform(payoutCallback(freshOrder()))));
		const body = signedByPlatform(payoutCallback(freshOrder()));
		const first = server.send(TRIGGER, body);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect((await server.send(TRIGGER, body)).status).toBe(503);
		expect((await first).text).toBe('SUCCESS');
		await server.idle();
		expect((await server.send(TRIGGER, body)).text).toBe('SUCCESS');
		expect(runsOf(server, body.orderNo)).toBe(1);
	});
});
