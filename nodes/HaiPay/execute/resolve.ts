import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { lookupOrder, type LookupResult } from '../../shared/gateway/lookup';
import { GatewayFailure } from '../../shared/gateway/outcome';
import type { CallOptions, GatewayContext } from '../../shared/gateway/request';
import type { HaiPaySettings } from '../../shared/signing/settings';
import type { OrderKind } from '../../shared/contract/statuses';
import type { Prepared } from './types';

/** What HaiPay said of a create whose outcome was unknown. */
export type Resolution =
	| { type: 'accepted'; data: IDataObject; verified: boolean }
	| { type: 'not_found'; failure: GatewayFailure }
	| { type: 'unknown'; failure: GatewayFailure };

export interface ResolveSettings {
	kind: OrderKind;
	settings: HaiPaySettings;
	call: Omit<CallOptions, 'kind' | 'acceptFile' | 'retries'>;
	/** How long to keep asking, from the moment resolution starts. */
	withinMs: number;
}

/** Waits between queries of one order: soon after the send, then less often. */
const BACKOFF_MS = [0, 1000, 2000, 4000, 8000, 15000];

function pauseBefore(attempt: number): number {
	return BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
}

function settled(result: LookupResult): Resolution | undefined {
	if (result.found) return { type: 'accepted', data: result.data, verified: result.verification === 'verified' };
	// A "no such order" leads to a resend: it counts only when HaiPay signed it.
	if (result.verification !== 'verified') return undefined;
	const said = result.errorMsg === '' ? '' : ` ("${result.errorMsg}")`;
	return {
		type: 'not_found',
		failure: new GatewayFailure('not_found', `HaiPay has no order with this orderId${said}: the create did not reach it`, {
			gatewayMessage: result.errorMsg,
		}),
	};
}

/**
 * Asks HaiPay about one create whose outcome is unknown, until a trusted answer settles it or the time is up.
 * Never sends the create again: only `/{ccy}/pay/query` or `/{ccy}/collect/query`.
 */
export async function resolveUnknown(ctx: GatewayContext, prepared: Prepared, unknown: GatewayFailure, how: ResolveSettings): Promise<Resolution> {
	const ends = Date.now() + how.withinMs;
	let lastReason = 'no query was answered in time';
	for (let attempt = 0; ; attempt++) {
		const pause = pauseBefore(attempt);
		if (Date.now() + pause >= ends) break;
		if (pause > 0) await sleep(pause);
		const remaining = ends - Date.now();
		if (remaining < 200) break;
		try {
			const result = await lookupOrder(
				ctx,
				how.settings,
				{ kind: how.kind, currency: prepared.currency, orderId: prepared.orderId },
				{ ...how.call, timeoutMs: Math.min(how.call.timeoutMs, remaining), retries: 0 },
			);
			const resolution = settled(result);
			if (resolution !== undefined) return resolution;
			lastReason = 'HaiPay said it has no such order, but without the HaiPay public key in the credential that answer cannot be trusted';
		} catch (error) {
			lastReason = error instanceof Error ? error.message : String(error);
		}
	}
	const seconds = Math.round(how.withinMs / 1000);
	return {
		type: 'unknown',
		failure: new GatewayFailure('unknown', `${unknown.message}; querying it for ${seconds} s did not settle it: ${lastReason}`, unknown.details),
	};
}
