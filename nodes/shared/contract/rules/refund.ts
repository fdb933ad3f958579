import { REFUND_APPLY_PATH } from '../paths';
import { ORDER_ID_MAX_LENGTH, ORDER_NO_MAX_LENGTH } from './reads';
import type { RequestRules } from './types';

/*
 * A card refund (docs/haipay-facts.md, "Card refunds"): the merchant's own refund number, sent as `orderId`, and the
 * platform order number of the paid USD card collection. No amount: a refund returns the whole payment.
 */
export const REFUND_RULES: RequestRules = {
	path: REFUND_APPLY_PATH,
	additionalProperties: true,
	fields: [
		{
			name: 'orderId',
			displayName: 'Refund ID',
			required: true,
			maxLength: ORDER_ID_MAX_LENGTH,
			identifier: true,
			description:
				'Your unique ID for this refund (at most 48 characters), sent to HaiPay as orderId. Take it from your data, never generate it here: it is what stops a refund from being sent twice.',
			placeholder: 'REFUND-2026-000123',
		},
		{
			name: 'orderNo',
			displayName: 'Collection Order Number',
			required: true,
			maxLength: ORDER_NO_MAX_LENGTH,
			description:
				"HaiPay's order number (orderNo) of the paid card collection to refund. The whole payment is refunded.",
			placeholder: 'HP202605010000000001',
		},
	],
};

/** The refund query's keys: the refund number HaiPay gave (faster), the merchant's refund ID, or both. */
export const REFUND_QUERY_KEYS = ['orderId', 'refundNo'] as const;

/** What a refund answer holds, the apply's and the query's alike (docs/haipay-facts.md). */
export const REFUND_ANSWER = ['appId', 'orderNo', 'orderId', 'refundNo', 'status', 'errorMsg'] as const;
