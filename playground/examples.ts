import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import type { WorkflowFile } from '../dev/workflow-builder';
import { EXAMPLES } from './lib/paths';
import { sheetFile, sheetRows } from './lib/sheet';
import { MONTH_END_COLUMNS, MONTH_END_ROWS, MONTH_END_SHEET, monthEndPayouts } from './month-end';
import { bulkPayouts } from './workflows/bulk-payouts';
import { callbacks } from './workflows/callbacks';
import { exactlyOnce } from './workflows/exactly-once';
import { mitCollection } from './workflows/mit-collection';
import { payrollBatches } from './workflows/payroll-batches';
import { reconciliation } from './workflows/reconciliation';
import { reconciliationReport } from './workflows/reconciliation-report';

/**
 * The example workflows, written as code so that what they share (node makers, credentials, URLs) is said once, and
 * saved as the plain n8n JSON in examples/ that a person imports: one module each in workflows/ (example 6 in
 * month-end.ts), what they share in workflows/shared.ts. `npm run examples` rewrites them; `--check` fails when the
 * committed files differ from what this makes. What the tests, the benchmark and the playground read about the
 * examples is exported here.
 */

export { credentialOf, PAYOUTS_CREDENTIAL, SANDBOX_APP_IDS } from './lib/haipay-nodes';
export { bulkPayouts } from './workflows/bulk-payouts';
export { callbacks } from './workflows/callbacks';
export {
	BUSINESS_STEP_URL,
	CLAIM_SQL,
	DONE_SQL,
	EXACTLY_ONCE_DATABASE,
	EXACTLY_ONCE_TABLE_SQL,
	EXACTLY_ONCE_WEBHOOK_ID,
	exactlyOnce,
	POSTGRES_CREDENTIAL,
} from './workflows/exactly-once';
export { MIT_CUSTOMER, mitCollection } from './workflows/mit-collection';
export { PAYROLL_RESULT_COLUMNS, payrollBatches } from './workflows/payroll-batches';
export { reconciliation } from './workflows/reconciliation';
export { QUERIED_OUTCOMES, RECONCILIATION_REPORT, reconciliationReport } from './workflows/reconciliation-report';
export { callbackUrl, callbackWebhookId, FILES, WORKFLOW_IDS } from './workflows/shared';
export { PAYOUTS_CREDENTIAL_CURRENCIES } from '../sandbox/credentials';

export function allExamples(): Array<{ file: string; workflow: WorkflowFile }> {
	return [
		{ file: '1-bulk-payouts.json', workflow: bulkPayouts() },
		{ file: '2-callbacks.json', workflow: callbacks() },
		{ file: '3-reconciliation.json', workflow: reconciliation() },
		{ file: '4-mit-collection.json', workflow: mitCollection() },
		{ file: '5-exactly-once-callbacks.json', workflow: exactlyOnce() },
		{ file: '6-month-end-payouts.json', workflow: monthEndPayouts() },
		{ file: '8-reconciliation-report.json', workflow: reconciliationReport() },
		{ file: '9-payroll-batches.json', workflow: payrollBatches() },
	];
}

/**
 * examples/data/month-end.xlsx, the sample sheet of example 6, from MONTH_END_ROWS: written, or (`check`) read back
 * and compared cell by cell, types included.
 */
function sameSheet(check: boolean): boolean {
	const path = join(EXAMPLES, 'data', MONTH_END_SHEET);
	if (!check) {
		writeFileSync(path, sheetFile(MONTH_END_ROWS, MONTH_END_COLUMNS, 'Payouts'));
		process.stdout.write(`wrote examples/data/${MONTH_END_SHEET}\n`);
		return true;
	}
	try {
		return JSON.stringify(sheetRows(readFileSync(path)).rows) === JSON.stringify(MONTH_END_ROWS);
	} catch {
		return false;
	}
}

function main(): void {
	const check = process.argv.includes('--check');
	mkdirSync(EXAMPLES, { recursive: true });
	const stale: string[] = [];
	for (const { file, workflow } of allExamples()) {
		const path = join(EXAMPLES, file);
		const text = `${JSON.stringify(workflow, null, 2)}\n`;
		if (check) {
			let current = '';
			try {
				current = readFileSync(path, 'utf8');
			} catch {
				// missing counts as stale
			}
			if (current !== text) stale.push(file);
		} else {
			writeFileSync(path, text);
			process.stdout.write(`wrote examples/${file}\n`);
		}
	}
	if (!sameSheet(check)) stale.push(`data/${MONTH_END_SHEET}`);
	if (stale.length > 0) {
		process.stderr.write(`examples/ differs from playground/examples.ts: ${stale.join(', ')} (run npm run examples)\n`);
		process.exit(1);
	}
}

if (require.main === module) main();
