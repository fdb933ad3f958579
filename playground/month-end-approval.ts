import { textCell } from './lib/cells';
import { CONTROLLER, OWNER, TREASURER } from './lib/n8n';
import { SUMMARY_NODE } from './month-end-pages';
import { SECOND_NODE } from './month-end-policy';

/**
 * Maker-checker for example 6. Who uploads and who approves are n8n users: the upload form asks n8n to sign the
 * person in (Form Trigger, Authentication "n8n User Auth") and n8n writes the signed-in user into the trigger's
 * output and into the output of every page submitted after it, each page by whoever submitted it. The workflow then
 * refuses an approval unless the approver is someone other than the uploader and is on the approver list below;
 * every results row names the approver, the time, the totals approved and the run.
 */

export const UPLOAD_NODE = 'Upload the sheet';
export const APPROVE_NODE = 'Approve';

/**
 * The n8n logins (emails) that may approve month-end payouts. Edit the list in the "Approver allowed?" node; an
 * uploader on the list still cannot approve their own sheet. The playground's owner and its controller are on it.
 */
export const MONTH_END_APPROVERS: readonly string[] = [CONTROLLER.email, TREASURER.email, OWNER.email];

const UPLOADER = `$('${UPLOAD_NODE}').first().json.user`;
const APPROVER = `$('${APPROVE_NODE}').first().json.user`;
const LIST = JSON.stringify(MONTH_END_APPROVERS);

/** "First Last (email)" of the user n8n's form names; not <email>, which n8n's ending page drops as a tag. */
const PERSON =
	"((u) => u && u.email ? ((String(u.firstName ?? '') + ' ' + String(u.lastName ?? '')).trim() + ' (' + u.email + ')').trim() : '')";

/**
 * The checks of "Approver allowed?", both true or the approval is refused: a signed-in approver who is not the
 * uploader (compared by n8n's user id, so that a changed display name or email case changes nothing), and whose
 * email is on the list. A run without the users (authentication turned off) fails both, never passes.
 */
export const SIGNED_IN_AND_NOT_UPLOADER = `={{ Boolean(${APPROVER}?.id) && Boolean(${UPLOADER}?.id) && ${APPROVER}.id !== ${UPLOADER}.id }}`;
export const ON_APPROVER_LIST = `={{ ${LIST}.includes(String(${APPROVER}?.email ?? '').trim().toLowerCase()) }}`;

/** The refusal page's message: why this approval does not count, and that nothing was paid. */
export const REFUSED_MESSAGE = [
	`={{ (() => { const approver = ${APPROVER}; const uploader = ${UPLOADER};`,
	"const who = approver?.email ?? 'a person not signed in to n8n';",
	'const reason = approver?.id && approver.id === uploader?.id',
	"? who + ' uploaded this sheet; the uploader cannot approve it.'",
	`: who + ' is not on the list of month-end approvers (' + ${LIST}.join(', ') + ').';`,
	"return reason + ' Nothing was paid. Upload the sheet again and send the approval page to an approver.'; })() }}",
].join(' ');

/** The approval page's note: who uploaded, who may approve, and the address to send them. */
export const APPROVAL_NOTE = [
	`={{ (() => { const esc = (value) => String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);`,
	`return '<p>Uploaded by <strong>' + esc(${PERSON}(${UPLOADER})) + '</strong>. Only an approver other than the uploader can approve ('`,
	`+ esc(${LIST}.join(', ')) + '); an approval by anyone else is refused and pays nothing.</p>'`,
	// The address is the link's target, not its text: its signature would overflow the page.
	"+ '<p>Send an approver <a href=\"' + esc($execution.resumeFormUrl) + '\">this page\\'s address</a> (copy the link); they open it signed in to n8n as themselves.</p>'; })() }}",
].join(' ');

const ROW_CURRENCY = "String($('Approved rows').item.json.currency ?? '').trim().toUpperCase()";
const APPROVED_LINE = `(${`$('${SUMMARY_NODE}').first().json`}.currencies.find((line) => line.currency === ${ROW_CURRENCY}) ?? {})`;

/**
 * The approval columns of every results row, so that the approval travels with the file it paid: n8n's Convert to
 * File writes one sheet, and a row of its own would be read as an order by whatever reads the file next (example 8).
 * `approvedRows`/`approvedTotal` are those of the row's currency as the approver saw them (exact decimal text).
 */
export const APPROVAL_FIELDS: Array<[string, string, string?]> = [
	['approvedBy', textCell(`${PERSON}(${APPROVER})`)],
	['approvedAt', textCell(`$('${APPROVE_NODE}').first().json.submittedAt`)],
	['uploadedBy', textCell(`${PERSON}(${UPLOADER})`)],
	['executionId', textCell('$execution.id')],
	['approvedRows', `={{ ${APPROVED_LINE}.rows ?? null }}`, 'number'],
	['approvedTotal', textCell(`${APPROVED_LINE}.total`)],
	['fingerprint', textCell(`$('${SUMMARY_NODE}').first().json.fingerprint`)],
];

/** The last page's line naming the approval, for the message of the results page. */
export const APPROVAL_LINE = `'Approved by ' + ${PERSON}(${APPROVER}) + ' at ' + $('${APPROVE_NODE}').first().json.submittedAt + ($('${SECOND_NODE}').isExecuted ? ' and by ' + ${PERSON}($('${SECOND_NODE}').first().json.user) + ' at ' + $('${SECOND_NODE}').first().json.submittedAt : '') + ', execution ' + $execution.id + '. '`;

/** Whether the second page's approver is on the list; that they are neither the uploader nor the first is the node's rule. */
export const SECOND_ON_LIST = `={{ ${LIST}.includes(String($('${SECOND_NODE}').first().json.user?.email ?? '').trim().toLowerCase()) }}`;
