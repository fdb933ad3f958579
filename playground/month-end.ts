import { WorkflowBuilder, type NodeSpec, type Parameters, type WorkflowFile } from '../dev/workflow-builder';
import { condition, conditions, ifNode, merge, setFields, stickyNote } from './lib/base-nodes';
import { haiPay, mixedPayoutParameters } from './lib/haipay-nodes';
import {
	APPROVAL_FIELDS,
	APPROVAL_LINE,
	APPROVAL_NOTE,
	ON_APPROVER_LIST,
	REFUSED_MESSAGE,
	SECOND_ON_LIST,
	SIGNED_IN_AND_NOT_UPLOADER,
	UPLOAD_NODE,
} from './month-end-approval';
import {
	ANSWERED,
	APPROVALS,
	EXPIRED_ENDING,
	EXPIRED_NODE,
	POLICY_JSON,
	REASON_FIELD,
	REJECTED_MESSAGE,
	SECOND_FIELDS,
	SECOND_NEEDED,
	SECOND_NODE,
	SECOND_NOTE,
	UPLOADED_BY,
	WAIT_LIMIT,
} from './month-end-policy';
import {
	ANYTHING_TO_PAY,
	APPROVAL_HTML,
	NOTHING_TO_PAY,
	NOTHING_TO_PAY_HTML,
	RESULT_FIELDS,
	RESULT_TITLE,
	SUMMARY_NODE,
	resultMessage,
} from './month-end-pages';

/**
 * Example 6, month-end payouts: the finance person uploads the month's XLSX sheet in an n8n form, sees the totals
 * per currency and the rows that break a rule, approves or rejects in the browser, and on approval one HaiPay node
 * pays every currency of the sheet; the browser then downloads the results as XLSX, in the sheet's row order.
 * Maker-checker: both people sign in to n8n, and the approver must be another person on the approver list
 * (month-end-approval.ts); the results name them.
 */

export const MONTH_END_WORKFLOW_ID = 'haipayExMonthEnd';

/** The form's path: `http://localhost:5678/form/haipay-month-end` once the workflow is published. */
export const MONTH_END_FORM_PATH = 'haipay-month-end';

/** The sample sheet, in examples/data/. */
export const MONTH_END_SHEET = 'month-end.xlsx';

/** The file the approver's browser downloads after an approved run. */
export const MONTH_END_RESULTS = 'month-end-results.xlsx';

/** The upload field of the form; n8n names the uploaded file's binary property after it (`Payout_sheet`). */
const SHEET_FIELD = 'Payout sheet';

/** The approval page's choice and its two answers. */
export const DECISION = { field: 'Decision', approve: 'Approve', reject: 'Reject' } as const;

/** The columns of the sample sheet, in order: the gateway's field names, and the currency of each row. */
export const MONTH_END_COLUMNS = [
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
	'subject',
] as const;

export type MonthEndRow = Record<(typeof MONTH_END_COLUMNS)[number], string | number>;

function payee(orderId: string, currency: string, amount: number, account: string[], contact: string[]): MonthEndRow {
	const [accountType, bankCode, accountNo, name] = account;
	const [phone, email, partnerUserId] = contact;
	return {
		orderId,
		currency,
		amount,
		accountType,
		bankCode,
		accountNo,
		name,
		phone,
		email,
		partnerUserId,
		subject: 'June salary',
	};
}

/**
 * The sample sheet's rows: amounts are number cells, as a spreadsheet holds them; every other cell is text, so that
 * account numbers keep their leading zeros. Two rows break a rule: an NGN account number that is not 10 digits and
 * a TZS amount below the 1,000 minimum. `npm run examples` writes examples/data/month-end.xlsx from this list.
 */
