import type { IDataObject } from 'n8n-workflow';

import type { HaiPaySettings } from '../HaiPay/transport/settings';
import { statusGroup, statusLabel } from '../HaiPay/transport/status';
import { KeyFormatError } from '../HaiPay/transport/keys';
import { verifySigned, withoutSign } from '../HaiPay/transport/verification';
import { filteredOutBy, kindOf, type TriggerFilters } from './filters';

/** Why a callback was refused with 401. Each one starts no execution. */
export type RejectReason =
	| 'notJson'
	| 'appIdMismatch'
	| 'noAppIdInCredential'
	| 'noPublicKey'
	| 'unreadablePublicKey'
	| 'badSignature';

export type Assessment =
	| { action: 'reject'; reason: RejectReason; log: string }
	| { action: 'acknowledge'; log: string }
	| { action: 'emit'; item: IDataObject };

export interface TriggerOptions extends TriggerFilters {
	verifySignature: boolean;
	includeRawBody: boolean;
}

/** What the caller of the URL is told on a 401: enough to debug a misconfiguration, nothing about the keys. */
export const REJECTION_TEXT: Record<RejectReason, string> = {
	notJson: 'Rejected: the body is not a JSON object',
	appIdMismatch: 'Rejected: appId does not match',
	noAppIdInCredential: 'Rejected: callback cannot be checked',
	noPublicKey: 'Rejected: callback cannot be checked',
	unreadablePublicKey: 'Rejected: callback cannot be checked',
	badSignature: 'Rejected: signature is not valid',
};

export interface ReceivedBody {
	body: Record<string, unknown>;
	/** The text as it arrived, when n8n kept it; otherwise the parsed body serialised again. */
	text: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/**
 * The callback as a flat object. The raw bytes are preferred over n8n's parse, because n8n parses by
 * Content-Type and a gateway may label JSON as text/plain; anything that is not one JSON object is refused.
 */
export function readBody(rawBody: unknown, parsed: unknown): ReceivedBody | undefined {
	if (Buffer.isBuffer(rawBody) && rawBody.length > 0) {
		const text = rawBody.toString('utf8');
		try {
			const body: unknown = JSON.parse(text);
			return isPlainObject(body) ? { body, text } : undefined;
		} catch {
			return undefined;
		}
	}
	if (typeof parsed === 'string') return readBody(Buffer.from(parsed, 'utf8'), undefined);
	if (isPlainObject(parsed) && Object.keys(parsed).length > 0) return { body: parsed, text: JSON.stringify(parsed) };
	return undefined;
}

/** Replaces the value of every `"sign"` member in JSON text, so the raw body can be shown without the signature. */
export function redactSign(text: string): string {
	return text.replace(/("sign"\s*:\s*)"(?:[^"\\]|\\.)*"/g, '$1"[redacted]"');
}

function sameAppId(received: unknown, expected: number): boolean {
	if (typeof received === 'number') return received === expected;
	if (typeof received === 'string' && /^\s*\d+\s*$/.test(received)) return Number(received) === expected;
	return false;
}

function tokenOf(body: Record<string, unknown>): unknown {
	for (const name of ['tokenID', 'tokenId', 'tokenid', 'token_id']) {
		const value = body[name];
		if (typeof value === 'string' && value.trim() !== '') return value;
	}
	return null;
}

/**
 * Decides what happens to one received callback: refused (401), acknowledged without a run, or emitted.
 * Pure, so that every branch is testable without n8n; duplicates are decided by the caller, which owns the state.
 */
export function assess(
	received: ReceivedBody | undefined,
	settings: HaiPaySettings,
	options: TriggerOptions,
): Assessment {
	if (received === undefined) {
		return { action: 'reject', reason: 'notJson', log: 'the body is not a JSON object' };
	}
	const { body } = received;
	if (!Number.isSafeInteger(settings.appId) || settings.appId <= 0) {
		return {
			action: 'reject',
			reason: 'noAppIdInCredential',
			log: 'the HaiPay credential has no App ID to compare the callback with',
		};
	}
	if (!sameAppId(body.appId, settings.appId)) {
		return {
			action: 'reject',
			reason: 'appIdMismatch',
			log: `the callback's appId is not the credential's App ID ${settings.appId}`,
		};
	}

	let verified = false;
	if (options.verifySignature) {
		if (settings.haipayPublicKey === '') {
			return {
				action: 'reject',
				reason: 'noPublicKey',
				log: 'the HaiPay credential has no HaiPay public key, so the signature cannot be checked; add the platform public key from the merchant backend to the credential',
			};
		}
		let outcome;
		try {
			outcome = verifySigned(body, settings);
		} catch (error) {
			// Only key parsing can fail here; its message names the formats tried, never the key text.
			const why = error instanceof KeyFormatError ? ` (${error.message})` : '';
			return {
				action: 'reject',
				reason: 'unreadablePublicKey',
				log: `the HaiPay public key in the credential could not be read${why}`,
			};
		}
		if (outcome !== 'verified') {
			const hint = settings.secretKey === '' ? ' (the credential has no secret key)' : '';
			const missing = typeof body.sign !== 'string' || body.sign === '' ? 'the signature is missing' : 'the signature does not match';
			return { action: 'reject', reason: 'badSignature', log: `${missing}${hint}` };
		}
		verified = true;
	}

	const filteredOut = filteredOutBy(body, options, settings.currency);
	if (filteredOut !== undefined) return { action: 'acknowledge', log: filteredOut };

	const kind = kindOf(body, options.kind);
	const item: IDataObject = { ...(withoutSign(body) as IDataObject) };
	if (kind !== 'payout' || tokenOf(body) !== null) item.tokenID = tokenOf(body) as IDataObject[string];
	item.statusLabel = statusLabel(body.status, kind === 'unknown' ? undefined : kind) ?? null;
	item.statusGroup = statusGroup(body.status);
	item.kind = kind;
	item.verified = verified;
	if (options.includeRawBody) item.rawBody = redactSign(received.text);
	return { action: 'emit', item };
}
