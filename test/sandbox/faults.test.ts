import type { RequestLogEntry, Sandbox } from '../../sandbox';
import { recordTimers } from '../helpers/timers';
import {
	APP,
	call,
	control,
	dataVerifies,
	payoutFor,
	rawPost,
	signed,
	tzsPayout,
	withSandbox,
	type Body,
} from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await withSandbox({ hangMs: 5_000 });
});
afterEach(() => sandbox.control.clearFaults());
afterAll(() => sandbox.close());

const created = (body: Body) => sandbox.control.order({ orderId: String(body.orderId), appId: body.appId as number });

/**
 * Resolves once the sandbox has handled the request of `body` and holds its answer back: where a client waiting
 * for the answer gives up. Any other outcome leaves it pending, so that the answer reaches the client.
 */
function heldBack(body: Body): Promise<void> {
	return new Promise((resolve) => {
		const logged = (entry: RequestLogEntry) => {
			if (entry.orderId !== body.orderId) return;
			sandbox.events.off('request', logged);
			if (entry.msg === 'timeout after handling') resolve();
		};
		sandbox.events.on('request', logged);
	});
}

/** How a request ended; `giveUp` only where the sandbox is to hold the answer back. */
async function failure(path: string, body: Body, giveUp?: Promise<unknown>): Promise<string> {
	try {
		const raw = await rawPost(sandbox.baseUrl, path, signed(body), giveUp);
		return `answered ${raw.httpStatus}`;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
	}
}

/**
 * One call, with the timers set while it ran and its answer, in order (test/helpers/timers.ts): what a latency
 * does, shown by the wait the sandbox set and what came after it, never by a time measured. `atSet` may note
 * what the sandbox holds when a wait begins.
 */
async function delayedCall(path: string, body: Body, atSet?: (ms: number) => string | undefined): Promise<string[]> {
	const events: string[] = [];
	const stop = recordTimers(events, (ms) => {
		const note = atSet?.(ms);
		if (note !== undefined) events.push(note);
	});
	try {
		const answer = await call(sandbox, path, body);
		events.push(`answered ${answer.status}`);
	} finally {
		stop();
	}
	return events;
}

/** Whether `wanted` occur in `events` in this order (other events may come between) and the waits among them once. */
function inOrder(events: string[], wanted: string[]): boolean {
	const at = wanted.map((event) => events.indexOf(event));
	const once = wanted.every(
		(event) => !/^(set|fired) /.test(event) || events.lastIndexOf(event) === events.indexOf(event),
	);
	return once && at.every((index, i) => index >= 0 && (i === 0 || index > at[i - 1]));
}

