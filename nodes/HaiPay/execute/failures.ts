import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { FIELDS_FROM_INPUT, FIELDS_FROM_PARAMETERS } from '../descriptions/fromRules';
import { createOutcome, CREATE_ADVICE, ItemFailure, READ_ADVICE } from '../../shared/gateway/outcome';
import type { ExistingOrder, FailureKind } from '../../shared/gateway/outcome';
import { sentOnce, type OperationKind } from '../../shared/gateway/kinds';
import { parameterValue } from './parameters';
import type { Prepared } from './types';
import { trimmedText } from '../../shared/text';

/** What advice a failed item gets: a sent-once request's or a read's, and an operation's own where it has one (a refund's). */
export interface Advised {
	kind: OperationKind;
	advice?: Partial<Record<FailureKind, string>>;
}

/** The advice that fits the operation: reads create nothing and carry no orderId to resend. */
function adviceFor(failure: ItemFailure, operation: Advised): string {
	if (!sentOnce(operation.kind)) return READ_ADVICE[failure.kind];
	const outcome = createOutcome(failure.kind);
	return operation.advice?.[outcome] ?? CREATE_ADVICE[outcome];
}

/**
 * Anything that is not already an ItemFailure: while preparing (an expression that cannot be resolved, say)
 * nothing was sent; while sending, a create's fate is unknown and a read simply failed.
 */
export function failureOf(error: unknown, phase: 'prepare' | 'send', kind: OperationKind): ItemFailure {
	if (error instanceof ItemFailure) return error;
	const message = error instanceof Error ? error.message : String(error);
	if (phase === 'prepare') return new ItemFailure('invalid', message, {});
	return new ItemFailure(sentOnce(kind) ? 'unknown' : 'unavailable', message, {});
}

/**
 * A field's value as the item gave it, for an item that failed before a request was built: from the input item
 * when fields come from it, otherwise from the parameter. Undefined when there is none.
 */
export function declared(ctx: IExecuteFunctions, itemIndex: number, name: string): string | undefined {
	let value: unknown;
	try {
		const fromInput =
			name !== 'currency' && parameterValue(ctx, itemIndex, 'fieldsFrom', FIELDS_FROM_PARAMETERS) === FIELDS_FROM_INPUT;
		value = fromInput ? ctx.getInputData()[itemIndex]?.json[name] : parameterValue(ctx, itemIndex, name, '');
	} catch {
		value = undefined;
	}
	const text = trimmedText(value);
	return text === '' ? undefined : text;
}

/** What a failed item says about where it stands: its order and currency, when known. */
export type FailedAt = Partial<Pick<Prepared, 'orderId' | 'currency'>>;

/** The error n8n shows for a failed item, or stops the run with: message, advice, and what HaiPay said. */
export function nodeError(
	ctx: IExecuteFunctions,
	failure: ItemFailure,
	operation: Advised,
	itemIndex: number,
	at: FailedAt,
	accepted = 0,
): Error {
	const where = at.orderId === undefined ? '' : ` Order ID: ${at.orderId}.`;
	const before =
		accepted > 0
			? ` ${accepted} other item(s) of this run were accepted before it stopped; HaiPay refuses a repeated orderId, so a re-run does not pay them twice, but set "On Error" to "Continue" to keep their results.`
			: '';
	const description = `${adviceFor(failure, operation)}${where}${before}`;
	if (failure.kind === 'invalid' || failure.kind === 'not_sent') {
		return new NodeOperationError(ctx.getNode(), failure.message, { itemIndex, description });
	}
	const response: JsonObject = {
		errorType: failure.kind,
		...(failure.details.errorCode !== undefined ? { error: failure.details.errorCode } : {}),
		...(failure.details.gatewayMessage !== undefined ? { msg: failure.details.gatewayMessage } : {}),
		...(at.orderId !== undefined ? { orderId: at.orderId } : {}),
	};
	return new NodeApiError(ctx.getNode(), response, {
		message: failure.message,
		description,
		itemIndex,
		...(failure.details.httpStatus !== undefined ? { httpCode: String(failure.details.httpStatus) } : {}),
	});
}

/** A duplicate's existing order, under the names a Get gives them; its amount apart, since this item's may differ. */
export function existingFields(existing: ExistingOrder | undefined): IDataObject {
	if (existing === undefined) return {};
	const { orderNo, status, statusLabel, amount } = existing;
	return {
		orderNo,
		...(status !== undefined ? { status } : {}),
		...(statusLabel !== undefined ? { statusLabel } : {}),
		...(amount !== undefined ? { existingAmount: amount } : {}),
	};
}

/**
 * The output item of a failure, under "On Error: Continue": enough to route, reconcile and retry safely.
 *
 * Under "Continue (using error output)" n8n moves an item to the error output when its json holds only `error`,
 * `message` and `details` (an item-level error object would make n8n replace the json with the message alone),
 * so there the same fields travel inside `details`, and n8n adds the input item's fields beside them.
 */
export function failureItem(
	ctx: IExecuteFunctions,
	failure: ItemFailure,
	operation: Advised,
	at: FailedAt,
	itemIndex: number,
): INodeExecutionData {
	const { details } = failure;
	const fields: IDataObject = {
		errorType: failure.kind,
		...(sentOnce(operation.kind) ? { outcome: createOutcome(failure.kind) } : {}),
		...(details.errorCode !== undefined ? { errorCode: details.errorCode } : {}),
		...(details.gatewayMessage !== undefined ? { gatewayMessage: details.gatewayMessage } : {}),
		...(details.field !== undefined ? { field: details.field, rule: details.rule } : {}),
		...(details.cause !== undefined ? { cause: details.cause } : {}),
		...(details.httpStatus !== undefined ? { httpStatus: details.httpStatus } : {}),
		...(at.orderId !== undefined ? { orderId: at.orderId } : {}),
		...existingFields(details.existing),
		...(at.currency ? { currency: at.currency } : {}),
		advice: adviceFor(failure, operation),
	};
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	const json: IDataObject = toErrorOutput
		? { error: failure.message, details: fields }
		: { error: failure.message, ...fields };
	return { json, pairedItem: { item: itemIndex } };
}