export const MONTH_END_ROWS: readonly MonthEndRow[] = [
	payee(
		'ME-2026-06-0001',
		'TZS',
		150000,
		['EWALLET', 'VODACOM', '255712345678', 'Amina Juma'],
		['255712345678', 'amina.juma@example.com', 'emp-0001'],
	),
	payee(
		'ME-2026-06-0002',
		'ZAR',
		2500.5,
		['BANK_ACCOUNT', '051001', '62000000000', 'Thabo Nkosi'],
		['27821234567', 'thabo.nkosi@example.com', 'emp-0002'],
	),
	payee(
		'ME-2026-06-0003',
		'NGN',
		5000,
		['BANK_ACCOUNT', '058', '0123456789', 'Ada Obi'],
		['2348031234567', 'ada.obi@example.com', 'emp-0003'],
	),
	payee(
		'ME-2026-06-0004',
		'EGP',
		300,
		['EWALLET', 'VODAFONE_CASH', '+201012345678', 'Omar Hassan'],
		['+201012345678', 'omar.hassan@example.com', 'emp-0004'],
	),
	payee(
		'ME-2026-06-0005',
		'BDT',
		500,
		['EWALLET', 'BKASH', '01712345678', 'Rahim Uddin'],
		['8801712345678', 'rahim.uddin@example.com', 'emp-0005'],
	),
	payee(
		'ME-2026-06-0006',
		'TZS',
		85000.5,
		['EWALLET', 'AIRTEL', '255754000111', 'Baraka Mushi'],
		['255754000111', 'baraka.mushi@example.com', 'emp-0006'],
	),
	payee(
		'ME-2026-06-0007',
		'NGN',
		7500,
		['BANK_ACCOUNT', '044', '12345', 'Chidi Okeke'],
		['2348059876543', 'chidi.okeke@example.com', 'emp-0007'],
	),
	payee(
		'ME-2026-06-0008',
		'ZAR',
		1200.25,
		['BANK_ACCOUNT', 'ABSA', '4071234567', 'Lerato Mokoena'],
		['27829876543', 'lerato.m@example.com', 'emp-0008'],
	),
	payee(
		'ME-2026-06-0009',
		'TZS',
		500,
		['EWALLET', 'TIGO', '255713000222', 'Neema Said'],
		['255713000222', 'neema.said@example.com', 'emp-0009'],
	),
	payee(
		'ME-2026-06-0010',
		'BDT',
		1250,
		['EWALLET', 'NAGAD', '01812345678', 'Karim Ahmed'],
		['8801812345678', 'karim.ahmed@example.com', 'emp-0010'],
	),
	payee(
		'ME-2026-06-0011',
		'EGP',
		450.75,
		['BANK_ACCOUNT', 'NBE', '100012345678', 'Mona Adel'],
		['+201112345678', 'mona.adel@example.com', 'emp-0011'],
	),
	payee(
		'ME-2026-06-0012',
		'NGN',
		12000,
		['BANK_ACCOUNT', '058', '0987654321', 'Emeka Nwosu'],
		['2348061112222', 'emeka.n@example.com', 'emp-0012'],
	),
];

// ---- n8n's form nodes ----------------------------------------------------------------------------------

/** Version 2.3 of n8n's Form pages: the newest that both n8n 1.x and 2.x have. */
const FORM_VERSION = 2.3;

/**
 * Version 2.6 of the Form Trigger, the first with "n8n User Auth": only a person signed in to this n8n can open the
 * form, and n8n names them (`user`) in the trigger's output and in each later page's. n8n 1.x lacks it, so example
 * 6 runs on n8n 2.x only.
 */
const FORM_TRIGGER_VERSION = 2.6;

function formTrigger(name: string, position: [number, number]): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.formTrigger',
		typeVersion: FORM_TRIGGER_VERSION,
		position,
		webhookId: MONTH_END_FORM_PATH,
		parameters: {
			authentication: 'n8nUserAuth',
			formTitle: 'Month-end payouts',
			formDescription:
				"Upload this month's payout sheet (XLSX). Nothing is paid before another person, an approver, approves the totals.",
			formFields: {
				values: [
					{
						fieldLabel: SHEET_FIELD,
						fieldType: 'file',
						multipleFiles: false,
						acceptFileTypes: '.xlsx',
						requiredField: true,
					},
				],
			},
			options: { path: MONTH_END_FORM_PATH, buttonLabel: 'Check the sheet' },
		},
	};
}

