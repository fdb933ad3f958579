import type { ICredentialsDecrypted, INodeExecutionData } from 'n8n-workflow';

import type { OrderKind } from '../../shared/contract/statuses';
import type { LookupResult } from '../../shared/gateway/lookup';
import { ItemFailure } from '../../shared/gateway/outcome';
import type { GatewayContext } from '../../shared/gateway/request';
import type { HaiPaySettings } from '../../shared/signing/credential';
import { existingOrder, queryOrders } from './orderQueries';
import type { RunOptions } from './runOptions';
import type { Operation, Prepared } from './types';

/**
 * A `duplicate` (HaiPay refused the create because it already has an order with this orderId) names the order that
 * stands in its place: one signed order query per such item, bounded like Resolve Unknown Outcomes (its concurrency,
 * its time), and the item's outcome stays `duplicate` whatever the query says. A results file then carries the
 * existing order's orderNo and status, so a second upload of a paid sheet still reconciles.
 */

/** What the runner holds per item; structural, so that this module needs nothing of the runner's own. */
interface DuplicateRun {
	ctx: GatewayContext;
	operation: Operation;
	settings: HaiPaySettings;
	credential: ICredentialsDecrypted;
	options: RunOptions;
	prepared: Array<Prepared | undefined>;
	results: Array<{ output: INodeExecutionData } | { failure: ItemFailure; endedAt?: number } | undefined>;
}

/** The duplicate's failure with what the query proved, or with why it proved nothing; never another outcome. */
function shown(failure: ItemFailure, result: LookupResult | Error, kind: OrderKind): ItemFailure {
	if (result instanceof Error) {
		return new ItemFailure(
			'duplicate',
			`${failure.message}; the query for the existing order proved nothing: ${result.message}`,
			failure.details,
		);
	}
	const existing = result.found ? existingOrder(result.data, kind) : undefined;
	if (existing === undefined) {
		return new ItemFailure(
			'duplicate',
			`${failure.message}; HaiPay's signed query shows no order under this orderId`,
			failure.details,
		);
	}
	const state = existing.statusLabel ?? (existing.status === undefined ? 'no status' : `status ${existing.status}`);
	return new ItemFailure(
		'duplicate',
		`${failure.message}; HaiPay's signed query shows its order ${existing.orderNo} (${state})`,
		{ ...failure.details, existing },
	);
}

/**
 * Queries the existing order of every duplicate of an order create, when HaiPay's answers can be proven (the
 * credential has HaiPay's public key). Reads only: nothing is sent again.
 */
export async function showExistingOrders(run: DuplicateRun, sendable: number[]): Promise<void> {
	const { operation, settings, options } = run;
	// Refunds have their own settlement and a change's repeat is no duplicate: order creates only.
	if (operation.kind !== 'create' || operation.settlement !== undefined || settings.haipayPublicKey === '') return;
	const kind = operation.resource as OrderKind;
	const duplicates = sendable.filter((itemIndex) => {
		const result = run.results[itemIndex];
		return (
			result !== undefined &&
			'failure' in result &&
			result.failure.kind === 'duplicate' &&
			result.failure.details.existing === undefined
		);
	});
	const queries = {
		ctx: run.ctx,
		kind,
		settings,
		credential: run.credential,
		concurrency: options.concurrency,
		withinMs: options.resolveWithinMs,
		timeoutMs: options.timeoutMs,
		retries: 0,
	};
	const answers = await queryOrders(
		queries,
		duplicates.map((itemIndex): [number, Prepared] => [itemIndex, run.prepared[itemIndex] as Prepared]),
	);
	for (const [itemIndex, result] of answers) {
		const { failure } = run.results[itemIndex] as { failure: ItemFailure };
		run.results[itemIndex] = { failure: shown(failure, result, kind) };
	}
}
