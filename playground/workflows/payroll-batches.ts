import { WorkflowBuilder, type NodeSpec, type WorkflowFile } from '../../dev/workflow-builder';
import {
	condition,
	conditions,
	csvFromFile,
	ifNode,
	manualTrigger,
	merge,
	readFile,
	setFields,
	stickyNote,
	textToFile,
	writeFile,
} from '../lib/base-nodes';
import { csvLineFunction, plainText } from '../lib/cells';
import { haiPay, mixedPayoutParameters } from '../lib/haipay-nodes';
import { PAYROLL_BATCH, PAYROLL_RESULTS, PAYROLL_SHEET } from '../payroll';
import { FILES, WORKFLOW_IDS } from './shared';

/**
 * Example 9, a payroll-sized sheet paid in batches: the workflow reads the sheet, leaves out the rows its results
 * file already holds (a run that n8n's end cut short is run again), and hands the rest to itself as a sub-workflow,
 * PAYROLL_BATCH rows at a time. Each sub-workflow execution pays its batch with one HaiPay node and appends the
 * batch's results to one CSV, then ends and frees its items: n8n holds one batch's payouts at a time, not the sheet's.
 */

/** The results file's columns, in order; `row` is the sheet's line number, the key of a rerun with `orderId`. */
export const PAYROLL_RESULT_COLUMNS = [
	'row',
	'orderId',
	'currency',
	'amount',
	'name',
	'outcome',
	'orderNo',
	'error',
	'errorCode',
	'field',
] as const;

/** The sub-workflow's trigger, whose items are the batch. */
const BATCH = 'Batch';

export function payrollBatches(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.payrollBatches);
	about(b);
	const rows = rowsToPay(b);
	const loop = b.add({
		name: 'Batches',
		type: 'n8n-nodes-base.splitInBatches',
		typeVersion: 3,
		position: [1120, 0],
		parameters: { batchSize: PAYROLL_BATCH, options: {} },
	});
	const pay = b.add(payBatch([1340, 100]));
	b.connect(rows, loop);
	b.connect(loop, pay, 1);
	b.connect(pay, loop);
	payAndAppend(b);
	return b.file(
		'HaiPay example: a payroll-sized sheet in batches',
		`Pays a sheet of tens of thousands of rows ${PAYROLL_BATCH.toLocaleString('en-US')} at a time through a sub-workflow, appending each batch's results to one CSV; a rerun pays only the rows the file does not hold.`,
	);
}

function about(b: WorkflowBuilder): void {
	b.add(
		stickyNote(
			'About',
			[
				'## A payroll-sized sheet, in batches',
				`Reads \`${FILES}/${PAYROLL_SHEET}\` and pays it ${PAYROLL_BATCH.toLocaleString('en-US')} rows at a time: **Pay batch** runs this same workflow from **${BATCH}** (a sub-workflow execution per batch), which pays the batch with one HaiPay node and appends its results to \`${FILES}/${PAYROLL_RESULTS}\`. n8n keeps a batch's payouts only while its sub-workflow runs.`,
				'',
				"- Every row of the sheet gets one line in the results file, with its `row`, `outcome` and HaiPay's `orderNo`; text a spreadsheet would run as a formula starts with an apostrophe.",
				`- **Run it again after a crash** (n8n stopped mid-run): rows already in \`${PAYROLL_RESULTS}\` are left out (**Not written yet**, by row and orderId); the batch that was cut short is sent again, and HaiPay refuses each orderId it already has: those rows come back \`duplicate\` with the existing order's \`orderNo\`. Nothing is paid twice.`,
				`- A results file that is there but cannot be read or parsed (a line a crash cut short, say) stops the run before anything is sent: delete the broken line, or move the file away, and run again.`,
				`- A new sheet needs a new results file: move \`${PAYROLL_RESULTS}\` away first. Do not edit the sheet between a crash and its rerun.`,
				'- Batch size: **Batches** (Loop Over Items). Smaller batches hold less memory; each costs a sub-workflow execution.',
			].join('\n'),
			[-260, -560],
			760,
			460,
		),
	);
}

/**
 * Run → Read payroll.csv → Rows → Number rows, and Run → Read payroll-results.csv → Results file found? → Results
 * so far → Written before: Not written yet keeps the rows of the sheet whose row and orderId the results file does
 * not hold.
 */
