import { textCell } from './lib/cells';
import { CONTROLS } from './month-end-policy';

/**
 * What example 6 shows and writes, as n8n expressions: the approval page (first, in large type, the rows HaiPay
 * already has and those it could not be asked about, from Check's Look Up Existing Orders; then the exact totals to pay
 * per currency from Payout → Check's approval summary, every row that breaks a rule with its field and reason, the
 * fingerprint approved), the results row (amounts as numbers, the exact text beside them, every text cell safe to
 * open), and the last page (counts per outcome, and "Nothing new was paid" when no row was accepted).
 */

/** The node whose approval summary the page shows and the pay step holds the payment to. */
export const SUMMARY_NODE = 'Check';

/** The most rows of each list the approval page shows (invalid, at HaiPay, not checked); the count of the others follows. */
export const LISTED = 100;

const SUMMARY = `$('${SUMMARY_NODE}').first().json`;

/** HTML-escapes text that comes from the sheet or the gateway. */
const ESCAPE =
	"const esc = (value) => String(value ?? '').replace(/[&<>\"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\"': '&quot;', \"'\": '&#39;' })[c]);";
/** Groups the whole part of an exact total in thousands, leaving its decimals as they are. */
const GROUP =
	"const group = (total) => { const [whole, fraction] = String(total).split('.'); const grouped = whole.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ','); return fraction === undefined ? grouped : grouped + '.' + fraction; };";
/** A table of at most LISTED rows, each a list of cells already escaped, and the count of those left out. */
const TABLE = `const table = (head, rows, what) => '<table><thead><tr>' + head.map((name) => '<th>' + name + '</th>').join('') + '</tr></thead><tbody>' + rows.slice(0, ${LISTED}).map((cells) => '<tr>' + cells.map((cell) => '<td>' + cell + '</td>').join('') + '</tr>').join('') + '</tbody></table>' + (rows.length > ${LISTED} ? '<p>and ' + (rows.length - ${LISTED}) + ' more ' + what + '.</p>' : '');`;

/**
 * The warnings above everything else on the page: what is wrong with the sheet's columns (once for the sheet, with
 * the column to rename), the rows HaiPay already has (not to pay: the pay step sends them and HaiPay refuses each as
 * a duplicate), one line per currency whose query cannot prove an order absent (USDT), and the rows HaiPay could not
 * be asked about for certain (counted to pay).
 */
const WARNINGS = [
	'const existing = s.existing ?? []; const unchecked = s.unchecked ?? []; const unprovable = s.unprovable ?? []; const sheet = s.sheet ?? { problems: [], refusedRows: 0 };',
	// A row's amount in its currency's places and grouped, as the totals are written, then the currency.
	"const money = (row) => { const places = (s.currencies.find((line) => line.currency === row.currency) ?? {}).decimals ?? 0; const [whole, fraction = ''] = String(row.amount).split('.'); return group(places === 0 && fraction === '' ? whole : whole + '.' + fraction.padEnd(places, '0')) + ' ' + esc(row.currency); };",
	"const state = (row) => row.statusLabel ?? (row.status === null ? 'status not stated' : 'status ' + row.status);",
	"const refusing = sheet.problems.filter((p) => p.refuses !== 'none'); const notes = sheet.problems.filter((p) => p.refuses === 'none');",
	"const columns = (refusing.length === 0 ? '' : '<h2>Warning: the sheet\\'s columns</h2><p><strong>' + (sheet.refusedRows === 1 ? '1 row is' : sheet.refusedRows + ' rows are') + ' not paid for these columns. Rename them in the sheet and upload it again.</strong></p><ul class=\"columns\">' + refusing.map((p) => '<li>' + esc(p.text) + '</li>').join('') + '</ul>')",
	"+ (notes.length === 0 ? '' : '<p>Columns not read (nothing of them is sent):</p><ul class=\"columns\">' + notes.map((p) => '<li>' + esc(p.text) + '</li>').join('') + '</ul>');",
	"const held = existing.length === 0 ? '' : '<h2>Warning: HaiPay already has ' + existing.length + (existing.length === 1 ? ' row' : ' rows') + ' of this sheet</h2>'",
	"+ '<p><strong>They are not in To pay. HaiPay refuses each again as a duplicate, so none is paid twice; make sure this is not a sheet paid before.</strong></p>'",
	"+ table(['Sheet row', 'Order ID', 'Amount', 'HaiPay order', 'Status'], existing.map((row) => [row.itemIndex + 2, esc(row.orderId), money(row), esc(row.orderNo), esc(state(row))]), 'rows HaiPay already has');",
	"const cannot = unprovable.map((line) => '<h2>' + esc(line.currency) + ': ' + line.rows + (line.rows === 1 ? ' row' : ' rows') + ' HaiPay cannot show to be new</h2><p class=\"unprovable\">' + esc(line.meaning) + '</p>').join('');",
	"const open = unchecked.length === 0 ? '' : '<h2>Warning: ' + unchecked.length + (unchecked.length === 1 ? ' row' : ' rows') + ' could not be checked with HaiPay</h2>'",
	"+ '<p><strong>They are counted in To pay, but HaiPay may already have them. Look them up before approving.</strong></p>'",
	"+ table(['Sheet row', 'Order ID', 'Amount', 'Why'], unchecked.map((row) => [row.itemIndex + 2, esc(row.orderId), money(row), esc(row.reason)]), 'rows not checked');",
	"const asked = s.existing === undefined ? '<p>HaiPay was not asked which rows it already has (Check: Options, Look Up Existing Orders).</p>' : '';",
].join(' ');

