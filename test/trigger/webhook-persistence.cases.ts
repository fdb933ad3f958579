/**
 * Whether the repeat memory reaches n8n's database, as n8n 2.x stores static data: a webhook request's copy is
 * saved after its answer, and an execution runs on a copy of its own, loaded as it starts (before the request's is
 * saved) and saved whole at its end when a node changed it. The trigger's execute() puts this process's newest
 * memory into the execution's copy, so a later step that keeps static data of its own does not overwrite the memory
 * with an older one; and a trigger whose saves never arrive says so, once.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, Workflow } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { FLUSH_MS, SAVE_GRACE_MS, setMemoryClock } from '../../nodes/HaiPayTrigger/memory';
import { NO_OP_NODE_TYPE, StaticDataStore, testNodeDescription, webhookServer, type WebhookServer } from '../harness';
import { execute } from '../harness/run';
import { prepareWorkflow } from '../harness/workflow';
import {
	credentials,
	deliver,
	expectAcknowledgedOnly,
	expectEmitted,
	freshOrder,
	payoutCallback,
	signedByPlatform,
	TRIGGER,
	stepMemoryClockPerDelivery,
} from './callbacks';

/** A step that keeps static data of its own, as a Code node with `$getWorkflowStaticData('global')` does. */
class KeepsCount implements INodeType {
	description = testNodeDescription('Keeps Count', 'keepsCount', 'Counts its runs in the workflow static data');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const data = this.getWorkflowStaticData('global');
		data.count = Number(data.count ?? 0) + 1;
		return [this.getInputData()];
	}
}

/** Counts the saves that stored something. */
class CountingStore extends StaticDataStore {
	saves = 0;

	override save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged === true) this.saves += 1;
		super.save(workflow);
	}
}

const WARNING =
	/repeats .* no longer remembered across restarts.*queue-mode\.md#exactly-once-across-webhook-processors/;

describe("HaiPay Trigger: the repeat memory in n8n's database", () => {
	const servers: WebhookServer[] = [];
	let offset = 0;
	const serve = async (
		options: {
			after?: string;
			staticDataStore?: StaticDataStore;
			staticData?: IDataObject;
			dropStaticDataSaves?: boolean;
		} = {},
	) => {
		const server = await webhookServer({
			nodeTypes: [HaiPayTrigger, KeepsCount],
			credentials: { haipay: { type: 'haiPayApi', data: credentials() } },
			nodes: [
				{ name: TRIGGER, type: 'haiPayTrigger' },
				{ name: 'After', type: options.after ?? NO_OP_NODE_TYPE },
			],
			staticData: options.staticData,
			staticDataStore: options.staticDataStore,
			dropStaticDataSaves: options.dropStaticDataSaves,
		});
		servers.push(server);
		return server;
	};
	const callback = () => signedByPlatform(payoutCallback(freshOrder()));
	const warnings = (server: WebhookServer) =>
		server.calls.flatMap((call) => call.logs).filter((line) => WARNING.test(line.message));
	beforeEach(() => {
		offset = 0;
		setMemoryClock(() => performance.now() + offset);
	});
	afterEach(async () => {
		stepMemoryClockPerDelivery();
		for (const server of servers.splice(0)) await server.close();
	});

	it('survives a later step that saves static data of its own: a restart still knows the result', async () => {
		const body = callback();
		const server = await serve({ after: 'keepsCount' });
		expectEmitted(await deliver(server, body));
		const stored = server.staticData();
		expect(stored.global).toEqual({ count: 1 });
		const restarted = await serve({ after: 'keepsCount', staticData: stored });
		expectAcknowledgedOnly(await deliver(restarted, body));
	});

	it('adds no save of its own to an execution whose steps change nothing', async () => {
		const store = new CountingStore();
		const server = await serve({ staticDataStore: store });
		const activation = store.saves;
		expectEmitted(await deliver(server, callback()));
		// The request's save only: the execution, on its own copy, changed nothing that n8n would save.
		expect(store.saves - activation).toBe(1);
	});

	it('writes nothing into an execution in a process that never received the callback (a queue-mode worker)', async () => {
		const older = { v: 2, stamp: 'elsewhere.7', at: 1_800_000_000, entries: 'AAAAAAAAAAAAAA00001' };
		const prepared = prepareWorkflow(
			{
				nodeTypes: [HaiPayTrigger, KeepsCount],
				nodes: [
					{ name: TRIGGER, type: 'haiPayTrigger' },
					{ name: 'After', type: 'keepsCount' },
				],
			},
			{ addStart: false },
		);
		const workflow = prepared.instantiate({ [`node:${TRIGGER}`]: { repeatMemory: older } });
		const items = [{ json: { orderNo: 'HP1', status: 2 } }, { json: { orderNo: 'HP2', status: 3 } }];
		const result = await execute({
			prepared,
			workflow,
			mode: 'webhook',
			startNode: TRIGGER,
			startData: [items],
			executionId: 'worker-1',
			logs: [],
		});
		expect(result.status).toBe('success');
		expect(result.outputOf(TRIGGER)).toEqual(items.map((item, index) => ({ ...item, pairedItem: { item: index } })));
		expect(result.staticData).toEqual({ [`node:${TRIGGER}`]: { repeatMemory: older }, global: { count: 1 } });
	});

	it('warns once when its saves never reach the database: repeats are then not remembered across restarts', async () => {
		// The same callbacks to a trigger whose saves are all lost, and to one whose saves arrive.
		const [losing, keeping] = [await serve({ dropStaticDataSaves: true }), await serve()];
		for (let round = 0; round < 4; round++) {
			for (const body of [callback(), callback()]) {
				for (const server of [losing, keeping]) expectEmitted(await deliver(server, body));
				offset += FLUSH_MS;
			}
			offset += SAVE_GRACE_MS;
		}
		expect(warnings(losing)).toHaveLength(1);
		expect(warnings(losing)[0].level).toBe('warn');
		expect(warnings(keeping)).toEqual([]);
	});

	it("does not warn while two processes overwrite each other's saves and converge", async () => {
		const store = new StaticDataStore();
		const [one, two] = [await serve({ staticDataStore: store }), await serve({ staticDataStore: store })];
		const bodies: Array<Record<string, unknown>> = [];
		for (let round = 0; round < 6; round++) {
			// Both load the same static data, and each save leaves out what the other just remembered.
			const pair = [callback(), callback()];
			bodies.push(...pair);
			await Promise.all([deliver(one, pair[0]), deliver(two, pair[1])]);
			offset += round % 2 === 0 ? FLUSH_MS : SAVE_GRACE_MS;
		}
		await deliver(one, bodies[0]);
		await deliver(two, bodies[1]);
		expect([...warnings(one), ...warnings(two)]).toEqual([]);
		const restarted = await serve({ staticData: store.of() });
		for (const body of bodies) expectAcknowledgedOnly(await deliver(restarted, body));
	});
});
