import type { Sandbox } from '../../sandbox';
import { PAYOUTS } from '../fixtures/bodies';
import { payoutFromItem, sandboxPerFile, TZS_FIELDS, uniqueOrderId } from './helpers';

/**
 * What the files that run the HaiPay node against a faulty gateway share (bounds.cases.ts, hardening.cases.ts): a
 * sandbox that holds a hung answer for 4 s, the TZS create with Resolve off, and ZAR rows.
 */

/** Refused creates are confirmed by a query once Not Found After has passed: kept short here. */
export const createTzs = { ...payoutFromItem('TZS', TZS_FIELDS), options: { notFoundAfter: 1 } };
export const asIs = (parameters: Record<string, unknown>, options: Record<string, unknown> = {}) => ({
	...parameters,
	options: { resolveUnknown: false, ...options },
});
export const keepGoing = { onError: 'continueRegularOutput' };

export const ZAR_FIELDS = TZS_FIELDS;
export function zarRow(overrides: Record<string, unknown> = {}) {
	return { orderId: uniqueOrderId('ZAR'), ...PAYOUTS.ZAR, ...overrides };
}

/** The file's sandbox, started before its tests and closed after them, and the orders it holds for an orderId. */
export function faultyGatewayPerFile(): { sandbox: () => Sandbox; ordersWith: (orderId: string) => Sandbox['orders'] } {
	const sandbox = sandboxPerFile({ manual: true, hangMs: 4_000 });
	return { sandbox, ordersWith: (orderId) => sandbox().orders.filter((order) => order.orderId === orderId) };
}
