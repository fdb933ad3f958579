import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { ACKNOWLEDGEMENT, IDENTIFYING_FIELDS } from '../shared/contract/callback';
import { redactText } from '../shared/gateway/redact';
import type { BodyProblem, ScanResult, ScannedBody } from '../shared/callback/body';
import { carrying } from './hooks';
import { shown, SHOWN } from './shown';

/*
 * The trigger's last step: what HaiPay reads back, and the log line that says why. Every answer but an emission's
 * is written here rather than left to n8n, so that HaiPay always reads plain text: `SUCCESS`, or a short reason
 * with 401 or 413 (refused), 422 (ambiguous) or 503 (not confirmed yet). An emission's `SUCCESS` n8n sends once
 * the execution is stored.
 */

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/** Why a callback was refused. Each one starts no execution, and HaiPay, which reads no SUCCESS, sends it again. */
export type RejectReason =
	BodyProblem | 'appIdMismatch' | 'noAppIdInCredential' | 'noPublicKey' | 'unreadablePublicKey' | 'badSignature';

/** What the caller of the URL is told: enough to debug a misconfiguration, nothing about the keys. */
const REJECTION_TEXT: Record<RejectReason, string> = {
	notJson: 'Rejected: the body is not a JSON object',
	tooLarge: 'Rejected: the body is too large',
	tooManyFields: 'Rejected: the body has too many fields',
	duplicateField: 'Rejected: a field appears more than once',
	appIdMismatch: 'Rejected: appId does not match',
	noAppIdInCredential: 'Rejected: callback cannot be checked',
	noPublicKey: 'Rejected: callback cannot be checked',
	unreadablePublicKey: 'Rejected: callback cannot be checked',
	badSignature: 'Rejected: signature is not valid',
};

/** The HTTP status of each refusal: 413 for a body refused by size before it is read, 401 otherwise. */
const REJECTION_STATUS: Record<RejectReason, number> = {
	notJson: 401,
	tooLarge: 413,
	tooManyFields: 413,
	duplicateField: 401,
	appIdMismatch: 401,
	noAppIdInCredential: 401,
	noPublicKey: 401,
	unreadablePublicKey: 401,
	badSignature: 401,
};

/** What HaiPay reads when a callback could not be confirmed yet: not SUCCESS, so it sends the callback again. */
export const NOT_YET = 'Not confirmed yet: send it again later';
/** What HaiPay reads for a copy of a callback whose first delivery n8n is still storing: its outcome decides the next. */
export const STILL_STORING = 'Not yet: the first delivery of this callback is still being stored; send it again later';
/** What HaiPay reads for a callback whose signed string could be read as other fields. */
export const AMBIGUOUS = 'Rejected: the signed fields are ambiguous';

/**
 * A received value as a log line shows it, the credential's secrets redacted first (a secret cut short would no
 * longer be found). Only the start the line shows is redacted, never the whole value: an unverified body may be 64 KB
 * of text, and its refusal must not cost a redaction of all of it for every secret. Any echo of a secret that starts
 * in the 64 characters shown is at most 12 characters a unit long (`%F0%9F%98%80`, `\ud83d`), so it lies whole in
 * the window; the window grows while redaction could shrink it enough to bring unredacted text into view.
 */
export function shownRedacted(value: unknown, secrets: readonly string[]): string {
	if (secrets.length === 0) return shown(value);
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	const reach = 12 * Math.max(...secrets.map((secret) => secret.length));
	for (let window = SHOWN + 2 * reach; ; window *= 2) {
		const redacted = redactText(text.slice(0, window), secrets);
		if (window >= text.length || redacted.length >= SHOWN + reach) return shown(redacted);
	}
}

/**
 * Field names for a log line, redacted in one pass when none is cut short or holds the separator: a pass per name
 * made a forged body of many fields cost three times a small one to refuse (a match across a separator only hides
 * more).
 */
function shownNames(names: string[], secrets: readonly string[]): string {
	if (secrets.length === 0 || names.some((name) => name.length > SHOWN || name.includes(',')))
		return names.map((name) => shownRedacted(name, secrets)).join(',');
	return redactText(names.join(','), secrets).split(',').map(shown).join(',');
}

/**
 * Identifying fields of a callback for a log line, redacted as shown; never its signature, never a key. Each value
 * is decoded alone, as signed: a refused body is never decoded whole for its log line.
 */
