/**
 * The HaiPay Trigger's repeat memory when a later step of the workflow keeps static data of its own, as a Code node
 * with `$getWorkflowStaticData('global')` does. n8n 2.40 runs the execution on a copy of the static data loaded as
 * it starts, before the request saved what the trigger wrote, and saves that copy whole at the end of the run when
 * a node changed it: over the request's save (test/harness/webhook-call.ts follows it step by step). The memory
 * has to reach the copy n8n saves last, or a restart forgets it and HaiPay's resends start the workflow again.
 */
import type { IDataObject } from 'n8n-workflow';

import { repeatKeys } from '../../nodes/HaiPayTrigger/keys';
import { digestOf } from '../../nodes/HaiPayTrigger/memory';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { COUNT_RUNS_NODE_TYPE, webhookServer, type StaticDataSaveOrder, type WebhookServer } from '../harness';
import {
	credentials,
	deliver,
	expectAcknowledgedOnly,
	expectEmitted,
	freshOrder,
	payoutCallback,
	signedByPlatform,
	TRIGGER,
} from './callbacks';

/** One result in the repeat memory's saved text: a 14-character digest of its key and a 5-character age. */
const [DIGEST_LENGTH, RECORD_LENGTH] = [14, 19];

/** HaiPay Trigger → a step that counts its runs in the global static data. */
async function serve(staticDataSaveOrder: StaticDataSaveOrder, staticData?: IDataObject): Promise<WebhookServer> {
	return await webhookServer({
		nodeTypes: [HaiPayTrigger],
		credentials: { haipay: { type: 'haiPayApi', data: credentials() } },
		nodes: [
			{ name: TRIGGER, type: 'haiPayTrigger' },
			{ name: 'Count', type: COUNT_RUNS_NODE_TYPE },
		],
		staticData,
		staticDataSaveOrder,
	});
}

/** The digests the stored repeat memory holds. */
function remembered(server: WebhookServer): string[] {
	const entries = (server.staticData(TRIGGER).repeatMemory as { entries?: string } | undefined)?.entries ?? '';
	return (entries.match(new RegExp(`.{${RECORD_LENGTH}}`, 'g')) ?? []).map((record) => record.slice(0, DIGEST_LENGTH));
}

describe('HaiPay Trigger followed by a step that keeps static data of its own', () => {
	const servers: WebhookServer[] = [];
	afterEach(async () => {
		for (const server of servers.splice(0)) await server.close();
	});

	/**
	 * Two callbacks, each one execution; a restart (a new process: nothing in memory, only the stored static data);
	 * both callbacks again. What the restarted n8n makes of the resends, and what its database holds.
	 */
	async function twoCallbacksAndARestart(order: StaticDataSaveOrder) {
		const bodies = [freshOrder(), freshOrder()].map((ids) => signedByPlatform(payoutCallback(ids)));
		const before = await serve(order);
		servers.push(before);
		for (const body of bodies) expectEmitted(await deliver(before, body));
		await before.close();
		const restarted = await serve(order, before.staticData());
		servers.push(restarted);
		const resent = [];
		for (const body of bodies) resent.push(await deliver(restarted, body));
		const digests = remembered(restarted);
		return {
			resent,
			newExecutions: restarted.executions.length,
			remembered: bodies.map((body) => digests.includes(digestOf(repeatKeys(body).dedupKey ?? ''))),
			count:
				restarted.staticData().global === undefined ? undefined : (restarted.staticData().global as IDataObject).count,
		};
	}

	it('the resends after a restart start nothing: the memory is in the static data n8n saved last', async () => {
		// n8n's order: the request's copy saved as it is answered, the run's copy saved whole at its end.
		const outcome = await twoCallbacksAndARestart('request-first');
		expect({ newExecutions: outcome.newExecutions, remembered: outcome.remembered, count: outcome.count }).toEqual({
			newExecutions: 0,
			remembered: [true, true],
			// The step's own static data is kept too: each run saved it.
			count: 2,
		});
		for (const delivery of outcome.resent) expectAcknowledgedOnly(delivery);
	});

	it('and so they do when the run is saved before the request', async () => {
		const outcome = await twoCallbacksAndARestart('execution-first');
		expect({ newExecutions: outcome.newExecutions, remembered: outcome.remembered }).toEqual({
			newExecutions: 0,
			remembered: [true, true],
		});
		for (const delivery of outcome.resent) expectAcknowledgedOnly(delivery);
	});
});
