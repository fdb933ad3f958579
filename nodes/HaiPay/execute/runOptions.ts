import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	DEFAULT_CONCURRENCY,
	DEFAULT_READ_RETRIES,
	DEFAULT_REQUESTS_PER_SECOND,
	DEFAULT_NOT_FOUND_AFTER_SECONDS,
	DEFAULT_RESOLVE_WITHIN_SECONDS,
	DEFAULT_TIMEOUT_MS,
	DEFAULT_LOOK_UP_WITHIN_SECONDS,
} from '../descriptions/options';

/** Run-wide settings of one execution of the node, read from its Options. */
export interface RunOptions {
	concurrency: number;
	requestsPerSecond: number;
	timeoutMs: number;
	retries: number;
	/** Creates only: query every item whose outcome is unknown, for up to `resolveWithinMs`. */
	resolveUnknown: boolean;
	resolveWithinMs: number;
	/** Creates only: "no such order" counts only from a query sent this long after the create's request ended. */
	notFoundAfterMs: number;
	/** Payout → Check only: ask HaiPay's order query whether it has each valid row's order, all within `lookUpWithinMs`. */
	lookUpExisting: boolean;
	lookUpWithinMs: number;
}

function bounded(value: unknown, fallback: number, min: number, max: number): number {
	const parsed = Number(value ?? fallback);
	return Number.isFinite(parsed) ? Math.min(Math.max(parsed, min), max) : fallback;
}

export function runOptionsOf(ctx: IExecuteFunctions): RunOptions {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	return {
		concurrency: Math.floor(bounded(options.concurrency, DEFAULT_CONCURRENCY, 1, 64)),
		requestsPerSecond: bounded(options.requestsPerSecond, DEFAULT_REQUESTS_PER_SECOND, 0, 1000),
		timeoutMs: Math.floor(bounded(options.timeout, DEFAULT_TIMEOUT_MS, 1000, 600_000)),
		retries: Math.floor(bounded(options.retries, DEFAULT_READ_RETRIES, 0, 10)),
		resolveUnknown: options.resolveUnknown !== false,
		resolveWithinMs: Math.floor(bounded(options.resolveWithin, DEFAULT_RESOLVE_WITHIN_SECONDS, 1, 3600) * 1000),
		notFoundAfterMs: Math.floor(bounded(options.notFoundAfter, DEFAULT_NOT_FOUND_AFTER_SECONDS, 1, 3600) * 1000),
		lookUpExisting: options.lookUpExisting === true,
		lookUpWithinMs: Math.floor(bounded(options.lookUpWithin, DEFAULT_LOOK_UP_WITHIN_SECONDS, 1, 3600) * 1000),
	};
}
