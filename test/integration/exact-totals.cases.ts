/**
 * Exact month-end totals: a generated sheet of 100,000 rows with adversarial amounts, as n8n's Extract from File reads
 * an XLSX (SheetJS: number cells stay numbers), checked by Payout → Check with Output "Approval Summary" in a real
 * n8n-core execution. Its totals per currency must equal an independent decimal sum
 * (decimal.js) of the amounts the gateway would receive for the rows the sheet made valid, row counts included;
 * the floating-point sum a Summarize node makes does not.
 */
import DecimalJs from 'decimal.js';
import type { IDataObject } from 'n8n-workflow';

import { sheetFile, sheetRows } from '../../playground/lib/sheet';
import type { Sandbox } from '../../sandbox';
import { PAYOUTS } from '../fixtures/bodies';
import { AMOUNTS, seeded, sentText } from '../helpers/adversarial-amounts';
import { multiCurrencyCredential } from '../helpers/credentials';
import { NODE, runNode, sandboxPerFile } from './helpers';

/** decimal.js rounds to 20 significant digits by default; 100,000 amounts of 17 digits need more. */
const Decimal = DecimalJs.clone({ precision: 200 });
type Decimal = InstanceType<typeof Decimal>;

const ROWS = 100_000;
const CURRENCIES = Object.keys(AMOUNTS) as Array<keyof typeof AMOUNTS>;
const DECIMALS: Record<string, number> = { TZS: 2, ZAR: 2, NGN: 2, EGP: 2, BDT: 0 };
const COLUMNS = [
	'orderId',
	'currency',
	'amount',
	'accountType',
	'bankCode',
	'accountNo',
	'name',
	'phone',
	'email',
	'partnerUserId',
];

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

interface Expected {
	rows: number;
	invalid: number;
	exact: Decimal;
	float: number;
}

function generated(): { rows: IDataObject[]; expected: Map<string, Expected>; invalid: number } {
	const next = seeded(20260630);
	const expected = new Map<string, Expected>(
		CURRENCIES.map((currency) => [currency, { rows: 0, invalid: 0, exact: new Decimal(0), float: 0 }]),
	);
	const rows: IDataObject[] = [];
	let invalid = 0;
	for (let index = 0; index < ROWS; index++) {
		const currency = CURRENCIES[Math.floor(next() * CURRENCIES.length)];
		const choices = AMOUNTS[currency];
		// Most rows valid, as in a real sheet; every kind of amount still comes up thousands of times.
		const pick = next() < 0.8 ? choices.filter((choice) => choice.valid) : choices;
		const { amount, valid } = pick[Math.floor(next() * pick.length)];
		rows.push({ ...PAYOUTS[currency], orderId: `ME100K-${index}`, currency, amount });
		const line = expected.get(currency) as Expected;
		if (!valid) {
			line.invalid++;
			invalid++;
			continue;
		}
		line.rows++;
		line.exact = line.exact.plus(new Decimal(sentText(amount)));
		line.float += Number(amount);
	}
	return { rows, expected, invalid };
}

/**
 * The rows as n8n reads them from an XLSX of the sheet. SheetJS reads each cell alone, whatever row it is in, so one
 * row per distinct amount goes through the file and every one of the 100,000 rows takes its amount from there: the
 * same cells a 100,000-row file gives, without half a minute of writing and reading the same cells again.
 */
function asReadFromXlsx(made: IDataObject[]): IDataObject[] {
	const distinct = [
		...new Map(made.map((entry) => [`${typeof entry.amount}:${String(entry.amount)}`, entry])).values(),
	];
	const read = sheetRows(sheetFile(distinct, COLUMNS, 'June')).rows as IDataObject[];
	expect(read.map((entry) => entry.amount)).toEqual(distinct.map((entry) => entry.amount));
	const cell = new Map(
		distinct.map((entry, index) => [`${typeof entry.amount}:${String(entry.amount)}`, read[index].amount]),
	);
	return made.map((entry) => ({ ...entry, amount: cell.get(`${typeof entry.amount}:${String(entry.amount)}`) }));
}

describe('exact totals on a sheet of 100,000 rows', () => {
	it('Payout → Check gives per currency the row count and the exact decimal total of the valid rows, as decimal.js sums them', async () => {
		const { rows: made, expected, invalid } = generated();
		const rows = asReadFromXlsx(made);
		expect(rows).toHaveLength(ROWS);
		expect(rows.map((entry) => entry.amount)).toEqual(made.map((entry) => entry.amount));

		const result = await runNode(sandbox, {
			parameters: {
				resource: 'payout',
				operation: 'check',
				currency: '={{ $json.currency }}',
				fieldsFrom: 'input',
				options: { output: 'summary' },
			},
			items: rows,
			credential: multiCurrencyCredential(sandbox.baseUrl, CURRENCIES),
		});
		expect(result.status).toBe('success');
		const [summary] = result.jsonOf(NODE);
		expect(summary).toMatchObject({ rows: ROWS, invalidRows: invalid, validRows: ROWS - invalid });
		const lines = summary.currencies as Array<{ currency: string; rows: number; total: string; invalidRows: number }>;
		expect(lines.map((line) => line.currency).sort()).toEqual([...CURRENCIES].sort());
		for (const line of lines) {
			const want = expected.get(line.currency) as Expected;
			expect(line).toEqual({
				currency: line.currency,
				rows: want.rows,
				total: want.exact.toFixed(DECIMALS[line.currency]),
				decimals: DECIMALS[line.currency],
				invalidRows: want.invalid,
			});
		}
		// The sheet is adversarial: summing JavaScript numbers, as a Summarize node does, gives other totals.
		const drifted = lines.filter(
			(line) => String((expected.get(line.currency) as Expected).float) !== new Decimal(line.total).toString(),
		);
		expect(drifted.length).toBeGreaterThan(0);
		expect(summary.invalid as unknown[]).toHaveLength(invalid);
		expect(sandbox.requests).toHaveLength(0);
	}, 300_000);
});
