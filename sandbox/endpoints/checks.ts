import { ERROR_CODES } from '../constants';
import type { Merchant } from '../merchants';
import { validate } from '../schemas';
import { verifyBody } from '../signing';
import type { GatewayConfig, Outcome } from '../types';
import { fail, type Endpoint } from './shared';

export type Checked = { merchant: Merchant; request: Record<string, unknown> } | { refusal: Outcome };

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

/** The merchant an appId names, if this environment knows it and it may use this endpoint's currency. */
function merchantOf(
	config: GatewayConfig,
	endpoint: Endpoint,
	path: string,
	request: Record<string, unknown>,
): Merchant | Outcome {
	if (isBlank(request.appId)) return fail(ERROR_CODES.validation, 'appId is required');
	if (!Number.isInteger(request.appId)) return fail(ERROR_CODES.validation, 'appId must be of type integer');
	const merchant = config.merchants.get(request.appId as number);
	if (!merchant || merchant.environment !== config.environment) {
		return fail(
			ERROR_CODES.unknownAppId,
			`appId ${String(request.appId)} is not registered in the ${config.environment} environment`,
		);
	}
	if (endpoint.currency && merchant.currency !== endpoint.currency) {
		return fail(
			ERROR_CODES.currencyMismatch,
			`appId ${merchant.appId} belongs to currency ${merchant.currency}, not ${endpoint.currency} (path ${path})`,
		);
	}
	return merchant;
}

/**
 * What every request goes through before its endpoint sees it, in the gateway's order: a JSON object, a known
 * appId of the path's currency, a signature that verifies, then the endpoint's schema.
 */
export function checkRequest(config: GatewayConfig, endpoint: Endpoint, path: string, body: unknown): Checked {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		return { refusal: fail(ERROR_CODES.badRequest, 'request body must be a JSON object') };
	}
	const request = body as Record<string, unknown>;
	const merchant = merchantOf(config, endpoint, path, request);
	if ('type' in merchant) return { refusal: merchant };
	if (isBlank(request.sign)) return { refusal: fail(ERROR_CODES.signature, 'sign is required') };
	if (
		typeof request.sign !== 'string' ||
		!verifyBody(request, request.sign, merchant.secretKey, merchant.publicKey, merchant.arrayStyle)
	) {
		return {
			refusal: fail(ERROR_CODES.signature, 'sign does not verify with the public key and secret of this appId'),
		};
	}
	const valid = validate(endpoint.schema, request);
	if (!valid.ok) return { refusal: fail(ERROR_CODES.validation, valid.message) };
	return { merchant, request };
}
