import type { INodeProperties } from 'n8n-workflow';

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_REQUESTS_PER_SECOND = 0;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_READ_RETRIES = 2;
export const DEFAULT_RESOLVE_WITHIN_SECONDS = 60;
export const DEFAULT_NOT_FOUND_AFTER_SECONDS = 30;
export const DEFAULT_LOOK_UP_WITHIN_SECONDS = 60;

/*
 * Run-wide settings: how fast and how politely a run talks to the gateway. Creates and reads each have their own
 * Options collection, because n8n drops a collection entry whose display condition names a parameter outside
 * the collection (such as `operation`): a create-only option must live in a collection shown only for creates.
 */

const concurrency: INodeProperties = {
	displayName: 'Concurrent Requests',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 64 },
	default: DEFAULT_CONCURRENCY,
	description:
		'How many items are in flight at once, for each App ID (each currency) of the run. Output order always follows input order.',
};

const requestsPerSecond: INodeProperties = {
	displayName: 'Requests per Second',
	name: 'requestsPerSecond',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: DEFAULT_REQUESTS_PER_SECOND,
	description:
		'Spaces requests evenly to stay under a rate limit, for each App ID (each currency) of the run. 0 sends as fast as the concurrency allows.',
};

const extraFields: INodeProperties = {
	displayName: 'Extra Fields (JSON)',
	name: 'extraFields',
	type: 'json',
	default: '{}',
	description:
		'Gateway fields this node does not list yet, as a JSON object of text or number values. They are checked, signed and sent as given. A name that reads as a field of the operation (amount, a_mount, AMOUNT …) is refused, and so is a number JSON cannot carry exactly: write it as a string. TZS payouts accept no extra fields.',
};

function readRetries(description: string): INodeProperties {
	return {
		displayName: 'Retries for Reads',
		name: 'retries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10 },
		default: DEFAULT_READ_RETRIES,
		description,
	};
}

function timeout(description: string): INodeProperties {
	return {
		displayName: 'Timeout (Ms)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1000 },
		default: DEFAULT_TIMEOUT_MS,
		description,
	};
}

/** One policy, the same text in Payout → Check and Payout → Create (approval/policy.ts reads it). */
const approvalPolicy: INodeProperties = {
	displayName: 'Approval Policy (JSON)',
	name: 'approvalPolicy',
	type: 'json',
	default: '{"*": {"oneApproverUpToTotal": "0", "oneApproverUpToRow": "0"}}',
	description:
		'Per currency, up to which total and up to which single row one approver suffices; above either, two distinct approvers, neither the uploader. E.g. {"ZAR": {"oneApproverUpToTotal": "10000.00", "oneApproverUpToRow": "2500.00"}, "*": {...}}; "*" is every currency not named, and a currency in neither needs two. Amounts are exact decimals in the currency\'s places. "approvalsValidForHours": 72 beside the currencies makes an approval count only for 72 hours after its approvedAt. Payout → Check puts approvalsRequired and why on its summary; Payout → Create sends nothing unless its Approvals meet it.',
};

/**
 * Only Payout → Create holds a run to the approval policy (approval/approvals.ts): another create's rows are no
 * payout, so its Options lack these. A value saved where one is hidden is dropped by n8n as the workflow loads.
 */
const ON_PAYOUTS = { show: { '/resource': ['payout'] } };

const approvals: INodeProperties = {
	displayName: 'Approvals (JSON)',
	name: 'approvals',
	type: 'json',
	default: '[]',
	description:
		'Who approved these rows, however the approval was collected (an n8n Form, Wait, Slack or email send-and-wait): a list of {"userId": the approver\'s n8n user ID, "fingerprint": the fingerprint Payout → Check gave and they approved, "approvedAt": when, ISO 8601 with its zone (needed when the policy sets approvalsValidForHours)}. An approval counts once per person, only for rows with that fingerprint, never from Uploaded By. Fewer than the Approval Policy asks (one without a policy): nothing is sent and every row comes out "invalid" with rule approvalPolicy.',
	displayOptions: ON_PAYOUTS,
};

const uploadedBy: INodeProperties = {
	displayName: 'Uploaded By (User ID)',
	name: 'uploadedBy',
	type: 'string',
	default: '',
	description:
		"The n8n user ID of who submitted the rows (as the upload form's output names its user), whose approval never counts. Needed with an Approval Policy; a fixed text such as 'schedule' where no person started the run.",
	displayOptions: ON_PAYOUTS,
};

