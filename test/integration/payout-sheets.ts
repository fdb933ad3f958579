import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { APP_IDS, PAYOUTS, type PayoutCurrency } from '../fixtures/bodies';
import { multiCurrencyCredential } from '../helpers/credentials';
import type { RunResult } from '../harness';
import { runNode, uniqueOrderId } from './helpers';

/**
 * What the month-end and approval test files share: a sheet's payout rows, Payout → Check or → Create over them
 * with the currency and every field from each row (as example 6 runs it), and what reached the sandbox for them.
 */

/** A valid payout row of `currency` with an orderId of its own (`prefix` names the test file in the sandbox's log). */
export function sheetRow(prefix: string, currency: PayoutCurrency, overrides: IDataObject = {}): IDataObject {
	return { currency, orderId: uniqueOrderId(`${prefix}-${currency}`), ...PAYOUTS[currency], ...overrides };
}

/** The node's parameters; a create gives up on an order HaiPay does not show after one query. */
export function sheetParameters(operation: 'check' | 'create', options: IDataObject = {}): INodeParameters {
	return {
		resource: 'payout',
		operation,
		currency: '={{ $json.currency }}',
		fieldsFrom: 'input',
		options: (operation === 'create' ? { notFoundAfter: 1, ...options } : options) as INodeParameters,
	};
}

export interface SheetRun {
	/** The App IDs the credential holds. */
	currencies: ReadonlyArray<keyof typeof APP_IDS>;
	/** Another address for the gateway (a fault proxy); the sandbox's by default. */
	baseUrl?: string;
	/** Credential members over the multi-currency one's. */
	credential?: ICredentialDataDecryptedObject;
	/** n8n node settings (onError, ...). */
	settings?: Record<string, unknown>;
}

/** Payout → Check or → Create over `items` in a real n8n-core execution against the sandbox. */
export async function runSheet(
	sandbox: Sandbox,
	operation: 'check' | 'create',
	items: IDataObject[],
	options: IDataObject,
	run: SheetRun,
): Promise<RunResult> {
	return await runNode(sandbox, {
		parameters: sheetParameters(operation, options),
		items,
		credential: { ...multiCurrencyCredential(run.baseUrl ?? sandbox.baseUrl, run.currencies), ...run.credential },
		...(run.settings === undefined ? {} : { settings: run.settings }),
	});
}

/** The requests the sandbox received for these rows' orderIds. */
export function requestsFor(sandbox: Sandbox, items: IDataObject[]): number {
	const ids = new Set(items.map((item) => item.orderId));
	return sandbox.requests.filter((request) => ids.has((request.body as IDataObject | undefined)?.orderId)).length;
}