/** A page that waits at most WAIT_LIMIT for its answer (month-end-policy.ts). */
function formPage(name: string, fields: Parameters[], options: Parameters, position: [number, number]): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.form',
		typeVersion: FORM_VERSION,
		position,
		parameters: { operation: 'page', formFields: { values: fields }, ...WAIT_LIMIT, options },
	};
}

/** An approval page: the totals, a note, the decision and the reason of a rejection. */
function decisionPage(name: string, note: string, title: string, position: [number, number]): NodeSpec {
	return formPage(
		name,
		[
			{ fieldLabel: 'Totals', fieldType: 'html', html: APPROVAL_HTML },
			{ fieldLabel: 'Approver', fieldType: 'html', html: note },
			{
				fieldLabel: DECISION.field,
				fieldType: 'radio',
				fieldOptions: { values: [{ option: DECISION.approve }, { option: DECISION.reject }] },
				requiredField: true,
			},
			{ fieldLabel: REASON_FIELD, fieldType: 'text', placeholder: 'Why, if you reject' },
		],
		{ formTitle: title, buttonLabel: 'Submit decision' },
		position,
	);
}

function formEnding(name: string, parameters: Parameters, position: [number, number]): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.form',
		typeVersion: FORM_VERSION,
		position,
		parameters: { operation: 'completion', ...parameters, options: {} },
	};
}

// ---- 6. month-end payouts -------------------------------------------------------------------------------

function about(b: WorkflowBuilder): void {
	b.add(
		stickyNote(
			'About',
			[
				'## Month-end payouts, approved in the browser',
				"1. **Upload the sheet** (n8n form, Publish the workflow first): the XLSX with a row per payee, columns named after the gateway's fields (`orderId`, `currency`, `amount`, `accountNo`, ...).",
				"2. **Check** (HaiPay, Payout → Check, Output *Approval Summary*) runs every row through the rules of its currency; no payout is signed or sent. With Options → *Look Up Existing Orders* it asks HaiPay's signed order query about each valid row: the rows HaiPay already has (a sheet uploaded twice) are listed with HaiPay's orderNo and status and left out of the totals to pay, and rows it could not answer for are counted to pay and listed as not checked; a currency whose query cannot prove an order absent (USDT) gets one line saying so. It gives the exact decimal total and row count to pay of each currency, what is wrong with the sheet's columns once for the sheet (a column it needs and did not find, with the column to rename, e.g. `Order ID` → `orderId`), every other row that breaks a rule with its field and reason, and the fingerprint of the rows to send.",
				"3. **Anything to pay?** With no row to pay, the uploader gets **Nothing to pay** (the same summary, and why) and no page offers Approve. Otherwise **Approve** shows first, as warnings, the sheet's columns, the rows HaiPay already has and those not checked; then the totals to pay, who uploaded, and the page's address to send to an approver. *Reject* ends the run: nothing is paid.",
				"4. **Approver allowed?** Both people sign in to n8n (the form's Authentication is *n8n User Auth*). An approval counts only from a person other than the uploader whose n8n email is on this node's list; any other ends at **Refused**: nothing is paid.",
				"4b. **Finance controls** (docs/approvals.md): Check reads each currency's signed balance (a short one shows first on the page) and says how many approvers the approval policy asks; above one approver's limits a **Second approval** page goes to another person. Each page expires after 72 hours (the page's Limit Wait Time): the run ends at **Approval expired**, nothing paid, and the page's address (the uploader's, the link sent on) says why. Pay is given the policy and the approvals, and sends nothing unless two distinct people, neither the uploader, approved these rows when the policy asks two.",
				'5. On an allowed *Approve*, **Pay** (one HaiPay node, Payout → Create, the currency from each row, **On Error → Continue**, Options → *Approved Fingerprint* from Check) sends every valid row, only if they are exactly the rows approved; invalid ones come back `invalid` unsent.',
				`6. The last page names the approver, the time and the execution, counts the rows per outcome ("Nothing new was paid" when none was accepted) and the browser downloads \`${MONTH_END_RESULTS}\`: every row in the sheet's order with its \`outcome\`, the amount as a number and as exact text, HaiPay's \`orderNo\` and \`error\`, and the approval: \`approvedBy\`, \`approvedAt\`, \`uploadedBy\`, \`executionId\`, the currency's \`approvedRows\` and \`approvedTotal\`, the \`fingerprint\`. Text is written as it is: an XLSX text cell never runs as a formula.`,
				'',
				'The credential holds an App ID per currency (Other Currencies). Give the sheet a `notifyUrl` column to have HaiPay post each result to the callbacks workflow.',
			].join('\n'),
			[-260, -760],
			700,
			640,
		),
	);
}

