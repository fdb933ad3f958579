import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { credentialOf, haiPay, mixedPayoutParameters, PAYOUTS_CREDENTIAL } from './lib/haipay-nodes';
import { EXAMPLES, N8N_PORT } from './lib/paths';
import { MONTH_END_COLUMNS, MONTH_END_ROWS, MONTH_END_SHEET, monthEndPayouts } from './month-end';
import { sheetFile, sheetRows } from './lib/sheet';
import { WorkflowBuilder, type NodeSpec, type Parameters, type WorkflowFile } from '../dev/workflow-builder';
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
	switchNode,
	writeFile,
} from './lib/base-nodes';

export { credentialOf, PAYOUTS_CREDENTIAL, SANDBOX_APP_IDS } from './lib/haipay-nodes';

/**
 * The example workflows, written as code so that what they share (node makers, credentials, URLs) is said once, and
 * saved as the plain n8n JSON in examples/ that a person imports. `npm run examples` rewrites them; `--check` fails when the
 * committed files differ from what this makes.
 */

export const PAYOUT_CURRENCIES = ['TZS', 'ZAR', 'NGN', 'EGP', 'BDT'] as const;

export const WORKFLOW_IDS = {
	bulkPayouts: 'haipayExBulkPays',
	callbacks: 'haipayExCallback',
	reconciliation: 'haipayExReconcil',
	mitCollection: 'haipayExMitCharg',
	exactlyOnce: 'haipayExOnceOnly',
} as const;

/**
 * The database credential of the exactly-once example: n8n's own Postgres credential type. The queue-mode
 * playground, which runs PostgreSQL, provides one under this id (database `haipay`); elsewhere the user picks theirs.
 */
export const POSTGRES_CREDENTIAL = { id: 'haipayExPostgres', name: 'HaiPay callbacks database' } as const;

/** The database the queue-mode playground gives the exactly-once example, beside n8n's own. */
export const EXACTLY_ONCE_DATABASE = 'haipay';

/** One row per result claimed: the primary key on dedup_key is what lets only one claim of a result succeed. */
export const EXACTLY_ONCE_TABLE_SQL = `CREATE TABLE IF NOT EXISTS haipay_callbacks (
  dedup_key  text PRIMARY KEY,
  app_id     text,
  order_id   text,
  order_no   text,
  status     text,
  amount     text,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  done_at    timestamptz
)`;

/** Inserts the result's row, or nothing when it exists: a row comes back only to the first claim of a result. */
export const CLAIM_SQL = `INSERT INTO haipay_callbacks (dedup_key, app_id, order_id, order_no, status, amount)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (dedup_key) DO NOTHING
RETURNING dedup_key, app_id, order_id, order_no, status, amount`;

export const DONE_SQL = 'UPDATE haipay_callbacks SET done_at = now() WHERE dedup_key = $1';

/**
 * Where results arrive in the callbacks workflow: every payout currency's at one HaiPay Trigger (the payouts
 * credential holds each App ID), USD card collections' at their own.
 */
export function callbackWebhookId(currency: string): string {
	return currency.toUpperCase() === 'USD' ? 'haipay-callbacks-usd' : 'haipay-callbacks';
}

export function callbackUrl(currency: string, port = N8N_PORT): string {
	return `http://localhost:${port}/webhook/${callbackWebhookId(currency)}/webhook`;
}

/** The example workflows read and write below this folder, relative to the folder n8n runs in. */
export const FILES = 'haipay';

const HAIPAY_TRIGGER = 'n8n-nodes-haipay.haiPayTrigger';


// ---- 1. bulk payouts -----------------------------------------------------------------------------------