/** Everything the summary says, as HTML (the `summary` of both pages), after `${SUMMARY}` is read into `s`. */
const SUMMARY_BODY = [
	`const s = ${SUMMARY}; ${ESCAPE} ${GROUP} ${TABLE} ${WARNINGS}`,
	// A currency whose every valid row HaiPay has stays listed, with 0 to pay.
	"const lines = s.currencies.filter((line) => line.rows > 0 || line.existingRows > 0).map((line) => '<tr><td>' + esc(line.currency) + '</td><td>' + line.rows + '</td><td>' + group(line.total) + '</td></tr>').join('');",
	'const invalid = s.invalid.slice(0, ' +
		LISTED +
		").map((row) => '<tr><td>' + (row.itemIndex + 2) + '</td><td>' + esc(row.orderId) + '</td><td>' + esc(row.field) + '</td><td>' + esc(row.error) + '</td></tr>').join('');",
	`const more = s.invalid.length > ${LISTED} ? '<p>and ' + (s.invalid.length - ${LISTED}) + ' more rows that break a rule.</p>' : '';`,
	"const refused = s.invalid.length === 0 ? '' : '<table class=\"invalid\"><thead><tr><th>Sheet row</th><th>Order ID</th><th>Field</th><th>Reason</th></tr></thead><tbody>' + invalid + '</tbody></table>' + more;",
	"const forColumns = sheet.refusedRows > 0 ? ' (' + sheet.refusedRows + ' for the sheet\\'s columns, above)' : '';",
	"const summary = columns + held + cannot + open + asked + '<h3>To pay</h3><table class=\"totals\"><thead><tr><th>Currency</th><th>Rows</th><th>Total</th></tr></thead><tbody>' + lines + '</tbody></table>'",
	"+ '<p>Rows that break a rule, not paid: <strong>' + s.invalidRows + '</strong>' + forColumns + '</p>' + refused;",
].join(' ');

/** The approval page: the warnings; per currency the rows to pay and their exact total; the invalid rows; the fingerprint. */
export const APPROVAL_HTML = [
	`={{ (() => { ${SUMMARY_BODY} ${CONTROLS}`,
	"const sends = existing.length === 0 ? 'pays exactly these ' + s.validRows + ' rows' : 'sends the ' + s.validRows + ' valid rows: ' + s.toPayRows + ' to pay, and the ' + existing.length + ' HaiPay already has, which it refuses as duplicates';",
	// The fingerprint's first 16 hex digits fit the page and tell two approvals apart; the pay step compares all 64.
	"return balances + summary + approvers + '<p>Approving ' + sends + '; the pay step sends nothing if the sheet changes. Fingerprint: <code>' + esc(String(s.fingerprint).slice(0, 19)) + '…</code></p>'; })() }}",
].join(' ');

