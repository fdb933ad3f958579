import { WorkflowBuilder, type NodeSpec, type WorkflowFile } from '../../dev/workflow-builder';
import { condition, conditions, ifNode, row, setFields, stickyNote, switchNode, writeFile } from '../lib/base-nodes';
import { credentialOf, haiPayTrigger, PAYOUTS_CREDENTIAL } from '../lib/haipay-nodes';
import { callbackWebhookId, FILES, WORKFLOW_IDS } from './shared';

/**
 * Example 2, callbacks: HaiPay's signed results of every payout currency at one trigger and the USD card
 * collections' at another, routed by status and appended to a file; a USD card payment's token stored for the next
 * charge (example 4).
 */

export function callbacks(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.callbacks);
	about(b);
	const route = b.add(
		switchNode(
			'By status',
			[
				{ key: 'success', test: conditions([condition('={{ $json.statusGroup }}', 'equals', 'success')]) },
				{ key: 'failed', test: conditions([condition('={{ $json.statusGroup }}', 'equals', 'failed')]) },
			],
			[360, 0],
			'other',
		),
	);
	const payouts = b.add(
		haiPayTrigger(
			'Payout results',
			callbackWebhookId('TZS'),
			{ kind: 'payout', options: {} },
			PAYOUTS_CREDENTIAL,
			[40, -170],
		),
	);
	b.connect(payouts, route);
	const usd = b.add(
		haiPayTrigger(
			'USD results',
			callbackWebhookId('USD'),
			{ kind: 'collection', options: {} },
			credentialOf('USD'),
			[40, 170],
		),
	);
	b.connect(usd, route);
	storeCardToken(b, usd);
	recordResults(b, route);
	return b.file(
		'HaiPay example: callbacks',
		'Receives signed results of every payout currency at one trigger, routes them by status, records them and stores MIT card tokens.',
	);
}

function about(b: WorkflowBuilder): void {
	b.add(
		stickyNote(
			'About',
			[
				'## HaiPay callbacks',
				"**Payout results** takes the payout callbacks of every currency: its credential holds an App ID per currency and checks each callback with its own App ID's secret. **USD results** takes the card collections of the USD App ID. A trigger refuses callbacks of App IDs its credential does not hold. Activate the workflow and use each trigger's **Production URL** as `notifyUrl`.",
				'',
				`Every accepted result is routed by status and appended to \`${FILES}/callbacks.jsonl\`; a subscription's recurring charge reaching **USD results** is booked by its status, with its \`subscriptionNo\`. A USD card payment's \`tokenID\` is stored in \`${FILES}/mit-tokens/<orderId>.json\` for the next charge.`,
				'',
				"Forged or wrongly signed callbacks are answered 401 and start nothing; HaiPay's repeats of a result are answered SUCCESS and start nothing.",
			].join('\n'),
			[-260, -760],
			560,
			300,
		),
	);
}

/** Card token? → Card token → Token file → Store token: a USD card payment's tokenID, kept under its first orderId. */
function storeCardToken(b: WorkflowBuilder, trigger: string): void {
	const hasToken = b.add(
		ifNode('Card token?', conditions([condition('={{ $json.tokenID }}', 'notEmpty', '')]), [360, 520]),
	);
	b.connect(trigger, hasToken);
	const token = b.add(
		setFields(
			'Card token',
			[
				['orderId', row('orderId')],
				['tokenID', row('tokenID')],
				['appId', row('appId'), 'number'],
				['storedAt', '={{ $now.toISO() }}'],
			],
			[580, 520],
		),
	);
	const json = b.add({
		name: 'Token file',
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position: [800, 520],
		parameters: { operation: 'toJson', mode: 'each', binaryPropertyName: 'data', options: { format: true } },
	});
	const write = b.add(
		writeFile(
			'Store token',
			`={{ '${FILES}/mit-tokens/' + $('Card token').item.json.orderId + '.json' }}`,
			[1020, 520],
		),
	);
	b.connect(hasToken, token, 0);
	b.connect(token, json);
	b.connect(json, write);
}

/** Each status branch writes one JSON line (paid, failed, anything else), and every line is appended to callbacks.jsonl. */
function recordResults(b: WorkflowBuilder, route: string): void {
	const paid = b.add(resultLine('Mark paid', 'mark paid', [600, -170]));
	const failed = b.add(resultLine('Mark failed', 'mark failed', [600, 0]));
	const other = b.add(resultLine('Note status', 'note', [600, 170]));
	b.connect(route, paid, 0);
	b.connect(route, failed, 1);
	b.connect(route, other, 2);
	const text = b.add({
		name: 'Line',
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position: [820, 0],
		parameters: {
			operation: 'toText',
			sourceProperty: 'line',
			binaryPropertyName: 'data',
			options: { fileName: 'callbacks.jsonl' },
		},
	});
	for (const node of [paid, failed, other]) b.connect(node, text);
	const append = b.add(writeFile('Append to callbacks.jsonl', `${FILES}/callbacks.jsonl`, [1040, 0], true));
	b.connect(text, append);
}

/**
 * The result as one line of JSON, with what the workflow did about it. A subscription's charge has no orderId of the
 * merchant's: its subscription's numbers say what was paid (a payout or collection line has none), also when a
 * declined charge's orderNo is left off as unproven (named on the line; absent from every other line).
 */
function resultLine(name: string, action: string, position: [number, number]): NodeSpec {
	return setFields(
		name,
		[
			[
				'line',
				`={{ JSON.stringify({ receivedAt: $now.toISO(), action: '${action}', kind: $json.kind, subscriptionNo: $json.subscriptionNo, subscriptionOrderId: $json.subscriptionOrderId, currency: $json.currency, orderId: $json.orderId, orderNo: $json.orderNo, status: $json.status, statusLabel: $json.statusLabel, amount: $json.amount, fee: $json.fee, payTime: $json.payTime ?? null, errorMsg: $json.errorMsg ?? null, unproven: $json.unproven }) + '\\n' }}`,
			],
		],
		position,
	);
}
