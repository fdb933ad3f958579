import type { ICredentialsDecrypted, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ambiguityOf } from '../../shared/signing/canonical';
import { KeyFormatError } from '../../shared/signing/keys';
import { sentOnce } from '../../shared/gateway/kinds';
import { ItemFailure } from '../../shared/gateway/outcome';
import { refuseUnapproved } from '../approval/approved';
import { callGateway, type Answer } from '../../shared/gateway/request';
import {
	privateKeyOf,
	publicKeyOf,
	settingsFor,
	signerFor,
	type HaiPaySettings,
} from '../../shared/signing/credential';
import { declared, failureItem, failureOf, nodeError, type FailedAt } from './failures';
import { runOptionsOf, type RunOptions } from './runOptions';
import { guardCreate } from './guard';
import { withDefaultNotifyUrl } from './notifyDefault';
import { pacer, pool } from './pool';
import { repeatedOrderIds } from './repeats';
import { resolveAll, unresolvable, type Resolution, type Unsettled } from './resolve';
import { PATH_SIGNERS, PRODUCTS } from '../../shared/products';
import { whyNotAccepted } from '../../shared/products/judge';
import { askedOf } from './asked';
import { SETTLEMENTS } from './settle';
import type { Operation, Prepared, Settlement } from './types';

/** Keys are read once per run, so a bad key fails the node before any item is sent. */
export async function loadSettings(
	ctx: IExecuteFunctions,
): Promise<{ settings: HaiPaySettings; credential: ICredentialsDecrypted }> {
	const data = await ctx.getCredentials('haiPayApi');
	const settings = settingsFor(data);
	const reference = ctx.getNode().credentials?.haiPayApi;
	const credential: ICredentialsDecrypted = {
		id: reference?.id ?? '',
		name: reference?.name ?? 'HaiPay API',
		type: 'haiPayApi',
		data,
	};
	try {
		privateKeyOf(settings);
		if (settings.haipayPublicKey !== '') publicKeyOf(settings);
	} catch (error) {
		const message =
			error instanceof KeyFormatError ? error.message : 'The keys of the HaiPay credential could not be read';
		throw new NodeOperationError(ctx.getNode(), message);
	}
	return { settings, credential };
}

/** The App ID of the credential that an item's currency names, for a path of every currency (the voucher's). */
function namedSigner(prepared: Prepared, settings: HaiPaySettings): HaiPaySettings | undefined {
	const currency = prepared.signWithCurrency;
	if (currency === undefined || currency === '') return undefined;
	const app = settings.apps.find((candidate) => candidate.currency === currency);
	if (app === undefined) {
		throw new ItemFailure('invalid', `The HaiPay credential holds no App ID for ${currency}: nothing was sent`, {
			field: 'currency',
			rule: 'credential',
		});
	}
	// The voucher's path serves every currency: the App ID chooses, as it does when the request is signed.
	return signerFor(settings, prepared.path, PATH_SIGNERS, app.appId);
}

/**
 * The credential as seen through the App ID that signs this item, or a failure when it may not be signed: the
 * credential must hold an App ID for the item's currency, and the string to sign must read back as exactly these
 * fields (no value may carry the `&` or `=` that join them).
 */
function signerOfItem(prepared: Prepared, settings: HaiPaySettings): HaiPaySettings | ItemFailure {
	let signer: HaiPaySettings;
	try {
		signer = namedSigner(prepared, settings) ?? signerFor(settings, prepared.path, PATH_SIGNERS);
	} catch (error) {
		if (error instanceof ItemFailure) return error;
		return new ItemFailure('invalid', error instanceof Error ? error.message : String(error), {
			field: 'currency',
			rule: 'credential',
		});
	}
	const ambiguity = ambiguityOf({ ...prepared.body, appId: signer.appId }, { arrayStyle: signer.arrayStyle });
	if (ambiguity === undefined) return signer;
	const what = ambiguity.part === 'name' ? `The field name "${ambiguity.field}"` : `"${ambiguity.field}"`;
	const why = ambiguity.inListElement
		? " in an entry: under the credential's Java-list array format the signed text writes a list as [a, b], so such an entry would sign like other entries"
		: ": HaiPay's signed text joins fields with & and =, so it would let the signature stand for other fields";
	return new ItemFailure('invalid', `${what} must not contain "${ambiguity.character}"${why}`, {
		field: ambiguity.field,
		rule: 'separator',
	});
}

