import type {
	IAdditionalCredentialOptions,
	IAllExecuteFunctions,
	IDataObject,
	IHttpRequestOptions,
	RequestHelperFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { EXCEPTION_STATUS, SUCCESS_CODE, SUCCESS_STATUS, type Envelope } from '../contract/envelope';
import { ItemFailure, gatewayText } from './outcome';
import { readAnswer, type RawResponse } from './answer';
import { redactText, redactValue } from './redact';
import { refusalOutcome } from '../contract/refusals';
import { OUTCOME_TABLES, sentOnce, type OperationKind } from './kinds';
import type { HaiPaySettings } from '../signing/credential';
import { verifySigned, withoutSign, type Verification } from '../signing/verification';
import { exactText } from '../text';

/** What a gateway call needs of n8n: the node's execution context or a trigger's webhook context. */
export interface GatewayContext {
	helpers: Pick<RequestHelperFunctions, 'httpRequestWithAuthentication'>;
}

/** Largest JSON answer read: HaiPay's answers are a few hundred bytes. */
const JSON_ANSWER_LIMIT = 1024 * 1024;

/**
 * Largest voucher answer read: a ZIP of 100 vouchers, or the same as base64 in a JSON envelope. A voucher PDF
 * with an embedded font is a few hundred KB at most, so 100 of them stay well below this.
 */
const VOUCHER_ANSWER_LIMIT = 64 * 1024 * 1024;

export interface CallOptions {
	/** The kind of request (kinds.ts): every kind but a read is sent once, whatever happens; a read may be sent again. */
	kind: OperationKind;
	/** A deadline for each attempt: connecting, sending, and reading the whole answer. */
	timeoutMs: number;
	/**
	 * When the whole call must be over, on the monotonic clock (a `performance.now()` value, which a step of the wall
	 * clock does not move), retries and waits included: each attempt is cut off at it, no attempt starts with less
	 * than MIN_ATTEMPT_MS left, and no backoff or Retry-After wait is begun that would leave less than that. Without
	 * it, only `timeoutMs` bounds each attempt.
	 */
	deadlineAt?: number;
	/** Extra attempts for reads after the first; sent-once kinds ignore it. */
	retries: number;
	/** Whether a PDF or ZIP body is a valid answer (the voucher endpoint). */
	acceptFile?: boolean;
	/**
	 * The credential, read once for the whole run. Without it n8n decrypts and resolves the credential again for
	 * every request, which costs more than signing in a bulk run.
	 */
	credential?: IAdditionalCredentialOptions['credentialsDecrypted'];
}

/** The least time worth an attempt before a call's deadline: HaiPay rarely answers faster over the internet. */
const MIN_ATTEMPT_MS = 1_000;

/**
 * How long the next attempt may take, in whole milliseconds: its own timeout, clipped to what remains before the
 * call's deadline. The monotonic clock counts fractions of a millisecond, and a timer or an abort signal refuses
 * a fractional delay (ERR_OUT_OF_RANGE), which would fail the request before it was sent.
 */
function attemptMs(options: CallOptions, now = performance.now()): number {
	const ms =
		options.deadlineAt === undefined
			? options.timeoutMs
			: Math.max(0, Math.min(options.timeoutMs, options.deadlineAt - now));
	return Math.floor(ms);
}

/*
 * n8n re-authenticates and sends a request again when it fails with 401 (a token refresh). HaiPay has no tokens
 * and a create must never be sent twice, so that path gets a status no HTTP answer carries.
 */
const NO_RESEND_STATUS = [0];

export type Answer =
	| { type: 'data'; data: IDataObject; verification: Verification }
	| { type: 'text'; text: string; verification: Verification }
	| { type: 'file'; buffer: Buffer; mimeType: 'application/pdf' | 'application/zip' };

/** Codes that prove no byte of the request reached the gateway. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_INVALID_URL',
]);

function errorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/*
 * In words, not codes: n8n replaces a message that contains a code such as ECONNRESET with its own generic text,
 * which would hide that the outcome of a create is unknown. The code itself stays on the item as `cause`.
 */
function lostBecause(code: string | undefined, timeoutMs: number): string {
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'DEADLINE')
		return `no complete answer within ${timeoutMs} ms`;
	if (code === 'ECONNRESET') return 'the connection was reset before an answer came';
	if (code === 'EPIPE') return 'the connection broke while sending';
	return 'the connection failed before an answer came';
}

function header(response: RawResponse, name: string): string {
	const value = response.headers[name] ?? response.headers[name.toLowerCase()];
	return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Retry-After in seconds or as an HTTP date, capped so a bad header cannot stall a run. */
export function retryAfterMs(value: string, now = Date.now()): number | undefined {
	if (value.trim() === '') return undefined;
	const seconds = Number(value);
	const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
	return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 60_000) : undefined;
}

