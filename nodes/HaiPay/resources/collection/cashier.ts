import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { CASHIER_RULES, TRANSACTION_CURRENCY } from '../../../shared/contract/rules/cashierCollection';
import { provenOutcome } from '../../../shared/gateway/kinds';
import { createSafetyNotice } from '../../descriptions/fields';
import { additionalFields, fieldsFromParameter, requiredParameters } from '../../descriptions/fromRules';
import { prepareCreate } from '../../execute/prepare';
import { refuseOtherCurrency } from '../../execute/rowCurrency';
import { dataItem } from '../../execute/present';
import type { Operation } from '../../execute/types';

const scope = { resource: 'collection', operation: 'createCashier' };
const endpoint = ENDPOINTS.cashierApply;
const rules = { CASHIER: CASHIER_RULES };

/**
 * The query that settles a cashier order needs HaiPay's orderNo: after a lost answer the merchant must find it
 * (backend, callback) before anything else, and the advice says so instead of pointing at a query that cannot run.
 */
const CASHIER_ADVICE = {
	duplicate:
		"HaiPay already has a cashier order with this orderId: nothing new was created. Find its orderNo (HaiPay's merchant backend, or its callback) and read it with Collection > Get Cashier Payment; never send the same payment again under a new orderId.",
	unknown:
		"The outcome is unknown: HaiPay may have created this cashier order, and its query needs HaiPay's orderNo, which only HaiPay's answer carries. Find the order by its orderId in HaiPay's merchant backend, or wait for its callback (HaiPay Trigger), then read it with Collection > Get Cashier Payment. Never send it again, and never under a new orderId.",
};

const notice: INodeProperties = {
	displayName:
		"HaiPay's global cashier: the payer chooses how to pay on HaiPay's page (payUrl in the answer). It signs with the Cashier-specific App ID: add CASHIER under the credential's Other Currencies. Keep the answer's orderNo: the cashier's query needs it.",
	name: 'cashierNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: [scope.resource], operation: [scope.operation] } },
};

/** HaiPay's `currency` is the transaction's; the node names it Transaction Currency (rules/cashierCollection.ts). */
function sentAsCurrency(body: IDataObject): IDataObject {
	const { [TRANSACTION_CURRENCY]: currency, ...rest } = body;
	return { ...rest, currency };
}

/** Collection → Create Cashier Payment: a create, sent once; an open outcome is settled only with HaiPay's orderNo. */
export const createCashierCollection: Operation = {
	...scope,
	selector: {
		name: 'Create Cashier Payment',
		description: "Collect a payment on HaiPay's global cashier page, where the payer picks the method",
		action: 'Create a cashier payment',
	},
	kind: 'create',
	makes: endpoint.makes,
	properties: [
		createSafetyNotice(scope.resource, scope.operation),
		notice,
		fieldsFromParameter(scope.resource, scope.operation),
		...requiredParameters(rules, scope),
		...additionalFields(rules, scope),
	],
	prepare(ctx, itemIndex) {
		const prepared = prepareCreate(ctx, itemIndex, CASHIER_RULES, '');
		const currency = String(prepared.body[TRANSACTION_CURRENCY]);
		refuseOtherCurrency(ctx, itemIndex, currency, 'Transaction Currency');
		return { ...prepared, body: sentAsCurrency(prepared.body), currency };
	},
	advice: CASHIER_ADVICE,
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared, 'collection', { outcome: provenOutcome('create') }) };
	},
};
