import type { Sandbox } from '../../sandbox';
import { call, control, rawPost, signed, tzsPayout, until, withSandbox } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await withSandbox({ hangMs: 1_000 });
});
afterEach(() => sandbox.control.clearFaults());
afterAll(() => sandbox.close());

interface Stats {
	inFlight: number;
	maxInFlight: number;
}

const stats = async () => (await control(sandbox, 'GET', '/stats')).json as Stats;

/**
 * `count` payouts, each sent but for the last byte of its body: the sandbox counts a request from its arrival, so
 * all of them are in flight together until `release`, whatever the machine's speed.
 */
async function heldPayouts(count: number) {
	let release = () => {};
	const released = new Promise<void>((resolve) => (release = resolve));
	const answers = Array.from({ length: count }, () =>
		rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(tzsPayout()), undefined, released),
	);
	await until(() => sandbox.control.inFlight().now === count);
	return {
		finish: async () => {
			release();
			for (const answer of await Promise.all(answers)) expect(answer.json?.status).toBe('1');
		},
	};
}

describe('requests in flight', () => {
	it('counts gateway requests held at once, and keeps the high-water mark after they end', async () => {
		sandbox.control.resetInFlightPeak();
		const held = await heldPayouts(5);
		// While the five are held, control calls are not counted.
		expect(await stats()).toMatchObject({ inFlight: 5, maxInFlight: 5 });
		await held.finish();
		expect(await stats()).toMatchObject({ inFlight: 0, maxInFlight: 5 });
		expect(sandbox.control.inFlight()).toEqual({ now: 0, max: 5 });
	});

	it('starts a new mark on reset, over HTTP or in process', async () => {
		await call(sandbox, '/tzs/pay/apply', tzsPayout());
		const reset = await control(sandbox, 'POST', '/stats/reset-peak');
		expect(reset.json).toEqual({ maxInFlight: expect.any(Number), inFlight: 0 });
		expect(await stats()).toMatchObject({ inFlight: 0, maxInFlight: 0 });
		await (await heldPayouts(2)).finish();
		expect(sandbox.control.resetInFlightPeak()).toBe(2);
		expect(sandbox.control.inFlight()).toEqual({ now: 0, max: 0 });
	});

	it('releases requests whose answer a fault loses', async () => {
		sandbox.control.resetInFlightPeak();
		sandbox.control.addFault({ type: 'drop', times: 1 });
		await expect(rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(tzsPayout()))).rejects.toThrow();
		sandbox.control.addFault({ type: 'timeout', ms: 300, times: 1 });
		await expect(rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(tzsPayout()))).rejects.toThrow();
		// The client sees the connection end before the sandbox's side of it closes.
		await until(() => sandbox.control.inFlight().now === 0);
		expect(sandbox.control.inFlight()).toEqual({ now: 0, max: 1 });
	});

	it('keeps a request counted after its client went away, until its handling is done and its order made', async () => {
		// A worker killed mid-run: its connection closes while the gateway still makes the order, and a test that
		// waits for nothing in flight must then see every order there will be.
		const { latencyMs } = sandbox.control.config();
		// Long enough that the checks before the order is made cannot be overtaken by it on a slow machine.
		sandbox.control.setConfig({ latencyMs: 2_000 });
		try {
			const body = signed(tzsPayout());
			let giveUp = () => {};
			const gone = new Promise<void>((resolve) => (giveUp = resolve));
			const answer = rawPost(sandbox.baseUrl, '/tzs/pay/apply', body, gone);
			await until(() => sandbox.control.inFlight().now === 1);
			giveUp();
			await expect(answer).rejects.toThrow(/client timeout/);
			const orderOf = () => sandbox.orders.find((order) => order.orderId === body.orderId);
			expect(orderOf()).toBeUndefined();
			expect(sandbox.control.inFlight().now).toBe(1);
			await until(() => sandbox.control.inFlight().now === 0);
			expect(orderOf()).toBeDefined();
		} finally {
			sandbox.control.setConfig({ latencyMs });
		}
	});

	it('ends the count of a request whose client went away before its body ended, with no order', async () => {
		const body = signed(tzsPayout());
		let giveUp = () => {};
		const gone = new Promise<void>((resolve) => (giveUp = resolve));
		const answer = rawPost(sandbox.baseUrl, '/tzs/pay/apply', body, gone, new Promise(() => {}));
		await until(() => sandbox.control.inFlight().now === 1);
		giveUp();
		await expect(answer).rejects.toThrow(/client timeout/);
		await until(() => sandbox.control.inFlight().now === 0);
		expect(sandbox.orders.find((order) => order.orderId === body.orderId)).toBeUndefined();
	});
});