function fileType(buffer: Buffer, contentType: string): 'application/pdf' | 'application/zip' | undefined {
	if (buffer.subarray(0, 5).toString('latin1') === '%PDF-' || /application\/pdf/i.test(contentType))
		return 'application/pdf';
	if (buffer.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004' || /application\/(x-)?zip/i.test(contentType)) {
		return 'application/zip';
	}
	return undefined;
}

/**
 * Sends one signed POST and reads its whole answer before the deadline, up to the size limit. Redirects are never
 * followed: a create that followed one would be sent twice, and a read must come from the configured gateway.
 */
async function post(ctx: GatewayContext, path: string, body: IDataObject, options: CallOptions): Promise<RawResponse> {
	const timeoutMs = attemptMs(options);
	// One signal ends the request and the reading of its answer; n8n replaces it with the execution's own in a
	// node's run, where the read deadline below still holds.
	const deadline = AbortSignal.timeout(timeoutMs);
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: path,
		body,
		headers: { Accept: options.acceptFile ? 'application/json, application/pdf, application/zip' : 'application/json' },
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: timeoutMs,
		...(options.deadlineAt !== undefined ? { abortSignal: deadline } : {}),
	};
	const additional: IAdditionalCredentialOptions = {
		preAuthenticationRetryStatusCode: NO_RESEND_STATUS,
		...(options.credential ? { credentialsDecrypted: options.credential } : {}),
	};
	const limit = options.acceptFile ? VOUCHER_ANSWER_LIMIT : JSON_ANSWER_LIMIT;
	const sending = ctx.helpers.httpRequestWithAuthentication.call(
		ctx as IAllExecuteFunctions,
		'haiPayApi',
		request,
		additional,
	);
	return await readAnswer(sending, { deadline, limit });
}

/** A failure that a read may retry; for a create the same events mean the outcome is unknown. */
function transient(message: string, details: ItemFailure['details']): ItemFailure {
	return new ItemFailure('unavailable', message, details);
}

/** A status-"0" answer as the kind's table reads it: a repeat is a duplicate of a create, and open for a change. */
function refusal(kind: OperationKind, code: string, message: string): ItemFailure {
	const details = { errorCode: code, gatewayMessage: message };
	const said = `${message || 'no message'} (error ${code || 'none'})`;
	const outcome = refusalOutcome(code, message);
	const repeat = outcome === 'duplicate' ? OUTCOME_TABLES[kind].duplicate : undefined;
	if (repeat === 'duplicate')
		return new ItemFailure('duplicate', `HaiPay already has an order with this orderId: ${said}`, details);
	if (outcome === 'unknown' || repeat === 'unknown')
		return transient(`HaiPay reported a problem it could not finish: ${said}`, details);
	return new ItemFailure('rejected', `HaiPay refused the request: ${said}`, details);
}

/**
 * A text of the gateway's envelope (its code or message) as a failure may repeat it: the credential's secret and
 * any `key=` tail removed first, then cut to GATEWAY_TEXT_LIMIT, so that no cut can keep part of the secret.
 */
function said(value: unknown, settings: HaiPaySettings): string {
	return gatewayText(redactText(exactText(value), settings.secrets));
}

async function interpret(response: RawResponse, settings: HaiPaySettings, options: CallOptions): Promise<Answer> {
	const { statusCode } = response;
	if (statusCode >= 300 && statusCode < 400) {
		// Not retried even for a read: a gateway that redirects is not the one the credential names.
		throw new ItemFailure(
			'untrusted',
			`HaiPay answered with a redirect (HTTP ${statusCode}), which is never followed`,
			{
				httpStatus: statusCode,
			},
		);
	}
	if (statusCode !== 200) {
		const retryAfter = retryAfterMs(header(response, 'retry-after'));
		throw transient(`HaiPay answered HTTP ${statusCode} instead of 200`, {
			httpStatus: statusCode,
			retryAfterMs: retryAfter,
		});
	}
	if (options.acceptFile) {
		const mimeType = fileType(response.body, header(response, 'content-type'));
		if (mimeType) return { type: 'file', buffer: response.body, mimeType };
	}
	let envelope: Envelope;
	try {
		envelope = JSON.parse(response.body.toString('utf8'));
	} catch {
		throw transient('HaiPay answered with a body that is not JSON', { httpStatus: statusCode });
	}
	if (envelope === null || typeof envelope !== 'object') {
		throw transient('HaiPay answered with JSON that is not an envelope', { httpStatus: statusCode });
	}
	const status = String(envelope.status ?? '');
	const code = said(String(envelope.error ?? ''), settings);
	const message = said(envelope.msg, settings);
	if (status !== SUCCESS_STATUS || code !== SUCCESS_CODE) {
		if (status === EXCEPTION_STATUS) throw refusal(options.kind, code, message);
		throw transient(
			`HaiPay answered an envelope it did not finish: ${message || 'no message'} (status ${status || 'none'}, error ${code || 'none'})`,
			{
				errorCode: code,
				gatewayMessage: message,
			},
		);
	}
	const data = envelope.data;
	if (typeof data === 'string')
		return { type: 'text', text: redactText(data, settings.secrets), verification: 'unverified' };
	if (data === null || typeof data !== 'object' || Array.isArray(data)) {
		throw transient('HaiPay answered success without a data object', {});
	}
	const verification = await verifySigned(data as IDataObject, settings);
	if (verification === 'invalid') {
		throw new ItemFailure(
			'signature',
			"The answer's signature does not verify with the credential's HaiPay public key",
			{},
		);
	}
	// Redacted only now: the signature covers what the gateway sent, and nothing of it is repeated before this.
	return {
		type: 'data',
		data: redactValue(withoutSign(data as IDataObject), settings.secrets) as IDataObject,
		verification,
	};
}

