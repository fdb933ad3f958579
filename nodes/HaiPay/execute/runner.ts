import type { ICredentialsDecrypted, IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { FIELDS_FROM_INPUT, FIELDS_FROM_PARAMETERS } from '../descriptions/fromRules';
import { KeyFormatError, privateKeyOf, publicKeyOf } from '../transport/keys';
import { parameterValue } from './parameters';
import { ADVICE, GatewayFailure } from '../transport/outcome';
import { callGateway } from '../transport/request';
import { assertUsable, settingsFor, type HaiPaySettings } from '../transport/settings';
import type { Operation, Prepared } from './types';

export interface RunOptions {
	concurrency: number;
	requestsPerSecond: number;
	timeoutMs: number;
	retries: number;
}

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_REQUESTS_PER_SECOND = 0;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_READ_RETRIES = 2;

export const DEFAULT_RUN_OPTIONS: RunOptions = {
	concurrency: DEFAULT_CONCURRENCY,
	requestsPerSecond: DEFAULT_REQUESTS_PER_SECOND,
	timeoutMs: DEFAULT_TIMEOUT_MS,
	retries: DEFAULT_READ_RETRIES,
};

function runOptions(ctx: IExecuteFunctions): RunOptions {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const number = (value: unknown, fallback: number, min: number, max: number) => {
		const parsed = Number(value ?? fallback);
		return Number.isFinite(parsed) ? Math.min(Math.max(parsed, min), max) : fallback;
	};
	return {
		concurrency: Math.floor(number(options.concurrency, DEFAULT_RUN_OPTIONS.concurrency, 1, 64)),
		requestsPerSecond: number(options.requestsPerSecond, DEFAULT_RUN_OPTIONS.requestsPerSecond, 0, 1000),
		timeoutMs: Math.floor(number(options.timeout, DEFAULT_RUN_OPTIONS.timeoutMs, 1000, 600_000)),
		retries: Math.floor(number(options.retries, DEFAULT_RUN_OPTIONS.retries, 0, 10)),
	};
}

/** Keys are read once per run, so a bad key fails the node before any item is sent. */
async function loadSettings(ctx: IExecuteFunctions): Promise<{ settings: HaiPaySettings; credential: ICredentialsDecrypted }> {
	const data = await ctx.getCredentials('haiPayApi');
	const settings = settingsFor(data);
	const reference = ctx.getNode().credentials?.haiPayApi;
	const credential: ICredentialsDecrypted = { id: reference?.id ?? '', name: reference?.name ?? 'HaiPay API', type: 'haiPayApi', data };
	try {
		privateKeyOf(settings);
		if (settings.haipayPublicKey !== '') publicKeyOf(settings);
	} catch (error) {
		const message = error instanceof KeyFormatError ? error.message : 'The keys of the HaiPay credential could not be read';
		throw new NodeOperationError(ctx.getNode(), message);
	}
	return { settings, credential };
}

function prepareItem(ctx: IExecuteFunctions, operation: Operation, settings: HaiPaySettings, itemIndex: number): Prepared {
	const prepared = operation.prepare(ctx, itemIndex);
	let problem: string | undefined;
	try {
		assertUsable(settings, prepared.path);
	} catch (error) {
		problem = error instanceof Error ? error.message : String(error);
	}
	if (problem !== undefined) throw new GatewayFailure('invalid', problem, { field: 'currency', rule: 'credential' });
	return prepared;
}

/**
 * Anything that is not already a GatewayFailure: while preparing (an expression that cannot be resolved, say)
 * nothing was sent; while sending, a create's fate is unknown and a read simply failed.
 */
function failureOf(error: unknown, phase: 'prepare' | 'send', operation: Operation): GatewayFailure {
	if (error instanceof GatewayFailure) return error;
	const message = error instanceof Error ? error.message : String(error);
	if (phase === 'prepare') return new GatewayFailure('invalid', message, {});
	return new GatewayFailure(operation.kind === 'create' ? 'unknown' : 'unavailable', message, {});
}

/**
 * A field's value as the item gave it, for an item that failed before a request was built: from the input item
 * when fields come from it, otherwise from the parameter. Undefined when there is none.
 */
function declared(ctx: IExecuteFunctions, itemIndex: number, name: string): string | undefined {
	let value: unknown;
	try {
		const fromInput = name !== 'currency' && parameterValue(ctx, itemIndex, 'fieldsFrom', FIELDS_FROM_PARAMETERS) === FIELDS_FROM_INPUT;
		value = fromInput ? ctx.getInputData()[itemIndex]?.json[name] : parameterValue(ctx, itemIndex, name, '');
	} catch {
		value = undefined;
	}
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	return text === '' ? undefined : text;
}

/** The output item of a failure, under "Continue On Fail": enough to route, reconcile and retry safely. */
function failureItem(failure: GatewayFailure, operation: Operation, prepared: Partial<Prepared> | undefined, itemIndex: number): INodeExecutionData {
	const outcome =
		operation.kind === 'create'
			? { outcome: failure.kind === 'signature' ? 'unknown' : failure.kind }
			: {};
	const json: IDataObject = {
		error: failure.message,
		errorType: failure.kind,
		...outcome,
		...(failure.details.errorCode !== undefined ? { errorCode: failure.details.errorCode } : {}),
		...(failure.details.gatewayMessage !== undefined ? { gatewayMessage: failure.details.gatewayMessage } : {}),
		...(failure.details.field !== undefined ? { field: failure.details.field, rule: failure.details.rule } : {}),
		...(failure.details.cause !== undefined ? { cause: failure.details.cause } : {}),
		...(failure.details.httpStatus !== undefined ? { httpStatus: failure.details.httpStatus } : {}),
		...(prepared?.orderId !== undefined ? { orderId: prepared.orderId } : {}),
		...(prepared?.currency ? { currency: prepared.currency } : {}),
		advice: ADVICE[failure.kind],
	};
	return { json, pairedItem: { item: itemIndex } };
}

function nodeError(ctx: IExecuteFunctions, failure: GatewayFailure, itemIndex: number, orderId: string | undefined, accepted: number): Error {
	const where = orderId === undefined ? '' : ` Order ID: ${orderId}.`;
	const before =
		accepted > 0
			? ` ${accepted} other item(s) of this run were accepted before it stopped; HaiPay refuses a repeated orderId, so a re-run does not pay them twice, but set "On Error" to "Continue" to keep their results.`
			: '';
	const description = `${ADVICE[failure.kind]}${where}${before}`;
	if (failure.kind === 'invalid' || failure.kind === 'not_sent') {
		return new NodeOperationError(ctx.getNode(), failure.message, { itemIndex, description });
	}
	const response: JsonObject = {
		errorType: failure.kind,
		...(failure.details.errorCode !== undefined ? { error: failure.details.errorCode } : {}),
		...(failure.details.gatewayMessage !== undefined ? { msg: failure.details.gatewayMessage } : {}),
		...(orderId !== undefined ? { orderId } : {}),
	};
	return new NodeApiError(ctx.getNode(), response, {
		message: failure.message,
		description,
		itemIndex,
		...(failure.details.httpStatus !== undefined ? { httpCode: String(failure.details.httpStatus) } : {}),
	});
}

/** Spaces request starts evenly when a rate is set; shared by every worker of the run. */
function pacer(requestsPerSecond: number): () => Promise<void> {
	if (requestsPerSecond <= 0) return async () => {};
	const interval = 1000 / requestsPerSecond;
	let next = 0;
	return async () => {
		const now = Date.now();
		const start = Math.max(now, next);
		next = start + interval;
		if (start > now) await sleep(start - now);
	};
}

/**
 * Runs one operation over every input item. Every item is checked first: without "Continue On Fail" a single
 * invalid item stops the run before anything is sent. Valid items are then sent with bounded concurrency and
 * optional pacing. Output order is input order, one output item per input item.
 */
export async function runOperation(ctx: IExecuteFunctions, operation: Operation): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const { settings, credential } = await loadSettings(ctx);
	const options = runOptions(ctx);
	const continueOnFail = ctx.continueOnFail();
	if (operation.kind === 'create' && ctx.getNode().retryOnFail === true) {
		ctx.logger.warn(
			'HaiPay: "Retry On Fail" is on for a create. A retry re-runs every item: accepted ones are refused as duplicates, which hides the real error. Use On Error: Continue instead.',
		);
	}
	const results: INodeExecutionData[] = new Array(items.length);

	const prepared: Array<Prepared | undefined> = new Array(items.length);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			prepared[itemIndex] = prepareItem(ctx, operation, settings, itemIndex);
		} catch (error) {
			const failure = failureOf(error, 'prepare', operation);
			const orderId = declared(ctx, itemIndex, 'orderId');
			if (!continueOnFail) throw nodeError(ctx, failure, itemIndex, orderId, 0);
			results[itemIndex] = failureItem(failure, operation, { orderId, currency: declared(ctx, itemIndex, 'currency') }, itemIndex);
		}
	}

	const queue = prepared.flatMap((request, itemIndex) => (request ? [itemIndex] : []));
	let cursor = 0;
	const pace = pacer(options.requestsPerSecond);
	let stop: { failure: GatewayFailure; itemIndex: number } | undefined;
	let accepted = 0;

	const worker = async () => {
		while (cursor < queue.length && stop === undefined) {
			const itemIndex = queue[cursor++];
			const request = prepared[itemIndex] as Prepared;
			await pace();
			if (stop !== undefined) return;
			try {
				const answer = await callGateway(ctx, request.path, request.body, settings, {
					kind: operation.kind,
					timeoutMs: options.timeoutMs,
					retries: options.retries,
					acceptFile: request.acceptFile,
					credential,
				});
				const output = await operation.present(ctx, itemIndex, answer, request);
				results[itemIndex] = { ...output, pairedItem: { item: itemIndex } };
				accepted++;
			} catch (error) {
				const failure = failureOf(error, 'send', operation);
				if (continueOnFail) results[itemIndex] = failureItem(failure, operation, request, itemIndex);
				else stop ??= { failure, itemIndex };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(options.concurrency, Math.max(queue.length, 1)) }, worker));

	if (stop !== undefined) {
		const orderId = prepared[stop.itemIndex]?.orderId;
		throw nodeError(ctx, stop.failure, stop.itemIndex, orderId, operation.kind === 'create' ? accepted : 0);
	}
	return results;
}
