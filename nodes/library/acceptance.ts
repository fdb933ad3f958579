import type { IDataObject } from 'n8n-workflow';

import { SUCCESS_CODE, SUCCESS_STATUS } from '../shared/contract/envelope';
import { plainDecimal } from '../shared/decimal';
import { whyNotAccepted } from '../shared/products/judge';
import { PAYOUT_ORDER } from '../shared/products/order';
import { REFUND } from '../shared/products/refund';
import type { Asked, Product } from '../shared/products/types';
import { verify } from '../shared/signing/signature';
import { withoutSign } from '../shared/signing/verification';
import { isPlainObject, parsedJson, SigningError, verifyingFrom } from './inputs';
import type { VerifyOptions } from './signing';

/*
 * A signed answer is not yet an acceptance: HaiPay signs its "no such order" answers too, and they name the orderId
 * asked for. A merchant's server that took `verifyAnswer` alone as "HaiPay took my payout" would do what the node
 * once did with a replayed "no such order". This is the node's own judge (shared/products/judge.ts), for code
 * outside n8n.
 */

/** What a create's answer must show, beside the signature: whose request it answers, and what HaiPay made. */
export interface AcceptanceOptions extends VerifyOptions {
	/** The `orderId` the create was sent with (a refund's own refund ID). */
	orderId: string;
	/** HaiPay's identifier for what the create makes: `orderNo` (payouts, collections; the default) or `refundNo` (refunds). */
	identifier?: 'orderNo' | 'refundNo';
	/** The amount the create was sent with: an answer naming another amount is about another request. */
	amount?: string;
	/** For a refund: the collection's orderNo it asked to refund; an answer about another payment is no acceptance. */
	orderNo?: string;
}

const PRODUCTS: Record<string, Product> = { orderNo: PAYOUT_ORDER, refundNo: REFUND };

/**
 * True only when a create's answer is HaiPay's acceptance of that create, as the node decides it: the envelope says
 * success (`status` "1", `error` "00000000"), its `data` carries HaiPay's signature over every member but `sign`,
 * names the `orderId` sent, carries HaiPay's `orderNo` (or `refundNo`), and states no failed or not-found status.
 * Takes the answer envelope or its text (string or Buffer). `false` for anything else received: then query the
 * order before sending it again, never resend it blindly.
 */
export async function verifyAcceptance(answer: unknown, options: AcceptanceOptions): Promise<boolean> {
	const { secretKey, publicKey, arrayStyle } = verifyingFrom(options);
	const orderId = options.orderId;
	if (typeof orderId !== 'string' || orderId.trim() === '')
		throw new SigningError('orderId is missing: pass the orderId the create was sent with.');
	const product = PRODUCTS[options.identifier ?? 'orderNo'];
	if (product === undefined) throw new SigningError('identifier must be "orderNo" or "refundNo".');
	if (product === REFUND && (typeof options.orderNo !== 'string' || options.orderNo.trim() === ''))
		throw new SigningError('orderNo is missing: pass the orderNo of the collection the refund was asked for.');
	const asked: Asked = {
		ownId: orderId,
		...(plainDecimal(options.amount) !== undefined ? { amount: plainDecimal(options.amount) } : {}),
		...(product === REFUND ? { payment: options.orderNo } : {}),
	};
	const envelope = typeof answer === 'string' || Buffer.isBuffer(answer) ? parsedJson(answer) : answer;
	if (
		!isPlainObject(envelope) ||
		String(envelope.status ?? '') !== SUCCESS_STATUS ||
		String(envelope.error ?? '') !== SUCCESS_CODE
	)
		return false;
	const data = envelope.data;
	if (!isPlainObject(data) || !(await verify(data, data.sign, secretKey, publicKey, { arrayStyle }))) return false;
	return (
		whyNotAccepted(
			product,
			{ type: 'data', data: withoutSign(data) as IDataObject, verification: 'verified' },
			asked,
		) === undefined
	);
}