export function monthEndPayouts(): WorkflowFile {
	const b = new WorkflowBuilder(MONTH_END_WORKFLOW_ID);
	about(b);
	const upload = b.add(formTrigger(UPLOAD_NODE, [-200, 0]));
	const rows = b.add({
		name: 'Rows',
		type: 'n8n-nodes-base.extractFromFile',
		typeVersion: 1.1,
		position: [20, 0],
		parameters: {
			operation: 'xlsx',
			binaryPropertyName: SHEET_FIELD.replace(/\W/g, '_'),
			options: { headerRow: true },
		},
	});
	const check = b.add(
		haiPay(
			SUMMARY_NODE,
			'payouts',
			{
				...mixedPayoutParameters('check'),
				options: { approvalPolicy: POLICY_JSON, checkBalance: true, output: 'summary', lookUpExisting: true },
			},
			[240, -160],
		),
	);
	// Nothing to pay (every row refused, or HaiPay has every valid one): the uploader sees why, and no page offers Approve.
	const anything = b.add(
		ifNode('Anything to pay?', conditions([condition(ANYTHING_TO_PAY, 'true', '', 'boolean')]), [460, -160]),
	);
	const nothing = b.add(
		formEnding(NOTHING_TO_PAY, { respondWith: 'showText', responseText: NOTHING_TO_PAY_HTML }, [680, -360]),
	);
	const approve = b.add(decisionPage('Approve', APPROVAL_NOTE, 'Approve the month-end payouts', [680, -160]));
	// An expired page passes its input on, with no Decision: the run ends there, nothing paid, and the page says why.
	const expired = b.add(formEnding(EXPIRED_NODE, EXPIRED_ENDING, [1120, -480]));
	const answered = b.add(ifNode('Answered?', conditions([condition(ANSWERED, 'true', '', 'boolean')]), [900, -160]));
	const approved = b.add(
		ifNode(
			'Approved?',
			conditions([condition(`={{ $json.${DECISION.field} }}`, 'equals', DECISION.approve)]),
			[1010, -160],
		),
	);
	const rejected = b.add(
		formEnding(
			'Rejected',
			{ respondWith: 'text', completionTitle: 'Nothing was paid', completionMessage: REJECTED_MESSAGE },
			[1120, -320],
		),
	);
	const allowed = b.add(
		ifNode(
			'Approver allowed?',
			conditions([
				condition(SIGNED_IN_AND_NOT_UPLOADER, 'true', '', 'boolean'),
				condition(ON_APPROVER_LIST, 'true', '', 'boolean'),
			]),
			[1120, -160],
		),
	);
	const refused = b.add(
		formEnding(
			'Refused',
			{
				respondWith: 'text',
				completionTitle: 'Approval refused: nothing was paid',
				completionMessage: REFUSED_MESSAGE,
			},
			[1340, -320],
		),
	);
	// The sheet's rows wait at the merge's first input while the approver decides; the approval lets them through.
	const chosen = b.add({
		...merge('Approved rows', 2, [1120, 0]),
		parameters: { mode: 'chooseBranch', useDataOfInput: 1, chooseBranchMode: 'waitForAll', output: 'specifiedInput' },
	});
	b.connect(upload, rows);
	b.connect(rows, check);
	b.connect(rows, chosen, 0, 0);
	b.connect(check, anything);
	b.connect(anything, approve);
	b.connect(anything, nothing, 1);
	b.connect(approve, answered);
	b.connect(answered, approved);
	b.connect(answered, expired, 1);
	b.connect(approved, allowed);
	b.connect(approved, rejected, 1);
	b.connect(allowed, refused, 1);
	secondApproval(b, { allowed, chosen, expired, rejected });
	payAndReturn(b, chosen);
	return b.file(
		'HaiPay example: month-end payouts, approved in the browser',
		'Checks an uploaded XLSX, shows the totals per currency for approval, pays every currency with one HaiPay node and returns the results as XLSX.',
	);
}

