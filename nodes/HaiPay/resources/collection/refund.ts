import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { provenOutcome } from '../../../shared/gateway/kinds';
import { createSafetyNotice, currencyParameter } from '../../descriptions/fields';
import { parameterFor } from '../../descriptions/fromRules';
import { currencyOf, prepareCreate } from '../../execute/prepare';
import { refundItem } from '../../execute/present';
import type { Operation } from '../../execute/types';

const scope = { resource: 'collection', operation: 'refund' };
const { currencies, rules, makes } = ENDPOINTS.refundApply;
const displayOptions = { show: { resource: [scope.resource], operation: [scope.operation] } };

/** A failed refund's advice speaks of its Refund ID and of Get Refund. */
const REFUND_ADVICE = {
	not_sent:
		'Nothing reached HaiPay: it is safe to send this refund again, with the same Refund ID, once the gateway is reachable.',
	rejected:
		'HaiPay refused this refund: nothing was created. Fix the cause before sending it again with the same Refund ID.',
	duplicate:
		'HaiPay already has a refund with this Refund ID: nothing new was created. Query it (Collection > Get Refund) to learn its state; never refund the same payment again under a new Refund ID.',
	unknown:
		'The outcome is unknown: HaiPay may have taken this refund. Query it by its Refund ID (Collection > Get Refund) before anything else; never send it again blindly.',
	not_found: 'HaiPay answered, signed, that it has no such refund: send it again with the same Refund ID.',
};

const notice: INodeProperties = {
	displayName:
		"HaiPay refunds the whole card payment. Its answer says it took the refund, not how the refund ends: HaiPay asks merchants to confirm with the refund query (Collection → Get Refund). The refund's status values are not published, so the node shows status as HaiPay sends it.",
	name: 'refundNotice',
	type: 'notice',
	default: '',
	displayOptions,
};

/** Collection → Refund: a create, sent once, its open outcome settled by the refund query, never sent twice. */
export const refundCollection: Operation = {
	...scope,
	selector: { name: 'Refund', description: 'Refund a paid USD card collection, whole', action: 'Refund a collection' },
	kind: 'refund',
	makes,
	properties: [
		createSafetyNotice(scope.resource, scope.operation, 'Refund ID'),
		currencyParameter(
			scope.resource,
			scope.operation,
			currencies,
			'Card refunds are in USD. Use a credential whose App ID belongs to USD.',
		),
		notice,
		...rules.USD.fields.map((rule): INodeProperties => ({ ...parameterFor(rule), required: true, displayOptions })),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, currencies);
		return prepareCreate(ctx, itemIndex, rules.USD, currency, false);
	},
	uniqueFields: ['orderId', 'orderNo'],
	advice: REFUND_ADVICE,
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: refundItem(answer, prepared, { outcome: provenOutcome('refund') }) };
	},
};
