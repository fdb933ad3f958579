import type { Sandbox } from '../../sandbox';
import { call, control, rawPost, signed, tzsPayout, withSandbox } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await withSandbox({ latencyMs: 200, hangMs: 1_000 });
});
afterEach(() => sandbox.control.clearFaults());
afterAll(() => sandbox.close());

interface Stats {
	inFlight: number;
	maxInFlight: number;
}

const stats = async () => (await control(sandbox, 'GET', '/stats')).json as Stats;

describe('requests in flight', () => {
	it('counts gateway requests held at once, and keeps the high-water mark after they end', async () => {
		sandbox.control.resetInFlightPeak();
		const pending = Array.from({ length: 5 }, () => call(sandbox, '/tzs/pay/apply', tzsPayout()));
		// Every request waits the 200 ms latency; while they wait, all five are in flight and control calls are not.
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(await stats()).toMatchObject({ inFlight: 5, maxInFlight: 5 });
		await Promise.all(pending);
		expect(await stats()).toMatchObject({ inFlight: 0, maxInFlight: 5 });
		expect(sandbox.control.inFlight()).toEqual({ now: 0, max: 5 });
	});

	it('starts a new mark on reset, over HTTP or in process', async () => {
		await call(sandbox, '/tzs/pay/apply', tzsPayout());
		const reset = await control(sandbox, 'POST', '/stats/reset-peak');
		expect(reset.json).toEqual({ maxInFlight: expect.any(Number), inFlight: 0 });
		expect(await stats()).toMatchObject({ inFlight: 0, maxInFlight: 0 });
		await Promise.all([call(sandbox, '/tzs/pay/apply', tzsPayout()), call(sandbox, '/tzs/pay/apply', tzsPayout())]);
		expect(sandbox.control.resetInFlightPeak()).toBe(2);
		expect(sandbox.control.inFlight()).toEqual({ now: 0, max: 0 });
	});

	it('releases requests whose answer a fault loses', async () => {
		sandbox.control.resetInFlightPeak();
		sandbox.control.addFault({ type: 'drop', times: 1 });
		await expect(rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(tzsPayout()))).rejects.toThrow();
		sandbox.control.addFault({ type: 'timeout', ms: 300, times: 1 });
		await expect(rawPost(sandbox.baseUrl, '/tzs/pay/apply', signed(tzsPayout()), 2_000)).rejects.toThrow();
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(sandbox.control.inFlight()).toEqual({ now: 0, max: 1 });
	});
});
