import { WorkflowBuilder, type WorkflowFile } from '../../dev/workflow-builder';
import {
	condition,
	conditions,
	csvFromFile,
	csvToFile,
	ifNode,
	manualTrigger,
	readFile,
	row,
	setFields,
	stickyNote,
	writeFile,
} from '../lib/base-nodes';
import { plainCell, safeCell } from '../lib/cells';
import { haiPay } from '../lib/haipay-nodes';
import { FILES, WORKFLOW_IDS } from './shared';

/**
 * Example 3, reconciliation: every payout of the bulk example's results that HaiPay has or may have, queried;
 * their states written to a CSV, and the vouchers of the final ones downloaded.
 */

export function reconciliation(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.reconciliation);
	about(b);
	const open = openOrders(b);
	const state = queryEach(b, open);
	writeStates(b, state);
	downloadVouchers(b, state);
	return b.file(
		'HaiPay example: reconciliation',
		'Queries every sent payout whose result is not known yet and downloads the vouchers of the final ones.',
	);
}

function about(b: WorkflowBuilder): void {
	b.add(
		stickyNote(
			'About',
			[
				'## Reconciliation',
				`Reads \`${FILES}/payout-results.csv\` (written by the bulk payouts example), queries every order that HaiPay has or may have (\`accepted\`, \`unknown\`, and \`duplicate\`: HaiPay refused the orderId because it already has an order with it), writes \`${FILES}/reconciliation.csv\`, and downloads the voucher PDF of each final order into \`${FILES}/vouchers/\`.`,
				'',
				'An `unknown` row whose query answers status 3 with "does not exist" never reached HaiPay: send it again with the same `orderId` (the HaiPay node\'s Resolve Unknown Outcomes already makes this query and reports such rows as `not_found`). Any other status means HaiPay has it: never send it again.',
			].join('\n'),
			[-260, -520],
			600,
			260,
		),
	);
}

/** Run → Read payout-results.csv → Rows → Sent, result not known: the rows whose order HaiPay has or may have. */
function openOrders(b: WorkflowBuilder): string {
	const start = b.add(manualTrigger([-200, 0]));
	const read = b.add(readFile('Read payout-results.csv', `${FILES}/payout-results.csv`, [20, 0]));
	const rows = b.add(csvFromFile('Rows', [240, 0]));
	const open = b.add({
		name: 'Sent, result not known',
		type: 'n8n-nodes-base.filter',
		typeVersion: 2.2,
		position: [460, 0],
		parameters: {
			conditions: conditions(
				['accepted', 'unknown', 'duplicate'].map((outcome) => condition('={{ $json.outcome }}', 'equals', outcome)),
				'or',
			),
			looseTypeValidation: true,
			options: {},
		},
	});
	b.connect(start, read);
	b.connect(read, rows);
	b.connect(rows, open);
	return open;
}

/** Query → Order state: each order's status as HaiPay answers it, beside what the bulk run knew. */
function queryEach(b: WorkflowBuilder, open: string): string {
	// One node queries every currency: the currency from each row, the payouts credential's App ID for it.
	const query = b.add(
		haiPay(
			'Query',
			'payouts',
			{
				resource: 'payout',
				operation: 'get',
				currency: row('currency'),
				orderId: plainCell('$json.orderId'),
				orderNo: plainCell('$json.orderNo'),
				options: {},
			},
			[680, 0],
			{ onError: 'continueRegularOutput' },
		),
	);
	b.connect(open, query);
	const source = "$('Sent, result not known').item.json";
	const state = b.add(
		setFields(
			'Order state',
			[
				// The results file's cells come written for spreadsheets already; read back and written again the same.
				['orderId', safeCell(`String(${source}.orderId ?? '').replace(/^'/, '')`)],
				['currency', safeCell(`String(${source}.currency ?? '').replace(/^'/, '')`)],
				['sentOutcome', safeCell(`${source}.outcome`)],
				['orderNo', safeCell(`$json.orderNo ?? ${source}.orderNo`)],
				['status', '={{ $json.status ?? null }}', 'number'],
				['statusLabel', safeCell('$json.statusLabel')],
				['final', '={{ $json.status === 2 || $json.status === 3 }}', 'boolean'],
				['errorMsg', safeCell('$json.errorMsg ?? $json.error')],
			],
			[900, 0],
		),
	);
	b.connect(query, state);
	return state;
}

/** To CSV → Write reconciliation.csv. */
function writeStates(b: WorkflowBuilder, state: string): void {
	const file = b.add(csvToFile('To CSV', 'reconciliation.csv', [1120, -160]));
	const write = b.add(writeFile('Write reconciliation.csv', `${FILES}/reconciliation.csv`, [1340, -160]));
	b.connect(state, file);
	b.connect(file, write);
}

/** Final? → Voucher → Save voucher: the PDF of each order that has its final status. */
function downloadVouchers(b: WorkflowBuilder, state: string): void {
	const final = b.add(
		ifNode('Final?', conditions([condition('={{ $json.final }}', 'true', '', 'boolean')]), [1120, 160]),
	);
	b.connect(state, final);
	// The voucher path serves every currency; Orders' Currency picks the App ID that asks for each order's voucher.
	const voucher = b.add(
		haiPay(
			'Voucher',
			'payouts',
			{
				resource: 'voucher',
				operation: 'download',
				orderNos: row('orderNo'),
				ordersCurrency: row('currency'),
				lang: 'en',
				getFee: true,
				options: {},
			},
			[1340, 160],
		),
	);
	b.connect(final, voucher, 0);
	const save = b.add(writeFile('Save voucher', `={{ '${FILES}/vouchers/' + $binary.data.fileName }}`, [1560, 160]));
	b.connect(voucher, save);
}
