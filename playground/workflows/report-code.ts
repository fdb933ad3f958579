import { PLAIN_TEXT } from '../lib/cells';

/**
 * The Code node of the reconciliation report (example 8), as the JavaScript n8n runs. It reads every row of the file
 * (`Rows`) and every answer of `Query`, so that each row of the file comes out once, in its order, whether it was
 * queried or not; then the totals per currency and status, added as decimal text (a JavaScript number drifts from the
 * bank's sum, as in nodes/HaiPay/approval/decimalTotal.ts, whose algorithm this repeats: a Code node imports nothing
 * of the package). Text is written as it is: an XLSX string cell never runs as a formula (playground/lib/cells.ts).
 */
export const REPORT_CODE = String.raw`// Every row of the file once, in its order, then per currency and status the row count and exact totals.
// Text as it is: an XLSX string cell is never run as a formula, so no apostrophe is added or taken away.
const asText = ${PLAIN_TEXT};
const plain = (value) => asText(value).trim();
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const decimalText = (value) => { const text = typeof value === 'number' ? String(value) : String(value ?? '').trim(); return DECIMAL.test(text) ? text : ''; };
// Exact sums: whole numbers of the smallest unit seen, as BigInt.
const add = (total, text) => {
	const [, whole, fraction = ''] = DECIMAL.exec(text);
	const places = Math.max(total.places, fraction.length);
	const units = total.units * 10n ** BigInt(places - total.places) + BigInt(whole + fraction.padEnd(places, '0'));
	return { units, places };
};
const written = (total) => {
	const digits = total.units.toString().padStart(total.places + 1, '0');
	return total.places === 0 ? digits : digits.slice(0, -total.places) + '.' + digits.slice(-total.places);
};
const key = (currency, orderId) => currency + '\u0000' + orderId;

const answers = new Map();
for (const item of $input.all()) {
	const answer = item.json;
	if (answer.orderId !== undefined) answers.set(key(plain(answer.currency).toUpperCase(), plain(answer.orderId)), answer);
}

const QUERIED = ['accepted', 'duplicate', 'unknown', ''];
const rows = $('Rows').all().map((item) => {
	const orderId = plain(item.json.orderId);
	const currency = plain(item.json.currency).toUpperCase();
	const sentOutcome = plain(item.json.outcome);
	const answer = QUERIED.includes(sentOutcome) && orderId !== '' ? answers.get(key(currency, orderId)) : undefined;
	let label;
	if (!QUERIED.includes(sentOutcome) || orderId === '') label = 'not sent' + (sentOutcome === '' ? '' : ' (' + sentOutcome + ')');
	else if (answer === undefined) label = 'not queried';
	else if (answer.error !== undefined) label = 'query failed';
	// HaiPay's answer for an order it does not have: status 3 and no order number or amount.
	else if (Number(answer.status) === 3 && (!answer.orderNo || !answer.amount)) label = 'not found';
	else label = answer.statusLabel ?? 'status ' + answer.status;
	const from = answer !== undefined && answer.error === undefined ? answer : {};
	const amountText = decimalText(from.amount ?? item.json.amountText ?? item.json.amount);
	return {
		section: 'order',
		orderId,
		currency,
		sentOutcome,
		orderNo: asText(from.orderNo ?? plain(item.json.orderNo)),
		status: from.status ?? '',
		statusLabel: label,
		amount: amountText === '' ? '' : Number(amountText),
		fee: decimalText(from.fee) === '' ? '' : Number(from.fee),
		actualAmount: decimalText(from.actualAmount) === '' ? '' : Number(from.actualAmount),
		payTime: asText(from.payTime),
		errorMsg: asText(answer === undefined ? plain(item.json.error) : answer.error ?? answer.errorMsg),
		rows: '',
		totalAmount: '',
		totalFee: '',
		totalActualAmount: '',
		_exact: { amount: amountText, fee: decimalText(from.fee), actualAmount: decimalText(from.actualAmount) },
	};
});

const groups = new Map();
for (const row of rows) {
	const group = groups.get(key(row.currency, row.statusLabel)) ?? { currency: row.currency, statusLabel: row.statusLabel, rows: 0, amount: { units: 0n, places: 0 }, fee: { units: 0n, places: 0 }, actualAmount: { units: 0n, places: 0 } };
	group.rows += 1;
	for (const field of ['amount', 'fee', 'actualAmount']) if (row._exact[field] !== '') group[field] = add(group[field], row._exact[field]);
	groups.set(key(row.currency, row.statusLabel), group);
}
const totals = [...groups.values()]
	.sort((a, b) => (a.currency + ' ' + a.statusLabel).localeCompare(b.currency + ' ' + b.statusLabel))
	.map((group) => ({
		section: 'total',
		orderId: '',
		currency: group.currency,
		sentOutcome: '',
		orderNo: '',
		status: '',
		statusLabel: group.statusLabel,
		amount: '',
		fee: '',
		actualAmount: '',
		payTime: '',
		errorMsg: '',
		rows: group.rows,
		totalAmount: written(group.amount),
		totalFee: written(group.fee),
		totalActualAmount: written(group.actualAmount),
	}));

return [...rows.map(({ _exact, ...row }) => ({ json: row })), ...totals.map((row) => ({ json: row }))];
`;