export function bulkPayouts(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.bulkPayouts);
	b.add(
		stickyNote(
			'About',
			[
				'## Bulk payouts from a spreadsheet',
				`Reads \`${FILES}/payouts.csv\`, pays every row with one HaiPay node (the currency comes from each row, and the credential holds an App ID per currency), and writes every row back to \`${FILES}/payout-results.csv\` with its \`outcome\` and HaiPay's \`orderNo\`, in the file's order.`,
				'',
				'- **Pay** reads each field from the row\'s column of the same name (**Fields From: Input**) and uses **On Error → Continue**: a row that breaks a rule, is refused, or has an unknown outcome comes out with `error`, `outcome` and `advice` instead of stopping the run.',
				'- A currency the credential holds no App ID for (KES in the sample) is reported as `invalid`, field `currency`.',
				'- `outcome = unknown` means: query the order before sending it again (the Reconciliation example does).',
				'- **Run it twice** and every row already sent comes back `duplicate`: HaiPay refuses an orderId it already has, so nothing is paid twice. To pay the sample from scratch, stop `npm start` and run `npm start -- --fresh` (it forgets the sandbox\'s orders and restores payouts.csv).',
				'- Results arrive later at the **HaiPay callbacks** workflow (the `notifyUrl` that **Number rows** adds), when it is active.',
			].join('\n'),
			[-260, -480],
			620,
			400,
		),
	);
	const start = b.add(manualTrigger([-200, 0]));
	const read = b.add(readFile('Read payouts.csv', `${FILES}/payouts.csv`, [20, 0]));
	const rows = b.add(csvFromFile('Rows', [240, 0]));
	// The line number, for the results file, and where HaiPay posts each result: the node reads notifyUrl from the
	// row like every other field.
	const numbered = b.add(
		setFields('Number rows', [['row', '={{ $itemIndex + 1 }}', 'number'], ['notifyUrl', callbackUrl('TZS')]], [460, 0], true),
	);
	const pay = b.add(haiPay('Pay', 'payouts', mixedPayoutParameters('create'), [680, 0], { onError: 'continueRegularOutput' }));
	b.connect(start, read);
	b.connect(read, rows);
	b.connect(rows, numbered);
	b.connect(numbered, pay);
	const source = "$('Number rows').item.json";
	const results = b.add(
		setFields(
			'Result row',
			[
				['row', `={{ ${source}.row }}`, 'number'],
				['orderId', `={{ ${source}.orderId }}`],
				['currency', `={{ ${source}.currency }}`],
				['amount', `={{ ${source}.amount }}`],
				['name', `={{ ${source}.name }}`],
				['outcome', "={{ $json.outcome ?? 'unknown' }}"],
				['orderNo', "={{ $json.orderNo ?? '' }}"],
				['error', "={{ $json.error ?? '' }}"],
				['errorCode', "={{ $json.errorCode ?? '' }}"],
				['field', "={{ $json.field ?? '' }}"],
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
	return b.file('HaiPay example: bulk payouts from a spreadsheet', 'Pays the rows of a CSV of mixed currencies with one HaiPay node and writes each row back with its outcome and orderNo.');
}

// ---- 2. callbacks --------------------------------------------------------------------------------------

export function callbacks(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.callbacks);
	b.add(
		stickyNote(
			'About',
			[
				'## HaiPay callbacks',
				'**Payout results** takes the payout callbacks of every currency: its credential holds an App ID per currency and checks each callback with its own App ID\'s secret. **USD results** takes the card collections of the USD App ID. A trigger refuses callbacks of App IDs its credential does not hold. Activate the workflow and use each trigger\'s **Production URL** as `notifyUrl`.',
				'',
				`Every accepted result is routed by status and appended to \`${FILES}/callbacks.jsonl\`. A USD card payment's \`tokenID\` is stored in \`${FILES}/mit-tokens/<orderId>.json\` for the next charge.`,
				'',
				'Forged or wrongly signed callbacks are answered 401 and start nothing; HaiPay\'s repeats of a result are answered SUCCESS and start nothing.',
			].join('\n'),
			[-260, -760],
			560,
			300,
		),
	);
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
	const triggers = [
		{ name: 'Payout results', currency: 'TZS', kind: 'payout', credentials: PAYOUTS_CREDENTIAL },
		{ name: 'USD results', currency: 'USD', kind: 'collection', credentials: credentialOf('USD') },
	];
	triggers.forEach(({ name, currency, kind, credentials }, i) => {
		const trigger = b.add({
			name,
			type: HAIPAY_TRIGGER,
			typeVersion: 1.1,
			position: [40, -170 + i * 340],
			webhookId: callbackWebhookId(currency),
			parameters: { kind, options: {} },
			credentials,
		});
		b.connect(trigger, route);
		if (currency === 'USD') {
			const hasToken = b.add(ifNode('Card token?', conditions([condition('={{ $json.tokenID }}', 'notEmpty', '')]), [360, 520]));
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
			const write = b.add(writeFile('Store token', `={{ '${FILES}/mit-tokens/' + $('Card token').item.json.orderId + '.json' }}`, [1020, 520]));
			b.connect(hasToken, token, 0);
			b.connect(token, json);
			b.connect(json, write);
		}
	});
	const record = (name: string, action: string, position: [number, number]) =>
		b.add(
			setFields(
				name,
				[
					[
						'line',
						`={{ JSON.stringify({ receivedAt: $now.toISO(), action: '${action}', kind: $json.kind, currency: $json.currency, orderId: $json.orderId, orderNo: $json.orderNo, status: $json.status, statusLabel: $json.statusLabel, amount: $json.amount, fee: $json.fee, payTime: $json.payTime ?? null, errorMsg: $json.errorMsg ?? null }) + '\\n' }}`,
					],
				],
				position,
			),
		);
	const paid = record('Mark paid', 'mark paid', [600, -170]);
	const failed = record('Mark failed', 'mark failed', [600, 0]);
	const other = record('Note status', 'note', [600, 170]);
	b.connect(route, paid, 0);
	b.connect(route, failed, 1);
	b.connect(route, other, 2);
	const text = b.add({
		name: 'Line',
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position: [820, 0],
		parameters: { operation: 'toText', sourceProperty: 'line', binaryPropertyName: 'data', options: { fileName: 'callbacks.jsonl' } },
	});
	for (const node of [paid, failed, other]) b.connect(node, text);
	const append = b.add(writeFile('Append to callbacks.jsonl', `${FILES}/callbacks.jsonl`, [1040, 0], true));
	b.connect(text, append);
	return b.file('HaiPay example: callbacks', 'Receives signed results of every payout currency at one trigger, routes them by status, records them and stores MIT card tokens.');
}

// ---- 3. reconciliation ---------------------------------------------------------------------------------

export function reconciliation(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.reconciliation);
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
	// One node queries every currency: the currency from each row, the payouts credential's App ID for it.
	const query = b.add(
		haiPay(
			'Query',
			'payouts',
			{ resource: 'payout', operation: 'get', currency: row('currency'), orderId: row('orderId'), orderNo: row('orderNo'), options: {} },
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
				['orderId', `={{ ${source}.orderId }}`],
				['currency', `={{ ${source}.currency }}`],
				['sentOutcome', `={{ ${source}.outcome }}`],
				['orderNo', `={{ $json.orderNo ?? ${source}.orderNo }}`],
				['status', '={{ $json.status ?? null }}', 'number'],
				['statusLabel', "={{ $json.statusLabel ?? '' }}"],
				['final', '={{ $json.status === 2 || $json.status === 3 }}', 'boolean'],
				['errorMsg', "={{ $json.errorMsg ?? $json.error ?? '' }}"],
			],
			[900, 0],
		),
	);
	b.connect(query, state);
	const file = b.add(csvToFile('To CSV', 'reconciliation.csv', [1120, -160]));
	const write = b.add(writeFile('Write reconciliation.csv', `${FILES}/reconciliation.csv`, [1340, -160]));
	b.connect(state, file);
	b.connect(file, write);
	const final = b.add(ifNode('Final?', conditions([condition('={{ $json.final }}', 'true', '', 'boolean')]), [1120, 160]));
	b.connect(state, final);
	// The voucher path serves every currency; Orders' Currency picks the App ID that asks for each order's voucher.
	const voucher = b.add(
		haiPay(
			'Voucher',
			'payouts',
			{ resource: 'voucher', operation: 'download', orderNos: row('orderNo'), ordersCurrency: row('currency'), lang: 'en', getFee: true, options: {} },
			[1340, 160],
		),
	);
	b.connect(final, voucher, 0);
	const save = b.add(writeFile('Save voucher', `={{ '${FILES}/vouchers/' + $binary.data.fileName }}`, [1560, 160]));
	b.connect(voucher, save);
	return b.file('HaiPay example: reconciliation', 'Queries every sent payout whose result is not known yet and downloads the vouchers of the final ones.');
}

