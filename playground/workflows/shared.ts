import { N8N_PORT } from '../lib/paths';

/** What the example workflows share: their ids, the folder they read and write, where HaiPay posts their results. */

export const WORKFLOW_IDS = {
	bulkPayouts: 'haipayExBulkPays',
	callbacks: 'haipayExCallback',
	reconciliation: 'haipayExReconcil',
	mitCollection: 'haipayExMitCharg',
	exactlyOnce: 'haipayExOnceOnly',
	reconciliationReport: 'haipayExReconRep',
	payrollBatches: 'haipayExPayBatch',
} as const;

/** The example workflows read and write below this folder, relative to the folder n8n runs in. */
export const FILES = 'haipay';

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
