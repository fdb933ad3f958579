import { exactText } from '../text';

/**
 * Why an item did not get a trusted answer, in terms a workflow can act on. Every failure of a create ends in
 * exactly one of `invalid`, `not_sent` (nothing left this machine), `rejected` (nothing was created),
 * `duplicate` (an order with this orderId exists), `not_found` (HaiPay said, signed, it has no such order) or
 * `unknown` (the order may exist: query it before resending).
 */
export type FailureKind =
	| 'invalid' // the item broke a rule of the contract; nothing was sent
	| 'not_sent' // the connection was never made; nothing reached the gateway
	| 'rejected' // the gateway refused the request itself (status "0" that names the request's fault)
	| 'duplicate' // the gateway refused the orderId because an order with it exists
	| 'unknown' // a create that may or may not have been taken
	| 'not_found' // a create whose outcome was unknown, and whose query HaiPay answered, signed: no such order
	| 'signature' // a read whose answer does not carry a valid HaiPay signature
	| 'untrusted' // an answer that is not proven to be about the request (another order's, not an object, too large, a redirect)
	| 'unavailable'; // a read that kept failing after its retries

/**
 * The order HaiPay already holds under a refused orderId, as its signed query shows it: what a `duplicate` item
 * carries so that a results file names the order that stands in its place.
 */
export interface ExistingOrder {
	orderNo: string;
	status?: number;
	statusLabel?: string;
	/** The amount HaiPay holds, as it wrote it: another amount means another request made that order. */
	amount?: string;
}

/** Why one item failed: a rule it broke before anything was sent, or what the gateway did or did not prove. */
export class ItemFailure extends Error {
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
			existing?: ExistingOrder;
		} = {},
	) {
		super(message);
		this.name = 'ItemFailure';
	}
}

/** Longest piece of the gateway's own text (a message, a code, an order ID it named) that a failure repeats. */
const GATEWAY_TEXT_LIMIT = 200;

/**
 * Gateway text as a failure may repeat it: at most GATEWAY_TEXT_LIMIT characters. An answer can be up to 1 MiB, and
 * a broken or hostile gateway could echo the request in it; cut this short, no whole signature (344 characters)
 * can reach an error, a log line or an output item.
 */
export function gatewayText(value: unknown): string {
	const text = exactText(value);
	return text.length > GATEWAY_TEXT_LIMIT ? `${text.slice(0, GATEWAY_TEXT_LIMIT)}…` : text;
}

/** What the workflow should do next after a failed create (payout or collection), written on every failed item. */
export const CREATE_ADVICE: Record<FailureKind, string> = {
	invalid: 'Fix the field named in the error; nothing was sent for this item.',
	not_sent:
		'Nothing reached HaiPay: it is safe to send this item again, with the same orderId, once the gateway is reachable.',
	rejected:
		'HaiPay refused this request: nothing was created. Fix the cause before sending again with the same orderId.',
	duplicate:
		'HaiPay already has an order with this orderId: nothing new was created. Query it by its orderId (Payout or Collection > Get) to learn its state; never send the same payment again under a new orderId.',
	unknown:
		'The outcome is unknown: HaiPay may have created this order. Query it by its orderId (Payout or Collection > Get) before sending it again; never resend blindly.',
	not_found:
		'HaiPay answered, signed, that it has no order with this orderId: send it again with the same orderId (HaiPay refuses a repeated orderId, so this cannot pay twice).',
	signature:
		'The outcome is unknown: the answer could not be trusted. Query the order by its orderId before sending it again, and check the HaiPay public key and the secret of the credential.',
	untrusted:
		'The outcome is unknown: the answer was not proven to be about this order. Query it by its orderId before sending it again, and check the base URL of the credential.',
	unavailable:
		'The outcome is unknown: HaiPay may have created this order. Query it by its orderId (Payout or Collection > Get) before sending it again; never resend blindly.',
};

/** What the workflow should do next after a failed read (query, voucher, balance): reads create nothing. */
export const READ_ADVICE: Record<FailureKind, string> = {
	invalid: 'Fix the field named in the error; nothing was sent for this item.',
	not_sent: 'Nothing reached HaiPay. Run the read again once the gateway is reachable.',
	rejected:
		'HaiPay refused this read. Check what it names: the App ID and currency, the secret and private key of the credential, or the order numbers asked for.',
	duplicate: 'HaiPay refused this read. Check what it names, then run the read again.',
	unknown: 'HaiPay did not answer usably. Run the read again later.',
	not_found: 'HaiPay has no such order.',
	signature:
		"The answer's signature does not verify with the HaiPay public key of the credential: its data was not trusted. Check the key and the secret.",
	untrusted:
		"HaiPay's answer was not about what was asked (or was a redirect, or too large), so it was not trusted. Check the base URL of the credential.",
	unavailable: 'HaiPay did not answer usably after the retries. Run the read again later.',
};

/** The outcome a failed create reports: every way of not knowing is `unknown`. */
export function createOutcome(kind: FailureKind): FailureKind {
	return kind === 'signature' || kind === 'untrusted' || kind === 'unavailable' ? 'unknown' : kind;
}