function logContext(body: ScannedBody | undefined, secrets: readonly string[]): IDataObject {
	if (body === undefined) return {};
	const context: IDataObject = { fields: shownNames(body.names(40), secrets) };
	for (const name of IDENTIFYING_FIELDS) {
		const value = body.signedValue(name);
		if (value !== undefined) context[name] = shownRedacted(value, secrets);
	}
	return context;
}

function answer(res: Response, code: number, text: string): IWebhookResponseData {
	res.status(code);
	res.setHeader('Content-Type', 'text/plain; charset=utf-8');
	res.end(text);
	return { noWebhookResponse: true };
}

/** Every answer a callback can get, each logged with why. */
interface Replies {
	/** Refused: HaiPay sends it again, and a forged one never gets through. */
	refuse(reason: RejectReason, why: string): IWebhookResponseData;
	/** SUCCESS, so HaiPay stops sending it, though nothing runs. */
	acknowledge(why: string): IWebhookResponseData;
	/** 422: its signed string could be read as other fields; HaiPay sends it again. */
	ambiguous(why: string): IWebhookResponseData;
	/** 503: the same callback's first delivery is still being stored, and whether its workflow started is not known yet. */
	stillStoring(why: string): IWebhookResponseData;
	/** Confirm With HaiPay got no trusted answer yet (503, HaiPay sends it again), or HaiPay's state is another (SUCCESS). */
	unconfirmed(confirmation: { result: 'retry' | 'stale'; log: string }): IWebhookResponseData;
	/**
	 * Starts the workflow with the item; n8n answers SUCCESS once the execution is stored. `resave` writes the
	 * repeat memory again while n8n stores the item (hooks.ts `carrying`, hook 2).
	 */
	emit(item: IDataObject, verified: boolean, resave?: () => void): IWebhookResponseData;
	/**
	 * From now on every log line of this request has `secrets` (the credential's, once read) redacted, whatever the
	 * callback echoes. Costs nothing until a line is logged, and then only the few short values the line shows.
	 */
	hide(secrets: readonly string[]): void;
}

/** The answers to this request, logged with the identifying fields of what it received. */
export function repliesFor(ctx: IWebhookFunctions, scanned: ScanResult): Replies {
	const res = ctx.getResponseObject();
	const signed = scanned.ok ? scanned.body : undefined;
	let hidden: readonly string[] = [];
	// Made when a line is logged, from the secrets known then: nothing is redacted for a line never written.
	let made: { context: IDataObject; secrets: readonly string[] } | undefined;
	const contextNow = () => {
		if (made?.secrets !== hidden) made = { context: logContext(signed, hidden), secrets: hidden };
		return made.context;
	};
	const clean = (text: string) => (hidden.length > 0 ? redactText(text, hidden) : text);
	const notYet = (code: number, text: string, why: string) => {
		ctx.logger.warn(
			clean(`HaiPay Trigger answered a callback with ${code}, so HaiPay sends it again: ${why}`),
			contextNow(),
		);
		return answer(res, code, text);
	};
	const acknowledge = (why: string) => {
		ctx.logger.info(
			clean(`HaiPay Trigger acknowledged a callback without starting the workflow: ${why}`),
			contextNow(),
		);
		return answer(res, 200, ACKNOWLEDGEMENT);
	};
	return {
		refuse(reason, why) {
			const code = REJECTION_STATUS[reason];
			ctx.logger.warn(clean(`HaiPay Trigger refused a callback with ${code}: ${why}`), { ...contextNow(), reason });
			return answer(res, code, REJECTION_TEXT[reason]);
		},
		acknowledge,
		ambiguous: (why) => notYet(422, AMBIGUOUS, why),
		stillStoring: (why) => notYet(503, STILL_STORING, why),
		unconfirmed({ result, log }) {
			const why = `not confirmed with HaiPay: ${log}`;
			return result === 'retry' ? notYet(503, NOT_YET, why) : acknowledge(why);
		},
		emit(item, verified, resave) {
			if (!verified) {
				ctx.logger.warn(
					'HaiPay Trigger accepted a callback without checking its signature: verification is turned off',
					contextNow(),
				);
			}
			return { webhookResponse: ACKNOWLEDGEMENT, workflowData: [[carrying({ json: item }, resave)]] };
		},
		hide(secrets) {
			hidden = secrets;
		},
	};
}
