import { WorkflowBuilder, type NodeSpec, type WorkflowFile } from '../../dev/workflow-builder';
import { condition, conditions, ifNode, manualTrigger, stickyNote } from '../lib/base-nodes';
import { credentialOf, haiPayTrigger } from '../lib/haipay-nodes';
import { WORKFLOW_IDS } from './shared';

/**
 * Example 5, exactly-once business steps across webhook processors: each result's dedupKey claimed in PostgreSQL,
 * and the business step run only for the claim that made the row.
 */

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

/** Where the exactly-once example's trigger listens; its own URL, beside the callbacks example's triggers. */
export const EXACTLY_ONCE_WEBHOOK_ID = 'haipay-exactly-once-tzs';

/** The business step's URL in the example: a placeholder for the merchant's own system. */
export const BUSINESS_STEP_URL = 'https://erp.example.com/haipay/payment-result';

export function exactlyOnce(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.exactlyOnce);
	about(b);
	setUp(b);
	const first = claim(b);
	businessStep(b, first);
	const repeat = b.add({
		name: 'Already claimed',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [460, 220],
		parameters: {},
	});
	b.connect(first, repeat, 1);
	return b.file(
		'HaiPay example: exactly-once callbacks',
		"Claims each result's dedupKey in PostgreSQL and runs the business step only for the first claim, whichever webhook processor took it.",
	);
}

function about(b: WorkflowBuilder): void {
	b.add(
		stickyNote(
			'About',
			[
				'## Exactly once, across webhook processors',
				"HaiPay resends a result until it reads `SUCCESS`, and with several webhook processors (queue mode) two deliveries can run at the same moment. The trigger's repeat memory drops later repeats; **Claim** makes the business step run once per result whatever arrives together: it inserts the item's `dedupKey` into a table whose primary key it is, and only the insert that made the row gets it back.",
				'',
				'1. Give **Create table** and **Claim** a Postgres credential (any PostgreSQL the workers reach; the queue-mode playground has one). Run **Set up** once.',
				'2. Replace **Business step** with yours (mark the invoice paid, notify the payee). Send `dedupKey` along if your system can refuse a repeat too.',
				"3. Activate, and use the trigger's **Production URL** as `notifyUrl`. One trigger per App ID: add others and connect them to **Claim**.",
				'',
				"A claim whose business step failed keeps `done_at` empty: `SELECT * FROM haipay_callbacks WHERE done_at IS NULL AND claimed_at < now() - interval '15 minutes'` lists them. Settle each by hand, or delete its row and retry the execution.",
			].join('\n'),
			[-260, -620],
			660,
			400,
		),
	);
}

function postgres(name: string, query: string, position: [number, number], replacement?: string): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.postgres',
		typeVersion: 2.6,
		position,
		parameters: {
			operation: 'executeQuery',
			query,
			options: replacement === undefined ? {} : { queryReplacement: replacement },
		},
		credentials: { postgres: { ...POSTGRES_CREDENTIAL } },
	};
}

/** Set up → Create table: run once, by hand. */
function setUp(b: WorkflowBuilder): void {
	const setup = b.add(manualTrigger([-200, -120], 'Set up'));
	const table = b.add(postgres('Create table', EXACTLY_ONCE_TABLE_SQL, [20, -120]));
	b.connect(setup, table);
}

/** TZS results → Claim → First claim?: the result's row inserted, and whether this insert made it. */
function claim(b: WorkflowBuilder): string {
	const trigger = b.add(
		haiPayTrigger('TZS results', EXACTLY_ONCE_WEBHOOK_ID, { options: {} }, credentialOf('TZS'), [-200, 120]),
	);
	const claimed = b.add(
		postgres(
			'Claim',
			CLAIM_SQL,
			[20, 120],
			"={{ [ $json.dedupKey, String($json.appId ?? ''), String($json.orderId ?? ''), String($json.orderNo ?? ''), String($json.status ?? ''), String($json.amount ?? '') ] }}",
		),
	);
	b.connect(trigger, claimed);
	// A claim that inserted nothing still gives one item ({ success: true }): the row's dedup_key tells them apart.
	const first = b.add(
		ifNode('First claim?', conditions([condition('={{ $json.dedup_key }}', 'exists', '')]), [240, 120]),
	);
	b.connect(claimed, first);
	return first;
}

/** First claim? yes → Business step → Mark done: the merchant's step, then the claim marked done. */
function businessStep(b: WorkflowBuilder, first: string): void {
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
	b.connect(first, step, 0);
	b.connect(step, done);
}
