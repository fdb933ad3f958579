import { WorkflowBuilder, type NodeSpec, type Parameters, type WorkflowBody } from '../dev/workflow-builder';
import { credentialOf } from '../playground/examples';
import { PAYOUTS_CREDENTIAL } from '../sandbox/credentials';
import { defaultSecret } from '../sandbox';
import { APP_IDS, PAYOUTS } from '../test/fixtures/bodies';

/**
 * The benchmark's workflows. Each bulk workflow starts with a Webhook that answers when the run has finished and
 * makes its rows with the same Code node, so the HaiPay node and the do-it-yourself baseline pay the same fixed
 * costs and differ only in how the rows are signed and sent.
 */

/** Answers the caller once the last node has finished; the figures are read from the sandbox and n8n. */
function webhook(b: WorkflowBuilder, path: string): string {
	return b.add({
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		webhookId: path,
		parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'noData', options: {} },
	});
}

function code(b: WorkflowBuilder, name: string, jsCode: string): string {
	return b.add({
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { mode: 'runOnceForAllItems', language: 'javaScript', jsCode },
	});
}

/**
 * `?rows=N&tag=T`: N valid payout rows, TZS and NGN alternating, with orderIds `T-0` ... unique per run. Both
 * currencies carry phone, email and partnerUserId, so both sides sign and send the same fields.
 */
export const ROWS_CODE = `const { rows, tag } = $input.first().json.query;
const TZS = ${JSON.stringify({ currency: 'TZS', ...PAYOUTS.TZS, amount: '1000' })};
const NGN = ${JSON.stringify({ currency: 'NGN', ...PAYOUTS.NGN })};
const out = [];
for (let i = 0; i < Number(rows); i++) {
  const common = { orderId: tag + '-' + i, email: 'payee' + i + '@example.com', partnerUserId: 'emp-' + i };
  out.push({ json: { ...(i % 2 === 0 ? TZS : NGN), ...common } });
}
return out;`;

const field = (name: string) => `={{ $json.${name} }}`;

/** Adds the nodes that make a bulk workflow's rows after `from` and returns the last: by default the Rows Code node. */
export type RowsMaker = (b: WorkflowBuilder, from: string) => string;

const codeRows: RowsMaker = (b, from) => {
	const rows = code(b, 'Rows', ROWS_CODE);
	b.connect(from, rows);
	return rows;
};

/** `fields`: one `{{ $json.field }}` expression per field (the default), or the input item's fields by name. */
export type FieldsFrom = 'parameters' | 'input';

function haiPayNode(
	b: WorkflowBuilder,
	currency: 'TZS' | 'NGN',
	concurrency: number | undefined,
	fieldsFrom: FieldsFrom,
): string {
	const fields = ['orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name'];
	const contact = ['phone', 'email', 'partnerUserId'];
	const parameters: Parameters = { resource: 'payout', operation: 'create', currency };
	if (fieldsFrom === 'input') parameters.fieldsFrom = 'input';
	else {
		Object.assign(parameters, Object.fromEntries(fields.map((f) => [f, field(f)])));
		// For TZS the contact fields are required fields of the panel; for NGN they are optional ones.
		if (currency === 'TZS') Object.assign(parameters, Object.fromEntries(contact.map((f) => [f, field(f)])));
		else parameters.additionalFields = Object.fromEntries(contact.map((f) => [f, field(f)]));
	}
	parameters.options = concurrency === undefined ? {} : { concurrency };
	return b.add({
		name: `Pay ${currency}`,
		type: 'n8n-nodes-haipay.haiPay',
		typeVersion: 1,
		parameters,
		credentials: credentialOf(currency),
	});
}

/**
 * Rows → one HaiPay node for every currency: the currency and every field from each row, signed with the App ID the
 * sandbox's payouts credential holds for the row's currency.
 */
export function mixedHaiPayWorkflow(path: string, concurrency: number, makeRows = codeRows): WorkflowBody {
	const b = new WorkflowBuilder(`bench-haipay-${path}`);
	const rows = makeRows(b, webhook(b, path));
	const pay = b.add({
		name: 'Pay',
		type: 'n8n-nodes-haipay.haiPay',
		typeVersion: 1,
		parameters: {
			resource: 'payout',
			operation: 'create',
			currency: field('currency'),
			fieldsFrom: 'input',
			options: { concurrency },
		},
		credentials: { haiPayApi: { ...PAYOUTS_CREDENTIAL } },
	});
	b.connect(rows, pay);
	return b.body(
		`bench: one HaiPay node for every currency, concurrency ${concurrency}, currency and fields from each row`,
	);
}