// ---- 4. USD MIT collection -----------------------------------------------------------------------------

export const MIT_CUSTOMER = {
	customerId: 'cust-0042',
	name: 'Jane Doe',
	email: 'jane.doe@example.com',
	phone: '12025550142',
	clientIp: '203.0.113.10',
	amount: '25.00',
};

export function mitCollection(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.mitCollection);
	b.add(
		stickyNote(
			'About',
			[
				'## USD card collection (MIT)',
				`**First run**: no card is saved for the customer, so the first charge returns a \`payUrl\`: open it and pay. The callback (the **HaiPay callbacks** workflow, active) stores the card's \`tokenID\` in \`${FILES}/mit-tokens/<first orderId>.json\`.`,
				'',
				"**Later runs**: the token is found and the customer is charged with it, no payment page. The charge's `orderId` holds the date, so a second run on the same day is refused by HaiPay as a duplicate instead of charging twice.",
			].join('\n'),
			[-260, -500],
			620,
			260,
		),
	);
	const start = b.add(manualTrigger([-200, 0]));
	const customer = b.add(
		setFields(
			'Customer',
			[
				['customerId', MIT_CUSTOMER.customerId],
				['name', MIT_CUSTOMER.name],
				['email', MIT_CUSTOMER.email],
				['phone', MIT_CUSTOMER.phone],
				['clientIp', MIT_CUSTOMER.clientIp],
				['amount', MIT_CUSTOMER.amount],
				['firstOrderId', `MIT-FIRST-${MIT_CUSTOMER.customerId}`],
				['chargeOrderId', `={{ 'MIT-${MIT_CUSTOMER.customerId}-' + $now.toFormat('yyyyMMdd') }}`],
			],
			[20, 0],
		),
	);
	const token = b.add(
		readFile('Saved card token', `={{ '${FILES}/mit-tokens/' + $json.firstOrderId + '.json' }}`, [240, 0], { alwaysOutputData: true }),
	);
	const saved = b.add(ifNode('Card saved?', conditions([condition('={{ $json.fileName }}', 'notEmpty', '')]), [460, 0]));
	b.connect(start, customer);
	b.connect(customer, token);
	b.connect(token, saved);
	const c = "$('Customer').first().json";
	const common: Parameters = {
		resource: 'collection',
		operation: 'create',
		currency: 'USD',
		amount: `={{ ${c}.amount }}`,
		payType: 'CARD',
		inBankCode: 'VISA',
		name: `={{ ${c}.name }}`,
		phone: `={{ ${c}.phone }}`,
		email: `={{ ${c}.email }}`,
		clientIp: `={{ ${c}.clientIp }}`,
		partnerUserId: `={{ ${c}.customerId }}`,
	};
	const parse = b.add({
		name: 'Token',
		type: 'n8n-nodes-base.extractFromFile',
		typeVersion: 1.1,
		position: [680, -120],
		parameters: { operation: 'fromJson', binaryPropertyName: 'data', destinationKey: 'saved', options: {} },
	});
	b.connect(saved, parse, 0);
	const repeat = b.add(
		haiPay(
			'Charge saved card',
			'USD',
			{
				...common,
				orderId: `={{ ${c}.chargeOrderId }}`,
				additionalFields: { tokenID: '={{ $json.saved.tokenID }}', notifyUrl: callbackUrl('USD'), subject: 'Monthly plan' },
				options: {},
			},
			[900, -120],
		),
	);
	b.connect(parse, repeat);
	const first = b.add(
		haiPay(
			'First charge',
			'USD',
			{
				...common,
				orderId: `={{ ${c}.firstOrderId }}`,
				additionalFields: { notifyUrl: callbackUrl('USD'), subject: 'Monthly plan: first payment' },
				options: {},
			},
			[680, 120],
		),
	);
	b.connect(saved, first, 1);
	const payPage = b.add(
		setFields(
			'Send the payer to payUrl',
			[
				['orderId', row('orderId')],
				['orderNo', row('orderNo')],
				['payUrl', row('payUrl')],
				['next', 'Open payUrl and pay; the callbacks workflow stores the card token; then run this workflow again.'],
			],
			[900, 120],
		),
	);
	b.connect(first, payPage);
	return b.file('HaiPay example: USD card collection (MIT)', 'First charge returns a payment page; later charges use the stored card token.');
}

