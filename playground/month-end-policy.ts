import type { Parameters } from '../dev/workflow-builder';
import { textCell } from './lib/cells';

/**
 * Example 6's finance controls: the approval policy by amount (one approver up to each currency's limits, two
 * distinct people above them, neither the uploader), the balance read before anyone approves, and approval pages
 * that expire. The policy is stated once here and given to both HaiPay nodes: Check says what it asks of the sheet,
 * Pay sends nothing unless the approvals collected meet it (the node's own rule, whatever the pages allowed).
 */

/** Per currency: up to which total, and up to which single row, one approver suffices; "*" is any other currency. */
export const MONTH_END_POLICY = {
	TZS: { oneApproverUpToTotal: '5000000.00', oneApproverUpToRow: '1000000.00' },
	ZAR: { oneApproverUpToTotal: '50000.00', oneApproverUpToRow: '20000.00' },
	NGN: { oneApproverUpToTotal: '5000000.00', oneApproverUpToRow: '1000000.00' },
	EGP: { oneApproverUpToTotal: '100000.00', oneApproverUpToRow: '20000.00' },
	BDT: { oneApproverUpToTotal: '500000', oneApproverUpToRow: '50000' },
	'*': { oneApproverUpToTotal: '0', oneApproverUpToRow: '0' },
} as const;

/** How long an approval page waits for its answer; then the run ends with nothing paid (edit it in the page's node). */
export const APPROVAL_HOURS = 72;

/** The policy as both nodes read it; Pay also counts an approval only for as long as its page would have waited. */
export const POLICY_JSON = JSON.stringify({ ...MONTH_END_POLICY, approvalsValidForHours: APPROVAL_HOURS });

/** A Form page's wait limit, as n8n's Form node names it. */
export const WAIT_LIMIT: Parameters = {
	limitWaitTime: true,
	limitType: 'afterTimeInterval',
	resumeAmount: APPROVAL_HOURS,
	resumeUnit: 'hours',
};

export const SECOND_NODE = 'Second approval';
export const EXPIRED_NODE = 'Approval expired';
/** The optional text an approver types with a rejection. */
export const REASON_FIELD = 'Reason';

/** The page that expired: the second when it was shown (the first was answered then), else the first. */
const EXPIRED_PAGE = `($('${SECOND_NODE}').isExecuted ? $('${SECOND_NODE}') : $('Approve'))`;

/**
 * Why nothing was paid, on the "Approval expired" ending: the approval page's address (the uploader's page, the link
 * they sent on) shows it from then on. The time is the expired page's own Limit Wait Time, so it says what was set.
 */
export const EXPIRED_MESSAGE = `={{ 'No approver answered within ' + ${EXPIRED_PAGE}.params.resumeAmount + ' ' + ${EXPIRED_PAGE}.params.resumeUnit + ': the approval expired and nothing was paid. Upload the sheet again to have it approved.' }}`;

/** The ending where an expired page leads (an n8n Form ending; n8n's Stop and Error would show the page only "finished with error"). */
export const EXPIRED_ENDING: Parameters = {
	respondWith: 'text',
	completionTitle: 'Approval expired: nothing was paid',
	completionMessage: EXPIRED_MESSAGE,
};

/** Whether a page was answered: an expired page passes on its input, which has no Decision. */
export const ANSWERED = "={{ ['Approve', 'Reject'].includes($json.Decision) }}";

const PERSON =
	"((u) => u && u.email ? ((String(u.firstName ?? '') + ' ' + String(u.lastName ?? '')).trim() + ' (' + u.email + ')').trim() : '')";

/** The rejection page: who rejected, when, and the reason they typed. */
export const REJECTED_MESSAGE = `={{ 'Rejected by ' + ${PERSON}($json.user) + ' at ' + $json.submittedAt + ($json.${REASON_FIELD} ? ': "' + $json.${REASON_FIELD} + '"' : ' (no reason given)') + '. No row was sent to HaiPay.' }}`;

/** Whether the policy asks a second approver of this sheet (Check's summary). */
export const SECOND_NEEDED = "={{ $('Check').first().json.approvalsRequired > 1 }}";

/**
 * The approvals Pay is given: each page's n8n user and when, for the fingerprint the pages showed. The node counts
 * them against the policy (distinct people, neither the uploader), so the second page's If checks only the list.
 */
export const APPROVALS = `={{ [$('Approve').first().json].concat($('${SECOND_NODE}').isExecuted ? [$('${SECOND_NODE}').first().json] : []).map((page) => ({ userId: page.user?.id ?? '', fingerprint: $('Check').first().json.fingerprint, approvedAt: page.submittedAt })) }}`;
export const UPLOADED_BY = "={{ $('Upload the sheet').first().json.user?.id ?? '' }}";

/** The second approver's columns of every results row (empty where one approver sufficed). */
export const SECOND_FIELDS: Array<[string, string, string?]> = [
	[
		'secondApprovedBy',
		textCell(`$('${SECOND_NODE}').isExecuted ? ${PERSON}($('${SECOND_NODE}').first().json.user) : ''`),
	],
	['secondApprovedAt', textCell(`$('${SECOND_NODE}').isExecuted ? $('${SECOND_NODE}').first().json.submittedAt : ''`)],
];

/**
 * JavaScript for the approval pages, after the summary is read into `s` (with `esc` and `group`): `balances`, first
 * on the page in large type, each currency short of balance and each whose balance is unknown; `approvers`, beside
 * the approval itself, how many approvers the policy asks and why.
 */
export const CONTROLS = [
	'const lineOf = (c) => s.currencies.find((line) => line.currency === c) ?? {};',
	"const short = (s.shortCurrencies ?? []).map((c) => { const l = lineOf(c); return '<h2 class=\"short\">Not enough balance in ' + esc(c) + ': short ' + group(l.shortfall) + '</h2><p><strong>To pay ' + group(l.total) + ' ' + esc(c) + '; HaiPay\\'s available balance is ' + group(l.availableBal) + ' ' + esc(c) + '. Fund the account before approving, or HaiPay may refuse or hold these payouts.</strong></p>'; }).join('');",
	"const unknown = (s.balanceUnknownCurrencies ?? []).map((c) => '<h2 class=\"unknown\">Balance of ' + esc(c) + ' unknown</h2><p><strong>It could not be read or proven (' + esc(lineOf(c).balanceWhy) + '): it is not shown as enough.</strong></p>').join('');",
	"const approvers = s.approvalsRequired === 2 ? '<p class=\"approvers\"><strong>This sheet needs two approvers, neither the uploader:</strong> ' + esc(s.approvalWhy) + '.</p>' : s.approvalsRequired === 1 ? '<p class=\"approvers\">One approver suffices: ' + esc(s.approvalWhy) + '.</p>' : '';",
	'const balances = short + unknown;',
].join(' ');

/** The second page's note: who approved first, and that only another approver, not the uploader, completes it. */
export const SECOND_NOTE = [
	`={{ (() => { const esc = (value) => String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);`,
	`return '<p>First approved by <strong>' + esc(${PERSON}($('Approve').first().json.user)) + '</strong> at ' + esc($('Approve').first().json.submittedAt) + '. The policy asks a second approver: another person than the first and than the uploader, <strong>' + esc(${PERSON}($('Upload the sheet').first().json.user)) + '</strong>; any other approval pays nothing.</p>'`,
	"+ '<p>Send the second approver <a href=\"' + esc($execution.resumeFormUrl) + '\">this page\\'s address</a> (copy the link).</p>'; })() }}",
].join(' ');
