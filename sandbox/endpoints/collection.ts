import { randomBytes } from 'crypto';

import { ERROR_CODES } from '../constants';
import { magicOf } from '../faults';
import type { MitInfo } from '../orders';
import { fail, lostAnswer, pick, planOf, type Endpoint, type Handler } from './shared';

/**
 * `/usd/mit/apply`: a card collection. Without a tokenID the payer pays on the cashier page (status 0 until then);
 * with the tokenID an earlier payment issued, the stored card is charged at once (status 1).
 */
const mitApply: Handler = (gateway, merchant, request) => {
	const magic = magicOf(request.name);
	if (magic?.kind === 'reject') return fail(magic.code, magic.message);
	const tokenID = typeof request.tokenID === 'string' && request.tokenID !== '' ? request.tokenID : undefined;
	const redirects = pick(request, ['callBackUrl', 'callBackFailUrl', 'cancelUrl']);
	let mit: MitInfo;
	if (tokenID !== undefined) {
		const token = gateway.book.tokens.get(tokenID);
		if (!token || token.appId !== merchant.appId) {
			return fail(ERROR_CODES.unknownToken, 'tokenID is unknown or belongs to another appId');
		}
		mit = { clientToken: '', viaToken: true, tokenID, ...redirects };
	} else {
		mit = {
			clientToken: `ct_${randomBytes(16).toString('hex')}`,
			viaToken: false,
			loadingType: request.loadingType as number | undefined,
			...redirects,
		};
	}
	const order = gateway.book.create({
		merchant,
		kind: 'collection',
		orderId: request.orderId as string,
		amount: request.amount as string,
		status: mit.viaToken ? 1 : 0,
		...planOf(magic),
		fields: pick(request, ['notifyUrl', 'subject', 'body', 'name', 'partnerUserId']),
		mit,
	});
	gateway.placed(order);
	const data = {
		orderId: order.orderId,
		orderNo: order.orderNo,
		payUrl: order.mit?.viaToken ? '' : gateway.cashierUrl(order),
		clientToken: order.mit?.clientToken ?? '',
	};
	return { type: 'ok', merchant, data, lose: lostAnswer(magic) };
};

export const COLLECTION_ENDPOINTS: Endpoint[] = [
	{ path: '/usd/mit/apply', currency: 'USD', schema: 'usdMitApply', handle: mitApply },
];
