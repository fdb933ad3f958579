/**
 * Why a call did not give a trusted answer, in terms a workflow can act on. Every failure of a create ends in
 * exactly one of `rejected` (nothing was created), `not_sent` (nothing left this machine) or `unknown`
 * (the order may exist: query it before resending).
 */
export type FailureKind =
	| 'invalid' // the item broke a rule of the contract; nothing was sent
	| 'not_sent' // the connection was never made; nothing reached the gateway
	| 'rejected' // the gateway answered status "0"
	| 'unknown' // a create that may or may not have been taken
	| 'duplicate' // the gateway refused the orderId because an order with it exists
	| 'signature' // a read whose answer does not carry a valid HaiPay signature
	| 'untrusted' // an answer that is not proven to be about the request (another order's, or not an object)
	| 'unavailable'; // a read that kept failing after its retries

export class GatewayFailure extends Error {
	constructor(
		readonly kind: FailureKind,
		message: string,
		readonly details: {
			errorCode?: string;
			gatewayMessage?: string;
			field?: string;
			rule?: string;
			httpStatus?: number;
			cause?: string;
			retryAfterMs?: number;
		} = {},
	) {
		super(message);
		this.name = 'GatewayFailure';
	}
}

/** What the workflow should do next, written on every failed item. */
export const ADVICE: Record<FailureKind, string> = {
	invalid: 'Fix the field named in the error; nothing was sent for this item.',
	not_sent: 'Nothing reached HaiPay: it is safe to send this item again once the gateway is reachable.',
	rejected: 'HaiPay refused this request: nothing was created. Fix the cause before sending again with the same orderId.',
	unknown:
		'The outcome is unknown: HaiPay may have created this order. Query it by its orderId (Payout or Collection > Get) before sending it again; never resend blindly.',
	duplicate:
		'HaiPay already has an order with this orderId: nothing new was created. Query it by its orderId (Payout or Collection > Get) to learn its state; do not send it again under a new orderId unless that order failed.',
	untrusted: "HaiPay's answer was not about this request, so it was not trusted. Check the base URL of the credential.",
	signature:
		"The answer's signature does not verify with the HaiPay public key of the credential: its data was not trusted. Check the key and the secret.",
	unavailable: 'HaiPay did not answer usably after the retries. Try again later.',
};