/** Whether the sheet has a row to pay: with none, the uploader gets NOTHING_TO_PAY_HTML and no page offers Approve. */
export const ANYTHING_TO_PAY = `={{ (${SUMMARY}.toPayRows ?? ${SUMMARY}.validRows) > 0 }}`;

/** The title of the page that ends a run with nothing to pay. */
export const NOTHING_TO_PAY = 'Nothing to pay';

/** That page, whole (n8n shows it as the page's body): why, and the same summary as the approval page. */
export const NOTHING_TO_PAY_HTML = [
	`={{ (() => { ${SUMMARY_BODY}`,
	"const style = '<style>body{font-family:sans-serif;max-width:900px;margin:2em auto;padding:0 1em;color:#333}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}</style>';",
	"const why = s.validRows > 0 ? 'HaiPay already has every valid row of this sheet: nothing is left to pay' : 'No row of this sheet can be paid';",
	`return style + '<h1>${NOTHING_TO_PAY}</h1><p><strong>' + why + ', so there is nothing to approve and nothing was sent to HaiPay.</strong> Correct the sheet and upload it again.</p>' + summary; })() }}`,
].join(' ');

/** The row of the pay step's input: the sheet's row as it was approved. */
const SOURCE = "$('Approved rows').item.json";
/** The amount as the gateway reads it: a number cell as JavaScript writes it, text trimmed. */
const AMOUNT_TEXT = `((raw) => typeof raw === 'number' ? String(raw) : String(raw ?? '').trim())(${SOURCE}.amount)`;
const DECIMALS = `(${SUMMARY}.currencies.find((line) => line.currency === String(${SOURCE}.currency ?? '').trim().toUpperCase()) ?? {}).decimals`;

/** The fields of one results row: [name, n8n expression, type]. */
export const RESULT_FIELDS: Array<[string, string, string?]> = [
	['orderId', textCell(`${SOURCE}.orderId`)],
	['currency', textCell(`${SOURCE}.currency`)],
	// A number cell Excel sums; a value that is no plain decimal stays empty here and readable in amountText.
	['amount', `={{ ((text) => /^\\d+(\\.\\d+)?$/.test(text) ? Number(text) : null)(${AMOUNT_TEXT}) }}`, 'number'],
	[
		'amountText',
		textCell(
			`((text, places) => { if (places === undefined || !/^\\d+(\\.\\d+)?$/.test(text)) return text; const [whole, fraction = ''] = text.split('.'); return places === 0 && fraction === '' ? whole : whole + '.' + fraction.padEnd(places, '0'); })(${AMOUNT_TEXT}, ${DECIMALS})`,
		),
	],
	['outcome', "={{ $json.outcome ?? 'unknown' }}"],
	['orderNo', textCell('$json.orderNo')],
	['field', textCell('$json.field')],
	['error', textCell('$json.error')],
];

const COUNTS =
	"const counts = {}; for (const item of $('Result row').all()) counts[item.json.outcome] = (counts[item.json.outcome] ?? 0) + 1;";

/** The last page's title: "Nothing new was paid" unless HaiPay accepted a row of this run. */
export const RESULT_TITLE = `={{ (() => { ${COUNTS} return counts.accepted > 0 ? 'Payouts sent' : 'Nothing new was paid'; })() }}`;

/**
 * The last page's message: `lead` (JavaScript giving text, such as who approved), the count of each outcome, and
 * why nothing was sent when the sheet changed.
 */
export function resultMessage(lead = "''"): string {
	return [
		`={{ (() => { ${COUNTS}`,
		"const changed = $('Result row').all().some((item) => item.json.field === 'approvedFingerprint');",
		// The node's own refusal when the approvals collected do not meet the approval policy.
		"const policy = $('Result row').all().find((item) => ['approvals', 'approvalPolicy', 'uploadedBy'].includes(item.json.field));",
		"const refused = policy === undefined ? '' : 'The approvals do not meet the approval policy, nothing was sent: ' + policy.json.error + ' ';",
		"const list = Object.entries(counts).map(([outcome, count]) => outcome + ': ' + count).join(', ');",
		`return ${lead} + refused + (changed ? 'The sheet changed after it was approved: nothing was sent. ' : '') + 'Rows by outcome: ' + list + '. Your browser downloads month-end-results.xlsx with every row.'; })() }}`,
	].join(' ');
}
