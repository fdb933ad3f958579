/**
 * The HaiPay Trigger's repeat memory, as n8n runs it: each callback over real HTTP into n8n-core's webhook
 * machinery (test/harness's webhookServer), which loads the workflow's static data for each request and saves it
 * when the request changed it. A server per test: the memory is the trigger's, in the process and in static data.
 */
import type { IDataObject } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { setMemoryClock } from '../../nodes/HaiPayTrigger/memory';
import { NO_OP_NODE_TYPE, StaticDataStore, webhookServer, type WebhookServer } from '../harness';
import {
	credentials,
	deliver,
	expectAcknowledgedOnly,
	expectEmitted,
	freshOrder,
	payoutCallback,
	serveTrigger,
	signedByPlatform,
	TRIGGER,
	stepMemoryClockPerDelivery,
} from './callbacks';

const HOUR = 3_600_000;

/** Moves the wall clock by `offsetMs` while `action` runs. */
async function withWallClock<T>(offsetMs: number, action: () => Promise<T>): Promise<T> {
	const now = Date.now.bind(Date);
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => now() + offsetMs);
	try {
		return await action();
	} finally {
		clock.mockRestore();
	}
}

/** One result in the repeat memory's saved text: a 14-character digest of its key and a 5-character age. */
const RECORD_LENGTH = 19;

