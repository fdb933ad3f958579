import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { ACKNOWLEDGEMENT, IDENTIFYING_FIELDS } from '../shared/contract/callback';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/** What HaiPay reads when a callback could not be confirmed yet: not SUCCESS, so it sends the callback again. */
export const NOT_YET = 'Not confirmed yet: send it again later';
/** What HaiPay reads for a callback whose signed string could be read as other fields. */
export const AMBIGUOUS = 'Rejected: the signed fields are ambiguous';

/**
 * Every answer but an emission's is written here rather than left to n8n, so that HaiPay always reads plain text:
 * `SUCCESS`, or a short reason with 401 or 413 (refused), 422 (ambiguous) or 503 (not confirmed yet).
 */
function answer(res: Response, code: number, text: string): void {
	res.status(code);
	res.setHeader('Content-Type', 'text/plain; charset=utf-8');
	res.end(text);
}

/** A received value as it may appear in a log line: short, on one line. */
export function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
	let line = '';
	for (const character of text.slice(0, 64)) {
		const code = character.charCodeAt(0);
		line += code < 0x20 || code === 0x7f ? ' ' : character;
	}
	return text.length > 64 ? `${line}…` : line;
}

/** Identifying fields of a callback for a log line; never its signature, never a key. */
export function logContext(body: Record<string, unknown> | undefined): IDataObject {
	if (body === undefined) return {};
	const context: IDataObject = { fields: Object.keys(body).slice(0, 40).map(shown).join(',') };
	for (const name of IDENTIFYING_FIELDS) {
		if (body[name] !== undefined) context[name] = shown(body[name]);
	}
	return context;
}

/** The three answers a callback can get without starting the workflow, each logged with why. */
export interface Replies {
	/** Refused: HaiPay sends it again, and a forged one never gets through. */
	refuse(code: number, text: string, why: string, extra?: IDataObject): IWebhookResponseData;
	/** SUCCESS, so HaiPay stops sending it, though nothing runs. */
	acknowledge(why: string): IWebhookResponseData;
	/** Not yet: HaiPay sends it again later. */
	notYet(code: number, text: string, why: string): IWebhookResponseData;
}

export function repliesFor(ctx: IWebhookFunctions, context: IDataObject): Replies {
	const res = ctx.getResponseObject();
	const done = (code: number, text: string): IWebhookResponseData => {
		answer(res, code, text);
		return { noWebhookResponse: true };
	};
	return {
		refuse(code, text, why, extra = {}) {
			ctx.logger.warn(`HaiPay Trigger refused a callback with ${code}: ${why}`, { ...context, ...extra });
			return done(code, text);
		},
		acknowledge(why) {
			ctx.logger.info(`HaiPay Trigger acknowledged a callback without starting the workflow: ${why}`, context);
			return done(200, ACKNOWLEDGEMENT);
		},
		notYet(code, text, why) {
			ctx.logger.warn(`HaiPay Trigger answered a callback with ${code}, so HaiPay sends it again: ${why}`, context);
			return done(code, text);
		},
	};
}
