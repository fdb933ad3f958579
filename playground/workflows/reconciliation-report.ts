import { WorkflowBuilder, type WorkflowFile } from '../../dev/workflow-builder';
import { condition, conditions, manualTrigger, readFile, stickyNote, writeFile } from '../lib/base-nodes';
import { textCell } from '../lib/cells';
import { haiPay } from '../lib/haipay-nodes';
import { MONTH_END_RESULTS } from '../month-end';
import { FILES, WORKFLOW_IDS } from './shared';
import { REPORT_CODE } from './report-code';

/**
 * Example 8, the reconciliation report: days after month-end, every order of example 6's results file (or of any
 * sheet with an `orderId` and a `currency` column) queried with bounded concurrency, and an XLSX report written with
 * each row's state and, per currency, the rows and exact totals of each status.
 */

export const RECONCILIATION_REPORT = 'reconciliation-report.xlsx';

/** The outcomes of a results file whose order HaiPay has or may have; a sheet without an outcome column is queried whole. */
export const QUERIED_OUTCOMES = ['accepted', 'duplicate', 'unknown'] as const;

export function reconciliationReport(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.reconciliationReport);
	about(b);
	const start = b.add(manualTrigger([-200, 0]));
	const read = b.add(readFile(`Read ${MONTH_END_RESULTS}`, `${FILES}/${MONTH_END_RESULTS}`, [20, 0]));
	const rows = b.add({
		name: 'Rows',
		type: 'n8n-nodes-base.extractFromFile',
		typeVersion: 1.1,
		position: [240, 0],
		parameters: { operation: 'xlsx', binaryPropertyName: 'data', options: { headerRow: true } },
	});
	// An empty selection still goes on (one empty item, which Query reports as invalid), so that the report is written.
	const open = b.add({
		name: 'Sent or may be',
		type: 'n8n-nodes-base.filter',
		typeVersion: 2.2,
		position: [460, 0],
		alwaysOutputData: true,
		parameters: {
			conditions: conditions(
				[
					condition("={{ $json.outcome ?? '' }}", 'empty', ''),
					...QUERIED_OUTCOMES.map((outcome) => condition('={{ $json.outcome }}', 'equals', outcome)),
				],
				'or',
			),
			looseTypeValidation: true,
			options: {},
		},
	});
	// One node queries every currency, a few orders at a time: the currency from each row, its App ID from the credential.
	const query = b.add(
		haiPay(
			'Query',
			'payouts',
			{
				resource: 'payout',
				operation: 'get',
				currency: textCell('$json.currency'),
				orderId: textCell('$json.orderId'),
				options: { concurrency: 4 },
			},
			[680, 0],
			{ onError: 'continueRegularOutput' },
		),
	);
	const report = b.add({
		name: 'Report',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [900, 0],
		parameters: { mode: 'runOnceForAllItems', jsCode: REPORT_CODE },
	});
	const file = b.add({
		name: 'To XLSX',
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position: [1120, 0],
		parameters: {
			operation: 'xlsx',
			binaryPropertyName: 'data',
			options: { fileName: RECONCILIATION_REPORT, headerRow: true, sheetName: 'Reconciliation' },
		},
	});
	const write = b.add(writeFile(`Write ${RECONCILIATION_REPORT}`, `${FILES}/${RECONCILIATION_REPORT}`, [1340, 0]));
	for (const [from, to] of [
		[start, read],
		[read, rows],
		[rows, open],
		[open, query],
		[query, report],
		[report, file],
		[file, write],
	])
		b.connect(from, to);
	return b.file(
		'HaiPay example: reconciliation report',
		"Queries every order of the month-end results file and writes an XLSX report: each row's status, fee and pay time, and per currency the exact totals of each status.",
	);
}

function about(b: WorkflowBuilder): void {
	b.add(
		stickyNote(
			'About',
			[
				'## Reconciliation report',
				`Which orders of the month-end run settled, failed, or are still in progress? Save the results file of the month-end example as \`${FILES}/${MONTH_END_RESULTS}\` (or any XLSX with an \`orderId\` and a \`currency\` column) and run.`,
				'',
				`- Rows whose \`outcome\` is ${QUERIED_OUTCOMES.map((outcome) => `\`${outcome}\``).join(', ')}, or that have no outcome, are queried (Payout → Get, 4 at a time); the others were never paid and are reported as not sent.`,
				`- \`${FILES}/${RECONCILIATION_REPORT}\`: one \`order\` row per row of the file, in its order (status label, amount, fee, actual amount, pay time, HaiPay's error message), then one \`total\` row per currency and status with the row count and the exact decimal totals.`,
				'- Text is written as it is, without an apostrophe: an XLSX text cell never runs as a formula.',
			].join('\n'),
			[-260, -460],
			700,
			300,
		),
	);
}