function rowsToPay(b: WorkflowBuilder): string {
	const start = b.add(manualTrigger([-200, 0]));
	const read = b.add(readFile(`Read ${PAYROLL_SHEET}`, `${FILES}/${PAYROLL_SHEET}`, [20, -100]));
	const rows = b.add(csvFromFile('Rows', [240, -100]));
	const numbered = b.add(code('Number rows', NUMBER_ROWS, [460, -100]));
	// No results file yet (a first run): the read finds no file and outputs one empty item, and every row is paid. A
	// file that is there but cannot be read or parsed stops the run before anything is sent: read as "nothing
	// written", it would send the whole sheet again.
	const soFar = b.add(
		readFile(`Read ${PAYROLL_RESULTS}`, `${FILES}/${PAYROLL_RESULTS}`, [20, 100], { alwaysOutputData: true }),
	);
	const found = b.add(
		ifNode('Results file found?', conditions([condition('={{ $json.fileName }}', 'exists', '')]), [240, 100]),
	);
	const results = b.add({ ...csvFromFile('Results so far', [460, 40]), alwaysOutputData: true });
	const written = b.add(code('Written before', WRITTEN_BEFORE, [680, 100]));
	const notWritten = b.add({
		...merge('Not written yet', 2, [900, 0]),
		parameters: {
			mode: 'combine',
			combineBy: 'combineByFields',
			fieldsToMatchString: 'key',
			joinMode: 'keepNonMatches',
			outputDataFrom: 'input1',
			options: {},
		},
	});
	for (const [from, to] of [
		[start, read],
		[read, rows],
		[rows, numbered],
		[start, soFar],
		[soFar, found],
		[results, written],
	])
		b.connect(from, to);
	b.connect(found, results, 0);
	b.connect(found, written, 1);
	b.connect(numbered, notWritten, 0, 0);
	b.connect(written, notWritten, 0, 1);
	return notWritten;
}

/** Runs this workflow from its Batch trigger with the batch's rows, and waits for it to end. */
function payBatch(position: [number, number]): NodeSpec {
	return {
		name: 'Pay batch',
		type: 'n8n-nodes-base.executeWorkflow',
		typeVersion: 1.2,
		position,
		parameters: {
			source: 'database',
			workflowId: { __rl: true, mode: 'id', value: '={{ $workflow.id }}' },
			mode: 'once',
			options: { waitForSubWorkflow: true },
		},
	};
}

/** Batch → Pay → Batch text → To text → Append to payroll-results.csv → Batch written. */
function payAndAppend(b: WorkflowBuilder): void {
	const batch = b.add({
		name: BATCH,
		type: 'n8n-nodes-base.executeWorkflowTrigger',
		typeVersion: 1.1,
		position: [-200, 400],
		parameters: { inputSource: 'passthrough' },
	});
	const pay = b.add(
		haiPay('Pay', 'payouts', mixedPayoutParameters('create'), [20, 400], { onError: 'continueRegularOutput' }),
	);
	const text = b.add(code('Batch text', batchText(), [240, 400]));
	const file = b.add(textToFile('To text', 'text', PAYROLL_RESULTS, [680, 400]));
	const append = b.add(writeFile(`Append to ${PAYROLL_RESULTS}`, `${FILES}/${PAYROLL_RESULTS}`, [900, 400], true));
	// What goes back to the calling execution: one small item per batch, not the batch's payouts.
	const done = b.add(
		setFields(
			'Batch written',
			[
				['rows', `={{ $('${BATCH}').all().length }}`, 'number'],
				['firstRow', `={{ $('${BATCH}').first().json.row }}`, 'number'],
				['lastRow', `={{ $('${BATCH}').last().json.row }}`, 'number'],
			],
			[1120, 400],
		),
	);
	for (const [from, to] of [
		[batch, pay],
		[pay, text],
		[text, file],
		[file, append],
		[append, done],
	])
		b.connect(from, to);
}

/*
 * The per-row steps are Code nodes that handle the whole batch (or sheet) in one task: an n8n expression costs a
 * third of a millisecond or more per row (n8n 2.x evaluates it in an isolate), as much as paying the row, and a
 * sheet of 50,000 rows would spend a minute on numbering alone (bench/results.md, "A payroll-sized sheet").
 */
function code(name: string, jsCode: string, position: [number, number]): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position,
		parameters: { mode: 'runOnceForAllItems', jsCode },
	};
}

/** Each row of the sheet with its line number and the key a rerun matches on (`row|orderId`). */
const NUMBER_ROWS = `return $input.all().map((item, index) => ({
  json: { ...item.json, row: index + 1, key: (index + 1) + '|' + String(item.json.orderId ?? '') },
  pairedItem: index,
}));`;

/** Each line of the results file as its key; 'none' for the empty item of a file with no rows. */
const WRITTEN_BEFORE = `const plain = (value) => ${plainText('value')};
return $input.all().map((item, index) => ({
  json: { key: item.json.row === undefined ? 'none' : plain(item.json.row) + '|' + plain(item.json.orderId) },
  pairedItem: index,
}));`;

/**
 * The batch's lines of the results file, one per row of the batch, from the row (Batch) and its payout (Pay, one
 * item per row, paired with it); the header goes with the batch that holds the sheet's first row.
 */
function batchText(): string {
	const header = JSON.stringify(PAYROLL_RESULT_COLUMNS.join(','));
	return `const rows = $('${BATCH}').all();
const line = ${csvLineFunction()};
const rowOf = (item, index) => {
  const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
  const at = typeof paired === 'number' ? paired : paired?.item ?? index;
  return rows[at].json;
};
const lines = $input.all().map((item, index) => {
  const row = rowOf(item, index);
  const paid = item.json;
  return line([row.row, row.orderId, row.currency, row.amount, row.name, paid.outcome ?? 'unknown', paid.orderNo, paid.error, paid.errorCode, paid.field]);
});
const first = Number(rows[0]?.json.row) === 1 ? ${header} + '\\n' : '';
return [{ json: { text: first + lines.join('\\n') + '\\n' } }];`;
}
