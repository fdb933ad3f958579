import {
	amount,
	appId,
	email,
	fullName,
	nonEmptyText,
	orderId,
	partnerUserId,
	phone,
	sign,
	text,
	url,
	type Schema,
} from './common';

/**
 * HaiPay's stablecoin collection (usdtc API reference, usdcCollectApply; version2 coinpay, which lists USDT and USDC
 * under one table): "firstName lastName", the page's amount pattern `^\d+\.?\d{0,2}$` and its range 0.01-5,000,000,
 * a client type from the page's list, and `currency`, the fiat the amount is priced in or the coin itself. The
 * version2 page's "numeric" partnerUserId is the English reference's letters, digits and symbols here, as the wider.
 */
export function coinCollectApply(): Schema {
	return {
		type: 'object',
		required: [
			'appId',
			'orderId',
			'name',
			'phone',
			'email',
			'amount',
			'payType',
			'inBankCode',
			'callBackUrl',
			'callBackFailUrl',
			'clientType',
			'currency',
			'partnerUserId',
			'sign',
		],
		properties: {
			appId,
			orderId,
			name: fullName,
			phone,
			email,
			amount: amount('^\\d+\\.?\\d{0,2}$', { min: '0.01', max: '5000000' }),
			payType: nonEmptyText,
			inBankCode: nonEmptyText,
			callBackUrl: url,
			callBackFailUrl: url,
			clientType: { type: 'string', enum: ['APP', 'WEB', 'WAP', 'MINIAPP', 'OTHERS'] },
			currency: nonEmptyText,
			partnerUserId,
			sign,
			notifyUrl: url,
			subject: text,
			body: text,
		},
	};
}

/** `/usdt/collect/apply`. */
export const usdtCollectApply: Schema = coinCollectApply();
