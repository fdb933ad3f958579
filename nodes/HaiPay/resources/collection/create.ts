import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { provenOutcome } from '../../../shared/gateway/kinds';
import type { LocalCollectionCurrency } from '../../../shared/contract/rules/localCollection';
import type { RequestRules } from '../../../shared/contract/rules/types';
import { createSafetyNotice, currencyParameter } from '../../descriptions/fields';
import { additionalFields, fieldsFromParameter, requiredParameters } from '../../descriptions/fromRules';
import { currencyOf, prepareCreate } from '../../execute/prepare';
import { dataItem } from '../../execute/present';
import type { Operation } from '../../execute/types';

const scope = { resource: 'collection', operation: 'create' };
const mit = ENDPOINTS.mitApply;
const local = ENDPOINTS.localCollectionApply;

/**
 * The currency chooses the collection: USD is the card collection in MIT mode (`/usd/mit/apply`, the contract's
 * §4.3, first so that it stays the default), every other one a local-currency collection (`/{ccy}/collect/apply`).
 */
const currencies = [...mit.currencies, ...local.currencies];
const rules: Record<string, RequestRules> = { ...mit.rules, ...local.rules };

function shownFor(codes: readonly string[]): { show: Record<string, string[]> } {
	return { show: { resource: [scope.resource], operation: [scope.operation], currency: [...codes] } };
}

export const createCollection: Operation = {
	...scope,
	selector: {
		name: 'Create',
		description: 'Collect a payment: a USD card (MIT), or a local payment such as PIX or QR Ph',
		action: 'Create a collection',
	},
	kind: 'create',
	// Both collections make orders, which HaiPay names by orderNo: their endpoints declare the same acceptance.
	accepts: mit.accepts,
	properties: [
		createSafetyNotice(scope.resource),
		currencyParameter(
			scope.resource,
			scope.operation,
			currencies,
			'USD is a card payment (MIT mode); BRL, IDR, PHP and BDT are local payments (PIX, QR codes, virtual accounts, wallets). Each has its own fields, and needs an App ID of its currency in the credential.',
		),
		{
			displayName:
				'The first payment returns a payment page (payUrl) for the payer. Its callback carries a tokenID: pass it as Token ID to charge the same card later without a page.',
			name: 'mitNotice',
			type: 'notice',
			default: '',
			displayOptions: shownFor(mit.currencies),
		},
		{
			displayName:
				'The answer carries what the payer pays with: payUrl (HaiPay\'s payment page) and, per rail, qrCode (the PIX or QR Ph code to show), bankNo and bankCode (a virtual account). The result arrives as a collection callback.',
			name: 'localNotice',
			type: 'notice',
			default: '',
			displayOptions: shownFor(local.currencies),
		},
		fieldsFromParameter(scope.resource, scope.operation),
		...requiredParameters(rules, { ...scope, currency: currencies, catalogue: 'collection' }),
		...additionalFields(rules, { ...scope, currency: currencies }),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, currencies);
		return prepareCreate(ctx, itemIndex, rules[currency as 'USD' | LocalCollectionCurrency], currency);
	},
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared, 'collection', { outcome: provenOutcome('create') }) };
	},
};