// ---- 5. exactly-once business steps ----------------------------------------------------------------

/** Where the exactly-once example's trigger listens; its own URL, beside the callbacks example's triggers. */
export const EXACTLY_ONCE_WEBHOOK_ID = 'haipay-exactly-once-tzs';

/** The business step's URL in the example: a placeholder for the merchant's own system. */
export const BUSINESS_STEP_URL = 'https://erp.example.com/haipay/payment-result';

function postgres(name: string, query: string, position: [number, number], replacement?: string): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.postgres',
		typeVersion: 2.6,
		position,
		parameters: { operation: 'executeQuery', query, options: replacement === undefined ? {} : { queryReplacement: replacement } },
		credentials: { postgres: { ...POSTGRES_CREDENTIAL } },
	};
}

export function exactlyOnce(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.exactlyOnce);
	b.add(
		stickyNote(
			'About',
			[
				'## Exactly once, across webhook processors',
				'HaiPay resends a result until it reads `SUCCESS`, and with several webhook processors (queue mode) two deliveries can run at the same moment. The trigger\'s repeat memory drops later repeats; **Claim** makes the business step run once per result whatever arrives together: it inserts the item\'s `dedupKey` into a table whose primary key it is, and only the insert that made the row gets it back.',
				'',
				'1. Give **Create table** and **Claim** a Postgres credential (any PostgreSQL the workers reach; the queue-mode playground has one). Run **Set up** once.',
				'2. Replace **Business step** with yours (mark the invoice paid, notify the payee). Send `dedupKey` along if your system can refuse a repeat too.',
				'3. Activate, and use the trigger\'s **Production URL** as `notifyUrl`. One trigger per App ID: add others and connect them to **Claim**.',
				'',
				'A claim whose business step failed keeps `done_at` empty: `SELECT * FROM haipay_callbacks WHERE done_at IS NULL AND claimed_at < now() - interval \'15 minutes\'` lists them. Settle each by hand, or delete its row and retry the execution.',
			].join('\n'),
			[-260, -620],
			660,
			400,
		),
	);
	const setup = b.add(manualTrigger([-200, -120], 'Set up'));
	const table = b.add(postgres('Create table', EXACTLY_ONCE_TABLE_SQL, [20, -120]));
	b.connect(setup, table);
	const trigger = b.add({
		name: 'TZS results',
		type: HAIPAY_TRIGGER,
		typeVersion: 1.1,
		position: [-200, 120],
		webhookId: EXACTLY_ONCE_WEBHOOK_ID,
		parameters: { options: {} },
		credentials: credentialOf('TZS'),
	});
	const claim = b.add(
		postgres(
			'Claim',
			CLAIM_SQL,
			[20, 120],
			'={{ [ $json.dedupKey, String($json.appId ?? \'\'), String($json.orderId ?? \'\'), String($json.orderNo ?? \'\'), String($json.status ?? \'\'), String($json.amount ?? \'\') ] }}',
		),
	);
	b.connect(trigger, claim);
	// A claim that inserted nothing still gives one item ({ success: true }): the row's dedup_key tells them apart.
	const first = b.add(ifNode('First claim?', conditions([condition('={{ $json.dedup_key }}', 'exists', '')]), [240, 120]));
	b.connect(claim, first);
	const step = b.add({
		name: 'Business step',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [460, 40],
		parameters: {
			method: 'POST',
			url: BUSINESS_STEP_URL,
			sendBody: true,
			specifyBody: 'json',
			jsonBody:
				'={{ JSON.stringify({ dedupKey: $json.dedup_key, appId: $json.app_id, orderId: $json.order_id, orderNo: $json.order_no, status: $json.status, amount: $json.amount }) }}',
			options: {},
		},
	});
	const done = b.add(postgres('Mark done', DONE_SQL, [680, 40], "={{ [ $('Claim').item.json.dedup_key ] }}"));
	const repeat = b.add({ name: 'Already claimed', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [460, 220], parameters: {} });
	b.connect(first, step, 0);
	b.connect(step, done);
	b.connect(first, repeat, 1);
	return b.file(
		'HaiPay example: exactly-once callbacks',
		"Claims each result's dedupKey in PostgreSQL and runs the business step only for the first claim, whichever webhook processor took it.",
	);
}

export function allExamples(): Array<{ file: string; workflow: WorkflowFile }> {
	return [
		{ file: '1-bulk-payouts.json', workflow: bulkPayouts() },
		{ file: '2-callbacks.json', workflow: callbacks() },
		{ file: '3-reconciliation.json', workflow: reconciliation() },
		{ file: '4-mit-collection.json', workflow: mitCollection() },
		{ file: '5-exactly-once-callbacks.json', workflow: exactlyOnce() },
		{ file: '6-month-end-payouts.json', workflow: monthEndPayouts() },
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
