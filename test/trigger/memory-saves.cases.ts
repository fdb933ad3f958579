/**
 * What n8n saves of the repeat memory is the memory of the moment it saves, not of the moment the copy it saves was
 * loaded or written: a slow run whose step keeps static data of its own, saved after a faster one, rolls nothing back,
 * also when the step runs in a task runner as n8n 2.x runs a Code node; and a result taken back because n8n could not
 * start its workflow stays taken back in every process sharing the database, whatever another saved before hearing of
 * it. Over real HTTP into n8n-core's webhook machinery (test/harness), with two servers on one store as two processes.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, Workflow } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { FLUSH_MS, setMemoryClock } from '../../nodes/HaiPayTrigger/memory';
import { StaticDataStore, testNodeDescription, webhookServer, type WebhookServer } from '../harness';
import {
	credentials,
	deliver,
	expectAcknowledgedOnly,
	expectEmitted,
	freshOrder,
	payoutCallback,
	signedByPlatform,
	stepMemoryClockPerDelivery,
	TRIGGER,
} from './callbacks';

const until = async (condition: () => boolean) => {
	while (!condition()) await sleep(20);
};
/** Until `count` executions have ended, while others still run (a server's own wait is for all of them). */
const ended = async (server: WebhookServer, count: number) => await until(() => server.executions.length >= count);

/** A run the test holds in its step: `started` once it waits there, until `release()`. */
class Gate {
	started: Promise<void>;
	release = () => {};
	private arrive = () => {};
	private readonly released = new Promise<void>((resolve) => (this.release = resolve));

	constructor() {
		this.started = new Promise<void>((resolve) => (this.arrive = resolve));
	}

	async pass(): Promise<void> {
		this.arrive();
		await this.released;
	}
}

/** The next run of a counting step waits at this gate. */
let gate: Gate | undefined;
const gates: Gate[] = [];
const holdNextRun = () => {
	gate = new Gate();
	gates.push(gate);
	return gate;
};

/** A step counting its runs in `$getWorkflowStaticData('global')`, slowly for a held run. */
class CountsSlowly implements INodeType {
	description = testNodeDescription('Counts Slowly', 'countsSlowly', 'Counts its runs in the workflow static data');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const held = gate;
		gate = undefined;
		await held?.pass();
		const data = this.getWorkflowStaticData('global');
		data.count = Number(data.count ?? 0) + 1;
		return [this.getInputData()];
	}
}

/**
 * The same as n8n 2.x runs a Code node: in a task runner, on the run's static data serialised as the step begins,
 * which n8n puts in place of the run's own when the runner changed it (TaskRequester: `workflow.overrideStaticData`).
 */
class CountsInRunner implements INodeType {
	description = testNodeDescription('Counts In Runner', 'countsInRunner', 'Counts its runs as a task runner does');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const workflow = (this as unknown as { workflow: Workflow }).workflow;
		const copy = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		const held = gate;
		gate = undefined;
		await held?.pass();
		const data = (copy.global ??= {}) as IDataObject;
		data.count = Number(data.count ?? 0) + 1;
		workflow.overrideStaticData(copy);
		return [this.getInputData()];
	}
}