/** Rows → IF TZS → one HaiPay node per currency, each with its fields as expressions. */
export function haiPayWorkflow(
	path: string,
	concurrency: number | undefined,
	fieldsFrom: FieldsFrom = 'parameters',
): WorkflowBody {
	const b = new WorkflowBuilder(`bench-haipay-${path}`);
	const hook = webhook(b, path);
	const rows = code(b, 'Rows', ROWS_CODE);
	const split = b.add({
		name: 'TZS?',
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
		parameters: {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
				conditions: [
					{
						id: 'currency-is-tzs',
						leftValue: '={{ $json.currency }}',
						rightValue: 'TZS',
						operator: { type: 'string', operation: 'equals' },
					},
				],
				combinator: 'and',
			},
			options: {},
		},
	});
	const tzs = haiPayNode(b, 'TZS', concurrency, fieldsFrom);
	const ngn = haiPayNode(b, 'NGN', concurrency, fieldsFrom);
	b.connect(hook, rows);
	b.connect(rows, split);
	b.connect(split, tzs, 0);
	b.connect(split, ngn, 1);
	return b.body(`bench: HaiPay node, concurrency ${concurrency ?? 'default'}, fields from ${fieldsFrom}`);
}

/**
 * What a merchant writes from the signing rules without this package: sign in a Code node with crypto, post
 * with the HTTP Request node. The key is parsed once per run, the best a hand-written node does.
 */
export function signingCode(baseUrl: string, privateKeys: Partial<Record<keyof typeof APP_IDS, string>>): string {
	const merchants = Object.fromEntries(
		(Object.keys(privateKeys) as Array<keyof typeof APP_IDS>).map((currency) => [
			currency,
			{
				appId: APP_IDS[currency],
				secret: defaultSecret(currency),
				path: `/${currency.toLowerCase()}/pay/apply`,
				key: privateKeys[currency],
			},
		]),
	);
	return `const crypto = require('crypto');
const BASE_URL = ${JSON.stringify(baseUrl)};
const MERCHANTS = ${JSON.stringify(merchants, null, 2)};
const keys = {};
for (const [currency, m] of Object.entries(MERCHANTS)) keys[currency] = crypto.createPrivateKey(m.key);

// HaiPay: every field but sign, empty ones left out, keys in byte order, key=value joined by &, then &key=<secret>.
function sign(body, secret, key) {
  const text = Object.keys(body)
    .filter((k) => k !== 'sign' && body[k] !== null && body[k] !== undefined && body[k] !== '')
    .sort()
    .map((k) => k + '=' + body[k])
    .join('&') + '&key=' + secret;
  return crypto.sign('sha256', Buffer.from(text, 'utf8'), key).toString('base64');
}

return $input.all().map((item) => {
  const { currency, ...row } = item.json;
  const m = MERCHANTS[currency];
  const body = { appId: m.appId, ...row };
  body.sign = sign(body, m.secret, keys[currency]);
  return { json: { url: BASE_URL + m.path, body } };
});`;
}

/** Batching: `batchSize` requests started every `batchInterval` ms; none (the default) starts every item at once. */
export function baselineWorkflow(
	path: string,
	signCode: string,
	batching: { batchSize: number; batchInterval: number } | undefined,
	makeRows = codeRows,
): WorkflowBody {
	const b = new WorkflowBuilder(`bench-baseline-${path}`);
	const rows = makeRows(b, webhook(b, path));
	const signNode = code(b, 'Sign', signCode);
	const post = b.add({
		name: 'Post',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: '={{ $json.url }}',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify($json.body) }}',
			options: batching ? { batching: { batch: batching } } : {},
		},
	});
	b.connect(rows, signNode);
	b.connect(signNode, post);
	return b.body(
		`bench: Code + HTTP Request, ${batching ? `batches of ${batching.batchSize} every ${batching.batchInterval} ms` : 'no batching'}`,
	);
}

export const CALLBACK_WEBHOOK_ID = 'bench-callbacks';

/** A workflow of one trigger node: every accepted callback starts one execution. */
export function oneNode(name: string, node: NodeSpec): WorkflowBody {
	const b = new WorkflowBuilder(name);
	b.add(node);
	return b.body(name);
}

/** The HaiPay Trigger alone, with its defaults, on the TZS App ID. */
export function triggerWorkflow(): WorkflowBody {
	return oneNode('bench: HaiPay Trigger', {
		name: 'HaiPay Trigger',
		type: 'n8n-nodes-haipay.haiPayTrigger',
		typeVersion: 1.1,
		webhookId: CALLBACK_WEBHOOK_ID,
		parameters: { options: {} },
		credentials: credentialOf('TZS'),
	});
}

export const PLAIN_WEBHOOK_PATH = 'bench-plain-callbacks';

/**
 * The reference for the callback figures: n8n's own Webhook node answering SUCCESS on receipt, with no signature
 * check and no deduplication. What n8n costs per callback before any HaiPay work.
 */
export function plainWebhookWorkflow(): WorkflowBody {
	return oneNode("bench: n8n's Webhook node alone", {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		webhookId: PLAIN_WEBHOOK_PATH,
		parameters: {
			httpMethod: 'POST',
			path: PLAIN_WEBHOOK_PATH,
			responseMode: 'onReceived',
			options: { responseData: 'SUCCESS' },
		},
	});
}