describe('injected faults', () => {
	it('latency holds the request for its ms before handling it, then answers', async () => {
		sandbox.control.addFault({ type: 'latency', ms: 137, times: 1 });
		const body = tzsPayout();
		const events = await delayedCall('/tzs/pay/apply', body, (ms) =>
			ms === 137 ? `order at wait: ${created(body) !== undefined}` : undefined,
		);
		// A wait of exactly the fault's ms, begun before the order existed; the answer came only after it ended.
		expect(inOrder(events, ['set 137', 'order at wait: false', 'fired 137', 'answered 1'])).toBe(true);
		expect(created(body)).toBeDefined();
		expect(sandbox.control.faults()).toEqual([]);
	});

	it('an HTTP error before handling creates nothing; after handling the order exists', async () => {
		sandbox.control.addFault({ type: 'httpError', times: 1 });
		const lost = tzsPayout();
		const raw = await rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(lost));
		expect(raw.httpStatus).toBe(502);
		expect(raw.contentType).toContain('text/html');
		expect(raw.bytes.toString()).toContain('502 Bad Gateway');
		expect(created(lost)).toBeUndefined();

		sandbox.control.addFault({ type: 'httpError', status: 503, when: 'after', times: 1 });
		const hidden = tzsPayout();
		expect((await rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(hidden))).httpStatus).toBe(503);
		expect(created(hidden)?.status).toBe(1);
		expect((await rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(tzsPayout()))).httpStatus).toBe(200);
	});

	it('a dropped connection before or after handling', async () => {
		sandbox.control.addFault({ type: 'drop', times: 1 });
		const before = tzsPayout();
		expect(await failure('/tzs/pay/apply', before)).toMatch(/ECONNRESET|socket hang up/);
		expect(created(before)).toBeUndefined();
		sandbox.control.addFault({ type: 'drop', when: 'after', times: 1 });
		const after = tzsPayout();
		expect(await failure('/tzs/pay/apply', after)).toMatch(/ECONNRESET|socket hang up/);
		expect(created(after)).toBeDefined();
	});

	it('a time-out after the order was created', async () => {
		sandbox.control.addFault({ type: 'timeout', when: 'after', times: 1 });
		const body = tzsPayout();
		expect(await failure('/tzs/pay/apply', body, heldBack(body))).toBe('client timeout');
		expect(created(body)?.status).toBe(1);
		expect(sandbox.appliesReceived(APP.TZS)).toBeGreaterThan(0);
	});

	it('a held connection is closed after its ms', async () => {
		sandbox.control.addFault({ type: 'timeout', ms: 100, times: 1 });
		expect(await failure('/tzs/pay/apply', tzsPayout())).toMatch(/ECONNRESET|socket hang up/);
	});

	it('a wrongly signed answer: the envelope looks fine, the signature does not verify', async () => {
		sandbox.control.addFault({ type: 'badSignature', times: 1 });
		const bad = await call(sandbox, '/tzs/pay/apply', tzsPayout());
		expect(bad.status).toBe('1');
		expect(dataVerifies(bad, APP.TZS)).toBe(false);
		const good = await call(sandbox, '/tzs/pay/apply', tzsPayout());
		expect(dataVerifies(good, APP.TZS)).toBe(true);
	});

	it("an echo answers success with the request itself, whose merchant signature HaiPay's key does not verify", async () => {
		sandbox.control.addFault({ type: 'echo', path: '/tzs/pay/query', times: 1 });
		const asked = signed({ appId: APP.TZS, orderId: 'ECHO-1' });
		const raw = await rawPost(sandbox.baseUrl, '/tzs/pay/query', asked);
		expect(raw.json).toEqual({ status: '1', error: '00000000', msg: 'success', data: asked });
		expect(dataVerifies(raw.json as Parameters<typeof dataVerifies>[0], APP.TZS)).toBe(false);
		const real = await call(sandbox, '/tzs/pay/query', { appId: APP.TZS, orderId: 'ECHO-1' });
		expect(real.data).toMatchObject({ orderId: 'ECHO-1', status: 3 });
		expect(dataVerifies(real, APP.TZS)).toBe(true);
	});

	it('applies per path or prefix, for N requests or until cleared', async () => {
		sandbox.control.setFaults([{ type: 'httpError', path: '/tzs/*' }]);
		expect((await rawPost(sandbox.baseUrl, '/zar/pay/apply', signed(payoutFor('ZAR')))).httpStatus).toBe(200);
		expect((await rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(tzsPayout()))).httpStatus).toBe(502);
		expect((await rawPost(sandbox.baseUrl, '/tzs/account/ledger', signed({ appId: APP.TZS }))).httpStatus).toBe(502);
		expect(sandbox.control.faults()[0]).toMatchObject({ hits: 2 });
		sandbox.control.setFaults([{ type: 'httpError', path: '/tzs/account/ledger', times: 2 }]);
		expect((await rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(tzsPayout()))).httpStatus).toBe(200);
		expect((await rawPost(sandbox.baseUrl, '/tzs/account/ledger', signed({ appId: APP.TZS }))).httpStatus).toBe(502);
		expect((await rawPost(sandbox.baseUrl, '/tzs/account/ledger', signed({ appId: APP.TZS }))).httpStatus).toBe(502);
		expect((await rawPost(sandbox.baseUrl, '/tzs/account/ledger', signed({ appId: APP.TZS }))).httpStatus).toBe(200);
	});

	it('is driven over HTTP: add, list, replace, clear; bad rules are refused', async () => {
		expect((await control(sandbox, 'POST', '/faults', { type: 'latency', ms: 10 })).status).toBe(200);
		expect(
			(await control(sandbox, 'POST', '/faults', [{ type: 'drop', path: '/ngn/pay/apply', times: 1 }])).status,
		).toBe(200);
		expect(((await control(sandbox, 'GET', '/faults')).json as Body[]).map((f) => f.type)).toEqual(['latency', 'drop']);
		expect((await control(sandbox, 'PUT', '/faults', [{ type: 'badSignature' }])).json).toMatchObject([
			{ type: 'badSignature', when: 'after' },
		]);
		expect((await control(sandbox, 'DELETE', '/faults')).json).toEqual([]);
		expect(sandbox.control.faults()).toEqual([]);
		expect((await control(sandbox, 'POST', '/faults', { type: 'explode' })).status).toBe(400);
		expect((await control(sandbox, 'POST', '/faults', { type: 'httpError', status: 200 })).status).toBe(400);
		expect((await control(sandbox, 'POST', '/faults', { type: 'drop', path: 'tzs' })).status).toBe(400);
	});

	it('latency for every request through the config', async () => {
		sandbox.control.setConfig({ latencyMs: 121 });
		try {
			for (const path of ['/tzs/account/ledger', '/zar/account/ledger']) {
				const appId = path.startsWith('/tzs') ? APP.TZS : APP.ZAR;
				expect(inOrder(await delayedCall(path, { appId }), ['set 121', 'fired 121', 'answered 1'])).toBe(true);
			}
		} finally {
			sandbox.control.setConfig({ latencyMs: 0 });
		}
		const after = await delayedCall('/tzs/account/ledger', { appId: APP.TZS });
		expect(after).toContain('answered 1');
		expect(after).not.toContain('set 121');
	});

	it('control and cashier requests are never faulted', async () => {
		sandbox.control.setFaults([{ type: 'drop' }]);
		expect((await control(sandbox, 'GET', '/health')).status).toBe(200);
	});
});