/** The Options of the operations that send once (`operations`, by name: every create, refund and change). */
export const createOptions = (operations: string[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { show: { operation: operations } },
	options: [
		{
			displayName: 'Allow Use by AI Agents',
			name: 'allowAgents',
			type: 'boolean',
			default: false,
			description:
				"Whether an AI agent that calls this node as a tool may create payouts and collections. Off, such a call is refused and nothing is sent; reads work either way. Set it as a fixed switch: an expression here is refused when an agent calls. Put n8n's human approval in front of the tool before switching it on.",
		},
		{ ...approvalPolicy, displayOptions: ON_PAYOUTS },
		approvals,
		{
			displayName: 'Approved Fingerprint',
			name: 'approvedFingerprint',
			type: 'string',
			default: '',
			placeholder: "={{ $('Check').first().json.fingerprint }}",
			description:
				'The fingerprint Payout → Check (Output: Approval Summary) gave for the rows that were approved. Before anything is sent, the rows of this run are fingerprinted the same way (currency, App ID and every field sent); when they differ (a row added, removed, or another amount, currency or payee) no row is sent and every row comes out "invalid" with field approvedFingerprint. Added but empty, nothing is sent either.',
		},
		concurrency,
		extraFields,
		{
			displayName: 'Not Found After (Seconds)',
			name: 'notFoundAfter',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3600 },
			default: DEFAULT_NOT_FOUND_AFTER_SECONDS,
			description:
				'While resolving, HaiPay\'s signed "no such order" counts only from a query sent at least this long after the create\'s request ended, since a create still on its way may land later. Keep it below Resolve Within.',
		},
		requestsPerSecond,
		{
			displayName: 'Resolve Unknown Outcomes',
			name: 'resolveUnknown',
			type: 'boolean',
			default: true,
			description:
				"Whether to query each item whose outcome is unknown (a time-out, a 5xx, an unreadable answer) or refused (HaiPay does not sign refusals) after the sends, and report what HaiPay's signed answers prove: accepted, duplicate, not_found (safe to send again with the same orderId), rejected, or still unknown; a duplicate gets the existing order's orderNo and status. Nothing is ever sent twice.",
		},
		{
			displayName: 'Resolve Within (Seconds)',
			name: 'resolveWithin',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3600 },
			default: DEFAULT_RESOLVE_WITHIN_SECONDS,
			description: 'How long to keep querying unknown outcomes, with backoff, before reporting them as still unknown',
		},
		timeout(
			'A deadline for each request, its whole answer included. A create that misses it has an unknown outcome, which is then queried when "Resolve Unknown Outcomes" is on.',
		),
		uploadedBy,
	],
});

/** The Options of every other operation: the reads (`others`, by name, are the sent-once ones and the check). */
export const readOptions = (others: string[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { hide: { operation: others } },
	options: [
		concurrency,
		requestsPerSecond,
		readRetries(
			'Extra attempts after a time-out, a 5xx or an unreadable answer, with backoff. Creates are never retried.',
		),
		timeout('A deadline for each request, its whole answer included'),
	],
});

/**
 * A check sends no payout: of the create's options only what changes the request, which the check runs through, and
 * how its order queries are asked when it looks up the orders HaiPay already has (reads only, off by default, so that
 * a saved check sends nothing, in every node version).
 */
export const checkOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { show: { operation: ['check'] } },
	options: [
		{
			...approvalPolicy,
			description: `${approvalPolicy.description} With Output One Item per Row, every row carries the run's approvalsRequired and approvalWhy.`,
		},
		{
			displayName: 'Check Balance',
			name: 'checkBalance',
			type: 'boolean',
			default: false,
			description:
				"Whether to read HaiPay's signed balance of every currency with a row to pay (Output Approval Summary): each currency line gets availableBal, the shortfall and balance enough, short or unknown. A balance that is not signed by HaiPay, cannot be read or is not a decimal is unknown, never enough. Only balance queries are sent; with One Item per Row the check stops, naming this option.",
		},
		{
			...concurrency,
			description: 'With Look Up Existing Orders: how many order queries are in flight at once, for the whole check',
		},
		extraFields,
		{
			displayName: 'Look Up Existing Orders',
			name: 'lookUpExisting',
			type: 'boolean',
			default: false,
			description:
				'Whether to ask HaiPay\'s signed order query, for each valid row, whether it already has an order with the row\'s orderId. A row it has is listed apart and left out of the totals to pay; a row its query cannot answer for certain (a failure, a time-out, an answer that is not signed or not about the row, a currency whose query publishes no "no such order") is counted to pay and listed as not checked. Only queries are sent, never a payout.',
		},
		{
			displayName: 'Look Up Within (Seconds)',
			name: 'lookUpWithin',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3600 },
			default: DEFAULT_LOOK_UP_WITHIN_SECONDS,
			description:
				'With Look Up Existing Orders: how long all the queries together may take, retries included. A row not asked by then is listed as not checked.',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'One Item per Row',
					value: 'rows',
					description: 'Each row with outcome valid or invalid, its fields, and amountValue',
				},
				{
					name: 'Approval Summary',
					value: 'summary',
					description:
						'One item: per currency the valid rows and their exact decimal total, every invalid row with its field and reason, and the fingerprint of the rows to pay',
				},
			],
			default: 'rows',
			description: 'What the check outputs',
		},
		readRetries(
			'With Look Up Existing Orders: extra attempts of an order query after a time-out, a 5xx or an unreadable answer, with backoff, within Look Up Within',
		),
		timeout('With Look Up Existing Orders: a deadline for each order query, its whole answer included'),
	],
};
