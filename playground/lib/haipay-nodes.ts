import type { NodeSpec, Parameters, WorkflowNode } from '../../dev/workflow-builder';
import { PAYOUTS_CREDENTIAL as SANDBOX_PAYOUTS_CREDENTIAL } from '../../sandbox/credentials';
import { row } from './base-nodes';

/** The HaiPay nodes of the example workflows, with the credentials the playground's sandbox writes. */

const HAIPAY = 'n8n-nodes-haipay.haiPay';
const HAIPAY_TRIGGER = 'n8n-nodes-haipay.haiPayTrigger';

/** The sandbox's default App IDs; `npm run sandbox` and the playground make one credential per App ID. */
export const SANDBOX_APP_IDS: Record<string, number> = {
	TZS: 1001,
	ZAR: 1002,
	NGN: 1003,
	EGP: 1004,
	BDT: 1005,
	USD: 1006,
};

export function credentialOf(currency: string): Record<string, { id: string; name: string }> {
	return { haiPayApi: { id: `hpsandbox${SANDBOX_APP_IDS[currency]}`, name: `HaiPay Sandbox ${currency}` } };
}

/**
 * The playground's credential with an App ID per payout currency (TZS first, then ZAR, NGN, EGP and BDT under Other
 * Currencies), as the sandbox's CLI writes it: one HaiPay node pays a mixed sheet, one trigger takes its callbacks.
 */
export const PAYOUTS_CREDENTIAL = { haiPayApi: { ...SANDBOX_PAYOUTS_CREDENTIAL } };

/** A HaiPay node with the sandbox credential of `currency`, or the payouts credential for `'payouts'`. */
export function haiPay(
	name: string,
	currency: string,
	parameters: Parameters,
	position: [number, number],
	extra: Partial<NodeSpec> = {},
): NodeSpec {
	return {
		name,
		type: HAIPAY,
		typeVersion: 1,
		position,
		parameters,
		credentials: currency === 'payouts' ? PAYOUTS_CREDENTIAL : credentialOf(currency),
		...extra,
	};
}

/** A HaiPay Trigger listening at `/webhook/<webhookId>/webhook`, checking callbacks with `credentials`. */
export function haiPayTrigger(
	name: string,
	webhookId: string,
	parameters: Parameters,
	credentials: WorkflowNode['credentials'],
	position: [number, number],
): NodeSpec {
	return { name, type: HAIPAY_TRIGGER, typeVersion: 1.1, position, webhookId, parameters, credentials };
}

/**
 * Payout → Create (or Check) for a sheet of mixed currencies: the currency from each row, every field from the row's
 * column of the same name, the payouts credential.
 */
export function mixedPayoutParameters(operation: 'create' | 'check'): Parameters {
	return {
		resource: 'payout',
		operation,
		currency: row('currency'),
		fieldsFrom: 'input',
		options: operation === 'create' ? { concurrency: 4 } : {},
	};
}
