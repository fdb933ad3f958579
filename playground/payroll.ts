import { writeFileSync } from 'fs';
import { join } from 'path';

import { START_FILES } from './lib/paths';
import { MONTH_END_COLUMNS } from './month-end';
import { FILES } from './workflows/shared';

/**
 * The payroll-sized sheet of example 9 (playground/workflows/payroll-batches.ts): as many rows as asked, TZS, NGN
 * and ZAR by turns, every one valid, each with its own orderId. The playground writes a sample of
 * PAYROLL_SAMPLE_ROWS; `npx tsx playground/payroll.ts 50000` writes a month-end-sized one over it, and the
 * benchmark (`BENCH_PARTS=sheet`) and the end-to-end test pay the same rows.
 */

/** The sheet example 9 reads and the results file it appends to, in the examples' folder. */
export const PAYROLL_SHEET = 'payroll.csv';
export const PAYROLL_RESULTS = 'payroll-results.csv';
/** Rows per sub-workflow execution in example 9. */
export const PAYROLL_BATCH = 1_000;
/** The rows of the sample sheet the playground writes. */
export const PAYROLL_SAMPLE_ROWS = 2_500;

export const PAYROLL_COLUMNS = MONTH_END_COLUMNS;
export type PayrollRow = Record<(typeof PAYROLL_COLUMNS)[number], string>;

/** One payee per currency, paid by turns; the amount, the orderId and the contact change with the row. */
const PAYEES = [
	{
		currency: 'TZS',
		accountType: 'EWALLET',
		bankCode: 'VODACOM',
		accountNo: '255712345678',
		name: 'Amina Juma',
		phone: '255712345678',
	},
	{
		currency: 'NGN',
		accountType: 'BANK_ACCOUNT',
		bankCode: '058',
		accountNo: '0123456789',
		name: 'Ada Obi',
		phone: '2348031234567',
	},
	{
		currency: 'ZAR',
		accountType: 'BANK_ACCOUNT',
		bankCode: '051001',
		accountNo: '62000000000',
		name: 'Thabo Nkosi',
		phone: '27821234567',
	},
] as const;

/** Amounts that vary by row; 50,000 rows stay within the sandbox's starting balance of each currency. */
function amountOf(currency: string, index: number): string {
	const step = index % 97;
	if (currency === 'TZS') return String(10_000 + step * 100);
	if (currency === 'NGN') return String(5_000 + step * 100);
	return `${2_500 + step}.50`;
}

/** Rows 1 to `count` of a payroll: orderIds `<prefix>-00001` and on. */
export function payrollRows(count: number, prefix = 'PAYROLL-2026-06'): PayrollRow[] {
	return Array.from({ length: count }, (_, index) => {
		const payee = PAYEES[index % PAYEES.length];
		const n = String(index + 1).padStart(5, '0');
		return {
			...payee,
			orderId: `${prefix}-${n}`,
			amount: amountOf(payee.currency, index),
			email: `emp-${n}@example.com`,
			partnerUserId: `emp-${n}`,
			subject: 'June salary',
		};
	});
}

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The rows as CSV with a header row, as a spreadsheet exports it. */
export function payrollCsv(rows: readonly PayrollRow[]): string {
	return (
		[
			PAYROLL_COLUMNS.join(','),
			...rows.map((row) => PAYROLL_COLUMNS.map((column) => csvCell(row[column])).join(',')),
		].join('\n') + '\n'
	);
}

function main(): void {
	const count = Number(process.argv[2] ?? PAYROLL_SAMPLE_ROWS);
	if (!Number.isInteger(count) || count < 1)
		throw new Error(`rows must be a whole number above 0, not "${process.argv[2]}"`);
	const path = process.argv[3] ?? join(START_FILES, FILES, PAYROLL_SHEET);
	writeFileSync(path, payrollCsv(payrollRows(count)));
	process.stdout.write(`wrote ${count} rows to ${path}\n`);
}

if (require.main === module) main();