describe('magic names', () => {
	it('"Time Out" creates the order, then never answers', async () => {
		const body = tzsPayout({ name: 'Time Out' });
		expect(await failure('/tzs/pay/apply', body, heldBack(body))).toBe('client timeout');
		expect(created(body)).toBeDefined();
	});

	it('"Reset Connection" creates the order, then resets the connection', async () => {
		const body = payoutFor('ZAR', { name: 'Reset Connection' });
		expect(await failure('/zar/pay/apply', body)).toMatch(/ECONNRESET|socket hang up/);
		expect(created(body)).toBeDefined();
	});

	it('"Server Error" creates the order, then answers 502', async () => {
		const body = payoutFor('NGN', { name: 'Server Error' });
		expect(await failure('/ngn/pay/apply', body)).toBe('answered 502');
		expect(created(body)).toBeDefined();
		const entry = sandbox.requests.find((r) => r.orderId === body.orderId);
		expect(entry?.outcome).toBe('fault');
	});

	it('"No Permission" and "No Channel" are refused with 4010 and 4002', async () => {
		const denied = await call(sandbox, '/bdt/pay/apply', payoutFor('BDT', { name: 'No Permission' }));
		expect(denied).toMatchObject({ status: '0', error: '4010', msg: 'No permission to pay for products' });
		const channel = await call(sandbox, '/tzs/pay/apply', tzsPayout({ name: 'No Channel' }));
		expect(channel).toMatchObject({ status: '0', error: '4002' });
	});

	it('counts every apply received, including lost ones', async () => {
		const before = sandbox.appliesReceived(APP.EGP);
		sandbox.control.addFault({ type: 'drop', times: 1 });
		await failure('/egp/pay/apply', payoutFor('EGP'));
		await call(sandbox, '/egp/pay/apply', payoutFor('EGP'));
		expect(sandbox.appliesReceived(APP.EGP)).toBe(before + 2);
		const stats = await control(sandbox, 'GET', '/stats');
		expect((stats.json as { appliesByAppId: Record<string, number> }).appliesByAppId[String(APP.EGP)]).toBe(before + 2);
	});
});
