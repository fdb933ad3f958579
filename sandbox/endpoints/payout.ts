import { ERROR_CODES } from '../constants';
import { magicOf, UNKNOWN_BANK_CODE } from '../faults';
import { SCHEMAS, type SchemaName } from '../schemas';
import { fail, lostAnswer, pick, planOf, type Endpoint, type Handler } from './shared';

/**
 * `/{ccy}/pay/apply`: every currency with a payout schema, `<ccy>PayApply` (schemas/index.ts): the contract's, then
 * the rails HaiPay's pages describe, each with its own request schema.
 */
export const PAYOUT_APPLY: Record<string, SchemaName> = Object.fromEntries(
	(Object.keys(SCHEMAS) as SchemaName[]).flatMap((name) => {
		const currency = /^([a-z]+)PayApply$/.exec(name)?.[1];
		return currency === undefined ? [] : [[currency.toUpperCase(), name]];
	}),
);

/** The payout answers whose `data` carries `payUrl`, empty: NGN (contract 4.4) and USD (HaiPay's USD page). */
const WITH_PAY_URL = new Set(['NGN', 'USD']);

const payoutApply: Handler = (gateway, merchant, request) => {
	const magic = magicOf(request.name);
	if (magic?.kind === 'reject') return fail(magic.code, magic.message);
	if (request.bankCode === UNKNOWN_BANK_CODE)
		return fail(ERROR_CODES.unknownChannel, `channel code does not exist: bankCode ${UNKNOWN_BANK_CODE}`);
	const order = gateway.book.create({
		merchant,
		kind: 'payout',
		orderId: request.orderId as string,
		amount: request.amount as string,
		status: gateway.config.processingMs > 0 && !gateway.config.manual ? 0 : 1,
		...planOf(magic),
		fields: pick(request, [
			'notifyUrl',
			'subject',
			'body',
			'name',
			'accountNo',
			'accountType',
			'bankCode',
			'partnerUserId',
		]),
	});
	gateway.placed(order);
	const data: Record<string, unknown> = { orderId: order.orderId, orderNo: order.orderNo };
	if (WITH_PAY_URL.has(merchant.currency)) data.payUrl = '';
	return { type: 'ok', merchant, data, lose: lostAnswer(magic) };
};

export const PAYOUT_ENDPOINTS: Endpoint[] = Object.entries(PAYOUT_APPLY).map(([currency, schema]) => ({
	path: `/${currency.toLowerCase()}/pay/apply`,
	currency,
	schema,
	handle: payoutApply,
}));