describe('HaiPay Trigger: n8n saves the memory of the moment it saves', () => {
	const servers: WebhookServer[] = [];
	let offset = 0;
	const serve = async (options: { after?: string; store?: StaticDataStore; staticData?: IDataObject } = {}) => {
		const server = await webhookServer({
			nodeTypes: [HaiPayTrigger, CountsSlowly, CountsInRunner],
			credentials: { haipay: { type: 'haiPayApi', data: credentials() } },
			nodes: [
				{ name: TRIGGER, type: 'haiPayTrigger' },
				{ name: 'After', type: options.after ?? 'countsSlowly' },
			],
			staticData: options.staticData,
			staticDataStore: options.store,
		});
		servers.push(server);
		return server;
	};
	const callback = () => signedByPlatform(payoutCallback(freshOrder()));
	const send = (server: WebhookServer, body: unknown) => server.send(TRIGGER, body, { waitForExecutions: false });
	beforeEach(() => {
		offset = 0;
		setMemoryClock(() => performance.now() + offset);
	});
	afterEach(async () => {
		for (const held of gates.splice(0)) held.release();
		gate = undefined;
		stepMemoryClockPerDelivery();
		for (const server of servers.splice(0)) await server.close();
	});

	it.each(['countsSlowly', 'countsInRunner'])(
		'a slow run (%s) saved after a fast one keeps the fast result: a restart knows both',
		async (after) => {
			const [slow, fast] = [callback(), callback()];
			const server = await serve({ after });
			const held = holdNextRun();
			expect((await send(server, slow)).text).toBe('SUCCESS');
			await held.started;
			offset += FLUSH_MS;
			expect((await send(server, fast)).text).toBe('SUCCESS');
			await ended(server, 1);
			held.release();
			await server.idle();
			expect(server.executions).toHaveLength(2);
			// The slow run's copy was loaded before the fast result was, and n8n saved it last.
			const restarted = await serve({ after, staticData: server.staticData() });
			for (const body of [fast, slow]) expectAcknowledgedOnly(await deliver(restarted, body));
		},
	);

	it('a result taken back is not brought back by a save made while it was pending: it runs once, on either process', async () => {
		const store = new StaticDataStore();
		const [a, b] = [await serve({ store }), await serve({ store })];
		const [k1, k2, k3] = [callback(), callback(), callback()];
		// k1's start fails once n8n has stored nothing (a slow, then failing database); k2 came meanwhile.
		a.failExecutionStarts(1);
		const hold = a.holdExecutionStarts();
		const first = send(a, k1);
		await hold.reached;
		offset += FLUSH_MS;
		const second = send(a, k2);
		await until(() => hold.waiting() === 2);
		hold.release();
		expect([(await first).status, (await second).text]).toEqual([500, 'SUCCESS']);
		await a.idle();
		// What A saved with k2's request holds k2, and not k1: B takes it in, and saves again.
		offset += FLUSH_MS;
		expectAcknowledgedOnly(await deliver(b, k2));
		offset += FLUSH_MS;
		expectEmitted(await deliver(b, k3));
		// HaiPay's resend of k1, to either process: it runs once in all.
		offset += FLUSH_MS;
		expectEmitted(await deliver(a, k1));
		offset += FLUSH_MS;
		expectAcknowledgedOnly(await deliver(b, k1));
	});

	it('a result taken back after a save of it reached another process stays out of both: the resend runs once', async () => {
		const store = new StaticDataStore();
		const [a, b] = [await serve({ store }), await serve({ store })];
		const [k0, k1, k2, k3] = [callback(), callback(), callback(), callback()];
		// k0's run is slow; k1 comes while it runs, and n8n is slow to store k1's execution, then fails to.
		const slow = holdNextRun();
		expect((await send(a, k0)).text).toBe('SUCCESS');
		await slow.started;
		a.failExecutionStarts(1);
		const hold = a.holdExecutionStarts();
		offset += FLUSH_MS;
		const first = send(a, k1);
		await hold.reached;
		// k0's run ends and n8n saves its static data, with k1 still pending: B takes k1 in, and saves it again.
		slow.release();
		await ended(a, 1);
		offset += FLUSH_MS;
		expectEmitted(await deliver(b, k2));
		hold.release();
		expect((await first).status).toBe(500);
		offset += FLUSH_MS;
		expectEmitted(await deliver(b, k3));
		// A reads B's text, which still holds k1, before HaiPay resends it: k1 runs, once.
		offset += FLUSH_MS;
		expectEmitted(await deliver(a, k1));
		offset += FLUSH_MS;
		expectAcknowledgedOnly(await deliver(b, k1));
		expectAcknowledgedOnly(await deliver(a, k1));
	});
});
