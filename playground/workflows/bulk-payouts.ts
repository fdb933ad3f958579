import { WorkflowBuilder, type WorkflowFile } from '../../dev/workflow-builder';
import { csvFromFile, csvToFile, manualTrigger, readFile, setFields, stickyNote, writeFile } from '../lib/base-nodes';
import { safeCell } from '../lib/cells';
import { haiPay, mixedPayoutParameters } from '../lib/haipay-nodes';
import { callbackUrl, FILES, WORKFLOW_IDS } from './shared';

/**
 * Example 1, bulk payouts from a spreadsheet: the rows of a CSV of mixed currencies, paid by one HaiPay node, and
 * written back with their outcome and HaiPay's orderNo, in the file's order.
 */

export function bulkPayouts(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.bulkPayouts);
	about(b);
	const rows = numberedRows(b);
	const pay = b.add(
		haiPay('Pay', 'payouts', mixedPayoutParameters('create'), [680, 0], { onError: 'continueRegularOutput' }),
	);
	b.connect(rows, pay);
	writeResults(b, pay);
	return b.file(
		'HaiPay example: bulk payouts from a spreadsheet',
		'Pays the rows of a CSV of mixed currencies with one HaiPay node and writes each row back with its outcome and orderNo.',
	);
}

function about(b: WorkflowBuilder): void {
	b.add(
		stickyNote(
			'About',
			[
				'## Bulk payouts from a spreadsheet',
				`Reads \`${FILES}/payouts.csv\`, pays every row with one HaiPay node (the currency comes from each row, and the credential holds an App ID per currency), and writes every row back to \`${FILES}/payout-results.csv\` with its \`outcome\` and HaiPay's \`orderNo\`, in the file's order.`,
				'',
				"- **Pay** reads each field from the row's column of the same name (**Fields From: Input**) and uses **On Error → Continue**: a row that breaks a rule, is refused, or has an unknown outcome comes out with `error`, `outcome` and `advice` instead of stopping the run.",
				'- A currency the credential holds no App ID for (KES in the sample) is reported as `invalid`, field `currency`.',
				'- `outcome = unknown` means: query the order before sending it again (the Reconciliation example does).',
				"- **Run it twice** and every row already sent comes back `duplicate`: HaiPay refuses an orderId it already has, so nothing is paid twice. To pay the sample from scratch, stop `npm start` and run `npm start -- --fresh` (it forgets the sandbox's orders and restores payouts.csv).",
				'- Results arrive later at the **HaiPay callbacks** workflow (the `notifyUrl` that **Number rows** adds), when it is active.',
			].join('\n'),
			[-260, -480],
			620,
			400,
		),
	);
}

/** Run → Read payouts.csv → Rows → Number rows: each row with its line number and the URL HaiPay posts its result to. */
function numberedRows(b: WorkflowBuilder): string {
	const start = b.add(manualTrigger([-200, 0]));
	const read = b.add(readFile('Read payouts.csv', `${FILES}/payouts.csv`, [20, 0]));
	const rows = b.add(csvFromFile('Rows', [240, 0]));
	// The line number, for the results file, and where HaiPay posts each result: the node reads notifyUrl from the
	// row like every other field.
	const numbered = b.add(
		setFields(
			'Number rows',
			[
				['row', '={{ $itemIndex + 1 }}', 'number'],
				['notifyUrl', callbackUrl('TZS')],
			],
			[460, 0],
			true,
		),
	);
	b.connect(start, read);
	b.connect(read, rows);
	b.connect(rows, numbered);
	return numbered;
}

/**
 * Result row → To CSV → Write payout-results.csv: the sheet's columns, then what HaiPay made of the row; text that a
 * spreadsheet would run as a formula is written with a leading apostrophe (lib/cells.ts).
 */
function writeResults(b: WorkflowBuilder, pay: string): void {
	const source = "$('Number rows').item.json";
	const results = b.add(
		setFields(
			'Result row',
			[
				['row', `={{ ${source}.row }}`, 'number'],
				['orderId', safeCell(`${source}.orderId`)],
				['currency', safeCell(`${source}.currency`)],
				['amount', safeCell(`${source}.amount`)],
				['name', safeCell(`${source}.name`)],
				['outcome', "={{ $json.outcome ?? 'unknown' }}"],
				['orderNo', safeCell('$json.orderNo')],
				['error', safeCell('$json.error')],
				['errorCode', safeCell('$json.errorCode')],
				['field', safeCell('$json.field')],
				['advice', "={{ $json.advice ?? '' }}"],
			],
			[900, 0],
		),
	);
	b.connect(pay, results);
	const file = b.add(csvToFile('To CSV', 'payout-results.csv', [1120, 0]));
	const write = b.add(writeFile('Write payout-results.csv', `${FILES}/payout-results.csv`, [1340, 0]));
	b.connect(results, file);
	b.connect(file, write);
}