/**
 * Above one approver's limits (Check's approvalsRequired), a second page, sent by the first approver to another
 * person; its If checks the approver list only: that the second is neither the first nor the uploader is Pay's rule.
 */
function secondApproval(
	b: WorkflowBuilder,
	at: { allowed: string; chosen: string; expired: string; rejected: string },
) {
	const needed = b.add(
		ifNode('Second approver needed?', conditions([condition(SECOND_NEEDED, 'true', '', 'boolean')]), [1230, -160]),
	);
	const page = b.add(decisionPage(SECOND_NODE, SECOND_NOTE, 'Second approval of the month-end payouts', [1340, -480]));
	const answered = b.add(
		ifNode('Second answered?', conditions([condition(ANSWERED, 'true', '', 'boolean')]), [1560, -480]),
	);
	const approved = b.add(
		ifNode(
			'Second approved?',
			conditions([condition(`={{ $json.${DECISION.field} }}`, 'equals', DECISION.approve)]),
			[1780, -480],
		),
	);
	const listed = b.add(
		ifNode('Second on the list?', conditions([condition(SECOND_ON_LIST, 'true', '', 'boolean')]), [2000, -480]),
	);
	const refused = b.add(
		formEnding(
			'Second approver refused',
			{
				respondWith: 'text',
				completionTitle: 'Approval refused: nothing was paid',
				completionMessage: `={{ String($json.user?.email ?? 'a person not signed in to n8n') + ' is not on the list of month-end approvers. Nothing was paid.' }}`,
			},
			[2220, -640],
		),
	);
	b.connect(at.allowed, needed);
	b.connect(needed, page);
	b.connect(needed, at.chosen, 1, 1);
	b.connect(page, answered);
	b.connect(answered, approved);
	b.connect(answered, at.expired, 1);
	b.connect(approved, listed);
	b.connect(approved, at.rejected, 1);
	b.connect(listed, at.chosen, 0, 1);
	b.connect(listed, refused, 1);
}

/** Pays the approved rows with one HaiPay node and hands the approver the results file, one row per sheet row. */
function payAndReturn(b: WorkflowBuilder, chosen: string): void {
	const pay = b.add(
		haiPay(
			'Pay',
			'payouts',
			{
				...mixedPayoutParameters('create'),
				options: {
					approvalPolicy: POLICY_JSON,
					approvals: APPROVALS,
					approvedFingerprint: `={{ $('${SUMMARY_NODE}').first().json.fingerprint }}`,
					concurrency: 4,
					uploadedBy: UPLOADED_BY,
				},
			},
			[1340, 0],
			{ onError: 'continueRegularOutput' },
		),
	);
	const result = b.add(setFields('Result row', [...RESULT_FIELDS, ...APPROVAL_FIELDS, ...SECOND_FIELDS], [1560, 0]));
	const file = b.add({
		name: 'To XLSX',
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position: [1780, 0],
		parameters: {
			operation: 'xlsx',
			binaryPropertyName: 'data',
			options: { fileName: MONTH_END_RESULTS, headerRow: true, sheetName: 'Results' },
		},
	});
	const done = b.add(
		formEnding(
			'Download the results',
			{
				respondWith: 'returnBinary',
				completionTitle: RESULT_TITLE,
				completionMessage: resultMessage(APPROVAL_LINE),
				inputDataFieldName: 'data',
			},
			[2000, 0],
		),
	);
	b.connect(chosen, pay);
	b.connect(pay, result);
	b.connect(result, file);
	b.connect(file, done);
}