/** For a create, anything but a clear answer means the order may exist. */
function asCreateFailure(failure: ItemFailure): ItemFailure {
	if (failure.kind === 'rejected' || failure.kind === 'not_sent' || failure.kind === 'duplicate') return failure;
	const why = failure.kind === 'signature' ? 'its answer could not be trusted' : failure.message;
	return new ItemFailure(
		'unknown',
		`The outcome is unknown: HaiPay may have taken this order (${why})`,
		failure.details,
	);
}

async function attempt(
	ctx: GatewayContext,
	path: string,
	body: IDataObject,
	settings: HaiPaySettings,
	options: CallOptions,
): Promise<Answer> {
	const timeoutMs = attemptMs(options);
	const sent = await post(ctx, path, body, options).then(
		(response) => ({ response }),
		(error: unknown) => ({ error, code: errorCode(error) }),
	);
	if ('response' in sent) return await interpret(sent.response, settings, options);
	if (sent.error instanceof ItemFailure) throw sent.error;
	const { code } = sent;
	if (code !== undefined && NOT_SENT_CODES.has(code)) {
		throw new ItemFailure('not_sent', `Could not reach HaiPay at ${settings.baseUrl}: nothing was sent`, {
			cause: code,
		});
	}
	throw transient(`HaiPay did not answer: ${lostBecause(code, timeoutMs)}`, { cause: code });
}

/** Whether the call's deadline leaves too little for another attempt once `waitMs` has passed. */
function pastDeadline(options: CallOptions, waitMs = 0): boolean {
	return options.deadlineAt !== undefined && performance.now() + waitMs + MIN_ATTEMPT_MS > options.deadlineAt;
}

function tooLate(kind: OperationKind): ItemFailure {
	const message = `HaiPay was not asked: less than ${MIN_ATTEMPT_MS} ms remained before the deadline`;
	return new ItemFailure(sentOnce(kind) ? 'not_sent' : 'unavailable', message, { cause: 'DEADLINE' });
}

/**
 * Sends one signed request. Every kind but a read is sent exactly once. Reads are retried on time-outs, 5xx, 429 and
 * unreadable answers, with exponential backoff that honours Retry-After. With a deadline, a Retry-After or backoff
 * that would end too close to it (or past it) ends the call with the failure instead of a wait.
 */
export async function callGateway(
	ctx: GatewayContext,
	path: string,
	body: IDataObject,
	settings: HaiPaySettings,
	options: CallOptions,
): Promise<Answer> {
	const settle = async () =>
		await attempt(ctx, path, body, settings, options).then(
			(answer) => ({ answer }),
			(error: unknown) => ({
				failure: error instanceof ItemFailure ? error : new ItemFailure('unavailable', String(error)),
			}),
		);
	if (pastDeadline(options)) throw tooLate(options.kind);
	if (sentOnce(options.kind)) {
		const result = await settle();
		if ('answer' in result) return result.answer;
		throw asCreateFailure(result.failure);
	}
	for (let attemptNo = 0; ; attemptNo++) {
		const result = await settle();
		if ('answer' in result) return result.answer;
		if (result.failure.kind !== 'unavailable' || attemptNo >= options.retries) throw result.failure;
		const backoff = Math.min(500 * 2 ** attemptNo, 8000) * (0.75 + Math.random() / 2);
		const wait = result.failure.details.retryAfterMs ?? backoff;
		if (pastDeadline(options, wait)) throw result.failure;
		await sleep(wait);
	}
}