/** The request for one item, checked as a whole, and the App ID that signs it chosen, before anything is signed. */
export function preparedRequest(
	ctx: IExecuteFunctions,
	operation: Operation,
	settings: HaiPaySettings,
	itemIndex: number,
): Prepared {
	const prepared = withDefaultNotifyUrl(operation.prepare(ctx, itemIndex), settings);
	const signer = signerOfItem(prepared, settings);
	if (signer instanceof ItemFailure) throw signer;
	prepared.signer = signer;
	return prepared;
}

/** One item's fate: its output, or why it failed (and, once sent, when its request ended). */
type Result = { output: INodeExecutionData } | { failure: ItemFailure; endedAt?: number };

/**
 * Why an answer that HaiPay signed as a success is still not output for this item, or undefined. A create's answer
 * must be HaiPay's acceptance by its product's one judge (shared/products/judge.ts); anything else leaves its outcome
 * unknown, for Resolve Unknown Outcomes to settle by the product's query as it settles a lost answer. A read's must
 * be about what was asked.
 */
function answerFailure(operation: Operation, answer: Answer, request: Prepared): ItemFailure | undefined {
	if (operation.kind === 'read') {
		const why = operation.distrust(answer, request);
		return why === undefined
			? undefined
			: new ItemFailure('untrusted', `HaiPay's answer could not be trusted: ${why}`, {});
	}
	const product = PRODUCTS[operation.makes];
	const why = whyNotAccepted(product, answer, askedOf(request, product));
	if (why === undefined) return undefined;
	return new ItemFailure('unknown', `The outcome is unknown: HaiPay may have taken this ${product.makes} (${why})`, {});
}

/** Sends one prepared item and turns the answer into output, or into a failure when it is not proof. */
async function sendOne(
	ctx: IExecuteFunctions,
	operation: Operation,
	request: Prepared,
	itemIndex: number,
	run: { settings: HaiPaySettings; credential: ICredentialsDecrypted; options: RunOptions },
): Promise<Result> {
	let answer: Answer;
	const signer = request.signer ?? run.settings;
	request.sentAt = Date.now();
	try {
		// The appId chooses the signing App ID on the voucher's path; on every other path it is the path's own.
		answer = await callGateway(ctx, request.path, { ...request.body, appId: signer.appId }, signer, {
			kind: operation.kind,
			timeoutMs: run.options.timeoutMs,
			retries: run.options.retries,
			acceptFile: request.acceptFile,
			credential: run.credential,
		});
	} catch (error) {
		return { failure: failureOf(error, 'send', operation.kind), endedAt: performance.now() };
	}
	if (answer.type === 'data' && answer.verification === 'verified') request.signedData = answer.data;
	const failure = answerFailure(operation, answer, request);
	if (failure !== undefined) return { failure, endedAt: performance.now() };
	try {
		return { output: await operation.present(ctx, itemIndex, answer, request) };
	} catch (error) {
		return { failure: failureOf(error, 'send', operation.kind), endedAt: performance.now() };
	}
}

/** An item a query settled: what HaiPay showed, or the failure its answers proved. */
function resolvedResult(resolution: Resolution, prepared: Prepared, settlement: Settlement): Result {
	if (resolution.type === 'failed') return { failure: resolution.failure };
	return { output: { json: settlement.item(resolution.data, prepared, resolution.outcome) } };
}

/** Everything one run of the node shares between its items. */
interface Run {
	ctx: IExecuteFunctions;
	operation: Operation;
	settings: HaiPaySettings;
	credential: ICredentialsDecrypted;
	options: RunOptions;
	continueOnFail: boolean;
	prepared: Array<Prepared | undefined>;
	results: Array<Result | undefined>;
}

