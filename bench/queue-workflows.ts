import { readFileSync } from 'fs';
import { join } from 'path';

import { WorkflowBuilder, type WorkflowBody, type WorkflowFile } from '../dev/workflow-builder';
import { BUSINESS_STEP_URL, credentialOf, EXACTLY_ONCE_WEBHOOK_ID } from '../playground/examples';
import { haiPayWorkflow } from './workflows';

/**
 * Workflows of the queue-mode tests and benchmark. A bulk run is the benchmark's HaiPay workflow with its HaiPay
 * nodes set to go on after a refused row, so that a run repeated with the same orderIds completes and reports
 * every row. The callback workflows end in an "effect": an HTTP request to a counter the test runs, standing for
 * the business step (mark an invoice paid) that must happen once per payment result.
 */

/** The benchmark's bulk workflow (`?rows=N&tag=T`), 16 in flight; a refused row becomes an item with its error. */
export function bulkWorkflow(path: string): WorkflowBody {
	const workflow = haiPayWorkflow(path, 16);
	for (const node of workflow.nodes)
		if (node.type === 'n8n-nodes-haipay.haiPay') node.onError = 'continueRegularOutput';
	workflow.name = `queue: bulk payouts (${path})`;
	return workflow;
}

/** How repeated callbacks are kept from running the business step twice. */
export type RepeatGuard =
	/** The HaiPay Trigger's own repeat memory (workflow static data), its default. */
	| 'trigger'
	/** The trigger's memory off, n8n's Remove Duplicates node (history across executions, in the database) after it. */
	| 'removeDuplicates'
	/** Both: the trigger's memory and Remove Duplicates after it. */
	| 'both'
	/** The trigger with "Confirm With HaiPay" on (it queries the order before emitting), its memory on. */
	| 'confirm'
	/** Nothing: the trigger's memory off. */
	| 'none';

/** A HaiPay Trigger on the TZS App ID, then the guard, then the effect: POST {orderNo, status} to `effectUrl`. */
export function guardedCallbackWorkflow(guard: RepeatGuard, webhookId: string, effectUrl: string): WorkflowBody {
	const b = new WorkflowBuilder(`queue-callbacks-${guard}`);
	const trigger = b.add({
		name: 'HaiPay Trigger',
		type: 'n8n-nodes-haipay.haiPayTrigger',
		typeVersion: 1.1,
		webhookId,
		parameters: {
			options:
				guard === 'removeDuplicates' || guard === 'none'
					? { deduplicate: false }
					: guard === 'confirm'
						? { confirmWithHaiPay: true }
						: {},
		},
		credentials: credentialOf('TZS'),
	});
	let last = trigger;
	if (guard === 'removeDuplicates' || guard === 'both') {
		last = b.add({
			name: 'Remove Duplicates',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				logic: 'removeItemsWithAlreadySeenKeyValues',
				dedupeValue: '={{ $json.orderNo }}|{{ $json.status }}',
				options: { scope: 'workflow', historySize: 100000 },
			},
		});
		b.connect(trigger, last);
	}
	const effect = b.add({
		name: 'Business step',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: effectUrl,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify({ orderNo: $json.orderNo, status: $json.status }) }}',
			options: {},
		},
	});
	b.connect(last, effect);
	return b.body(`queue: callbacks, repeat guard ${guard}`);
}

/**
 * examples/5-exactly-once-callbacks.json as a person imports it, read from the file, with only what a test must
 * point elsewhere: the business step's URL (the counter) and the trigger's webhook id (a URL of the test's own).
 * The Postgres credential is the example's; the queue stack provides it. Also the example's own table SQL.
 */
export function exactlyOnceExample(effectUrl: string, webhookId: string): { workflow: WorkflowBody; tableSql: string } {
	const example = JSON.parse(
		readFileSync(join(__dirname, '..', 'examples', '5-exactly-once-callbacks.json'), 'utf8'),
	) as WorkflowFile;
	let tableSql: string | undefined;
	let pointed = 0;
	for (const node of example.nodes) {
		if (node.parameters.url === BUSINESS_STEP_URL) {
			node.parameters.url = effectUrl;
			pointed++;
		}
		if (node.webhookId === EXACTLY_ONCE_WEBHOOK_ID) {
			node.webhookId = webhookId;
			pointed++;
		}
		if (node.name === 'Create table') tableSql = String(node.parameters.query);
	}
	if (pointed !== 2 || tableSql === undefined)
		throw new Error(
			'examples/5-exactly-once-callbacks.json no longer has one business step, one trigger and its Create table node',
		);
	return {
		workflow: {
			name: `${example.name} (${webhookId})`,
			nodes: example.nodes,
			connections: example.connections,
			settings: example.settings,
		},
		tableSql,
	};
}