describe('HaiPay Trigger: repeated callbacks', () => {
	const servers: WebhookServer[] = [];
	const serve = async (...args: Parameters<typeof serveTrigger>) => {
		const server = await serveTrigger(...args);
		servers.push(server);
		return server;
	};
	const memoryOf = (server: WebhookServer) => server.staticData(TRIGGER).repeatMemory as IDataObject | undefined;
	afterEach(async () => {
		stepMemoryClockPerDelivery();
		for (const server of servers.splice(0)) await server.close();
	});

	it('emits the first, acknowledges the repeats, and emits a new status of the same order', async () => {
		const server = await serve();
		const body = signedByPlatform(payoutCallback({ status: 4 }));
		expectEmitted(await deliver(server, body));
		const second = await deliver(server, body);
		expectAcknowledgedOnly(second);
		expectAcknowledgedOnly(await deliver(server, body));
		expect(second.logs.some((line) => /repeated callback/.test(line.message))).toBe(true);

		expectEmitted(await deliver(server, signedByPlatform(payoutCallback({ status: 2 }))));
		expect(server.executions).toHaveLength(2);
	});

	it('remembers across a restart: the state is plain data that n8n saves with the workflow', async () => {
		const body = signedByPlatform(payoutCallback());
		const before = await serve();
		expectEmitted(await deliver(before, body));
		await before.close();
		const restarted = await serve({}, undefined, JSON.parse(JSON.stringify(before.staticData())) as IDataObject);
		expectAcknowledgedOnly(await deliver(restarted, body));
	});

	it('remembers callbacks that arrive together, although n8n gives each request its own copy and the last save wins', async () => {
		// n8n loads the static data for each webhook request and saves the whole object after answering, when changed.
		const server = await serve();
		const bodies = ['HP1', 'HP2', 'HP3'].map((orderNo) => signedByPlatform(payoutCallback({ orderNo })));
		const first = await Promise.all(bodies.map(async (body) => await deliver(server, body)));
		for (const delivery of first) expectEmitted(delivery);
		// The first is saved at once; of the other two, one waits out the rest of FLUSH_MS and saves both, writing
		// the memory into its own copy and every recent one, so whichever n8n saves last holds all three.
		const saving = server.executions.filter(
			(execution) =>
				(execution.result.staticData[`node:${TRIGGER}`] as IDataObject | undefined)?.repeatMemory !== undefined,
		);
		expect(saving.length).toBeGreaterThanOrEqual(2);
		expect(memoryOf(server)?.entries).toHaveLength(3 * RECORD_LENGTH);
		const restarted = await serve({}, undefined, server.staticData());
		for (const body of bodies) expectAcknowledgedOnly(await deliver(restarted, body));
		// And while the process lives, a repeat is known even to a request whose copy predates it.
		server.resetStaticData();
		expectAcknowledgedOnly(await deliver(server, bodies[1]));
	});

	it('emits a callback again when n8n could not start its workflow: the resend is not a repeat', async () => {
		const server = await serve();
		const body = signedByPlatform(payoutCallback());
		server.failExecutionStarts(1);
		const failed = await deliver(server, body);
		expect(failed.reply.status).toBe(500);
		expect(server.executions).toHaveLength(0);
		expectEmitted(await deliver(server, body));
		expectAcknowledgedOnly(await deliver(server, body));
		expect(server.executions).toHaveLength(1);
	});

	it('emits again once the window has passed', async () => {
		let offset = 0;
		setMemoryClock(() => performance.now() + offset);
		const server = await serve({ options: { deduplicationWindow: 10 } });
		const body = signedByPlatform(payoutCallback());
		expectEmitted(await deliver(server, body));
		offset = 9 * 60_000;
		expectAcknowledgedOnly(await deliver(server, body));
		offset = 11 * 60_000;
		expectEmitted(await deliver(server, body));
	});

	it('recognises a resend whatever the wall clock does: stepped back an hour, or forward', async () => {
		const server = await serve({ options: { deduplicationWindow: 30 } });
		const body = signedByPlatform(payoutCallback(freshOrder()));
		expectEmitted(await deliver(server, body));
		expectAcknowledgedOnly(await withWallClock(-HOUR, async () => await deliver(server, body)));
		expectAcknowledgedOnly(await withWallClock(HOUR, async () => await deliver(server, body)));
		expect(server.executions).toHaveLength(1);
	});

	it('recognises what another process saved with its clock an hour ahead of this one, or behind', async () => {
		const store = new StaticDataStore();
		const processOf = async () => {
			const server = await webhookServer({
				nodeTypes: [HaiPayTrigger],
				credentials: { haipay: { type: 'haiPayApi', data: credentials() } },
				nodes: [
					{ name: TRIGGER, type: 'haiPayTrigger', parameters: { options: { deduplicationWindow: 30 } } },
					{ name: 'Next', type: NO_OP_NODE_TYPE },
				],
				staticDataStore: store,
			});
			servers.push(server);
			return server;
		};
		const [ahead, behind, here] = [await processOf(), await processOf(), await processOf()];
		const [early, late] = [
			signedByPlatform(payoutCallback(freshOrder())),
			signedByPlatform(payoutCallback(freshOrder())),
		];
		expectEmitted(await withWallClock(HOUR, async () => await deliver(ahead, early)));
		expectEmitted(await withWallClock(-HOUR, async () => await deliver(behind, late)));
		expectAcknowledgedOnly(await deliver(here, early));
		expectAcknowledgedOnly(await deliver(here, late));
	});

	it('takes two partial results with the same amount written differently for one: "10" and "10.00"', async () => {
		const server = await serve();
		const order = freshOrder();
		const partial = (amount: unknown) =>
			signedByPlatform(payoutCallback({ ...order, status: 4, amount, payTime: '2024-05-01 10:00:00' }));
		const item = expectEmitted(await deliver(server, partial('10')));
		expectAcknowledgedOnly(await deliver(server, partial('10.00')));
		expectAcknowledgedOnly(await deliver(server, partial('10.0')));
		expectEmitted(await deliver(server, partial('10.01')));
		// The key names the amount by its value, with two decimals as HaiPay writes amounts.
		expect(item.dedupKey).toBe(`no:${order.orderNo}|4|["10.00","2024-05-01 10:00:00"]`);
	});

	it('emits every delivery when turned off', async () => {
		const server = await serve({ options: { deduplicate: false } });
		const body = signedByPlatform(payoutCallback());
		expectEmitted(await deliver(server, body));
		expectEmitted(await deliver(server, body));
		// Still remembered, so that an earlier status of the order after this final one is never emitted.
		expect(memoryOf(server)?.entries).toHaveLength(RECORD_LENGTH);
	});

	it('does not remember refused or filtered-out callbacks', async () => {
		const body = signedByPlatform(payoutCallback({ status: 3 }));
		const filtering = await serve({ statuses: ['success'] });
		expectAcknowledgedOnly(await deliver(filtering, body));
		const server = await serve();
		expect((await deliver(server, { ...body, status: 2 })).reply.status).toBe(401);
		// Nothing but the URL activation noted.
		expect(filtering.staticData(TRIGGER)).toEqual({ notifyUrl: filtering.url(TRIGGER) });
		expect(server.staticData(TRIGGER)).toEqual({ notifyUrl: server.url(TRIGGER) });
		expectEmitted(await deliver(server, body));
	});

	it('tells orders apart by orderNo, and falls back to orderId without one', async () => {
		const server = await serve();
		const a = signedByPlatform(payoutCallback({ orderNo: undefined, orderId: 'A' }));
		const b = signedByPlatform(payoutCallback({ orderNo: undefined, orderId: 'B' }));
		expectEmitted(await deliver(server, a));
		expectEmitted(await deliver(server, b));
		expectAcknowledgedOnly(await deliver(server, a));
	});
});