function failedAt(run: Run, itemIndex: number): FailedAt {
	return (
		run.prepared[itemIndex] ?? {
			orderId: declared(run.ctx, itemIndex, 'orderId'),
			currency: declared(run.ctx, itemIndex, 'currency'),
		}
	);
}

/** An item checked against every rule and the credential, or why it may not be sent. */
function checkedItem(
	ctx: IExecuteFunctions,
	operation: Operation,
	settings: HaiPaySettings,
	itemIndex: number,
): Prepared | ItemFailure {
	try {
		return preparedRequest(ctx, operation, settings, itemIndex);
	} catch (error) {
		return failureOf(error, 'prepare', operation.kind);
	}
}

/**
 * Every item checked, before anything is sent: its rules and the credential, and, for creates, an orderId that an
 * earlier item of the run already has.
 */
export function checkAll(
	ctx: IExecuteFunctions,
	operation: Operation,
	settings: HaiPaySettings,
	count: number,
): Array<Prepared | ItemFailure> {
	const checked = Array.from({ length: count }, (_, itemIndex) => checkedItem(ctx, operation, settings, itemIndex));
	if (!sentOnce(operation.kind)) return checked;
	const repeats = repeatedOrderIds(
		checked.map((entry) => (entry instanceof ItemFailure ? undefined : entry)),
		operation.uniqueFields,
	);
	return checked.map((entry, itemIndex) => repeats.get(itemIndex) ?? entry);
}

/** Checks every item before anything is sent: without "Continue On Fail" one invalid item stops the run here. */
function prepareAll(run: Run, count: number): void {
	checkAll(run.ctx, run.operation, run.settings, count).forEach((entry, itemIndex) => {
		if (!(entry instanceof ItemFailure)) {
			run.prepared[itemIndex] = entry;
			return;
		}
		if (!run.continueOnFail) throw nodeError(run.ctx, entry, run.operation, itemIndex, failedAt(run, itemIndex));
		run.results[itemIndex] = { failure: entry };
	});
}

/** The items of each App ID, in input order: HaiPay paces and limits each App ID on its own. */
function bySigner(run: Run, sendable: number[]): number[][] {
	const groups = new Map<number, number[]>();
	for (const itemIndex of sendable) {
		const appId = run.prepared[itemIndex]?.signer?.appId ?? run.settings.appId;
		const group = groups.get(appId);
		if (group === undefined) groups.set(appId, [itemIndex]);
		else group.push(itemIndex);
	}
	return [...groups.values()];
}

/**
 * Sends the valid items with bounded concurrency and pacing for each App ID; a failure stops new sends (of every
 * App ID) unless the run continues on fail.
 */
async function sendAll(run: Run, sendable: number[], resolving: boolean): Promise<void> {
	let stopAt: number | undefined;
	const sendGroup = async (group: number[]) => {
		const pace = pacer(run.options.requestsPerSecond);
		await pool(
			group,
			run.options.concurrency,
			() => stopAt !== undefined,
			async (itemIndex) => {
				await pace();
				if (stopAt !== undefined) return;
				const result = await sendOne(run.ctx, run.operation, run.prepared[itemIndex] as Prepared, itemIndex, run);
				run.results[itemIndex] = result;
				// An output is final: its request (body, answer, signer) is read again only for a failure or a query,
				// so a sheet's accepted rows do not keep their requests until the last row is answered.
				if ('output' in result) run.prepared[itemIndex] = undefined;
				// An unknown outcome that will be queried does not stop the run: it may turn out accepted.
				const settlesLater = 'failure' in result && resolving && result.failure.kind === 'unknown';
				if ('failure' in result && !run.continueOnFail && !settlesLater) stopAt ??= itemIndex;
			},
		);
	};
	await Promise.all(bySigner(run, sendable).map(sendGroup));
}

/**
 * Whether a create's failure leaves its outcome open to a query: an unknown one, or a refusal HaiPay did not sign
 * ("rejected", or "already exists", which is `duplicate` only once HaiPay's signed query shows what stands there).
 */
function isOpen(
	result: Result | undefined,
	settings: HaiPaySettings,
): result is { failure: ItemFailure; endedAt: number } {
	if (result === undefined || !('failure' in result) || result.endedAt === undefined) return false;
	const refused = result.failure.kind === 'rejected' || result.failure.kind === 'duplicate';
	return result.failure.kind === 'unknown' || (refused && settings.haipayPublicKey !== '');
}

/** Queries every create whose outcome is open, and replaces its failure with what HaiPay's proven answers say. */
async function resolveOpen(run: Run, sendable: number[]): Promise<void> {
	const { settings, credential, options, operation } = run;
	if (operation.kind === 'read') return;
	const settlement = SETTLEMENTS[operation.makes];
	const open: Unsettled[] = [];
	for (const itemIndex of sendable) {
		const result = run.results[itemIndex];
		if (!isOpen(result, settings)) continue;
		const prepared = run.prepared[itemIndex] as Prepared;
		if (settings.haipayPublicKey === '')
			run.results[itemIndex] = resolvedResult(unresolvable(result.failure), prepared, settlement);
		else open.push({ itemIndex, prepared, failure: result.failure, endedAt: result.endedAt });
	}
	if (open.length === 0) return;
	const call = { timeoutMs: options.timeoutMs, credential };
	const how = {
		kind: operation.kind,
		settlement,
		settings,
		call,
		concurrency: options.concurrency,
		withinMs: options.resolveWithinMs,
		notFoundAfterMs: options.notFoundAfterMs,
	};
	for (const [itemIndex, resolution] of await resolveAll(run.ctx, open, how)) {
		run.results[itemIndex] = resolvedResult(resolution, run.prepared[itemIndex] as Prepared, settlement);
	}
}

/** One output item per input item, in input order; without "Continue On Fail" the first failure stops the run. */
function collect(run: Run, count: number): INodeExecutionData[] {
	const isCreate = sentOnce(run.operation.kind);
	const accepted = run.results.filter((result) => result !== undefined && 'output' in result).length;
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const result = run.results[itemIndex];
		if (result === undefined) continue;
		if ('output' in result) {
			output.push({ ...result.output, pairedItem: { item: itemIndex } });
			continue;
		}
		const at = failedAt(run, itemIndex);
		if (!run.continueOnFail)
			throw nodeError(run.ctx, result.failure, run.operation, itemIndex, at, isCreate ? accepted : 0);
		output.push(failureItem(run.ctx, result.failure, run.operation, at, itemIndex));
	}
	return output;
}

/**
 * Runs one operation over every input item. Every item is checked first: without "Continue On Fail" a single
 * invalid item stops the run before anything is sent. Valid items are then sent with bounded concurrency and
 * optional pacing; creates whose outcome is unknown are then queried, when the option is on. Output order is
 * input order, one output item per input item.
 */
export async function runOperation(ctx: IExecuteFunctions, operation: Operation): Promise<INodeExecutionData[]> {
	const count = ctx.getInputData().length;
	guardCreate(ctx, operation, count);
	const { settings, credential } = await loadSettings(ctx);
	const options = runOptionsOf(ctx);
	const isCreate = sentOnce(operation.kind);
	const run: Run = {
		ctx,
		operation,
		settings,
		credential,
		options,
		continueOnFail: ctx.continueOnFail(),
		prepared: new Array(count),
		results: new Array(count),
	};
	prepareAll(run, count);
	if (isCreate) refuseUnapproved(run);
	const sendable = run.prepared.flatMap((request, itemIndex) => (request ? [itemIndex] : []));
	const resolving = isCreate && options.resolveUnknown;
	await sendAll(run, sendable, resolving);
	if (resolving) await resolveOpen(run, sendable);
	return collect(run, count);
}
