import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { provenOutcome } from '../../../shared/gateway/kinds';
import { COIN_ADDRESS_VALID_MS, PRICED_IN } from '../../../shared/contract/rules/coinCollection';
import type { RequestRules } from '../../../shared/contract/rules/types';
import { createSafetyNotice, currencyParameter } from '../../descriptions/fields';
import { additionalFields, fieldsFromParameter, requiredParameters } from '../../descriptions/fromRules';
import { currencyOf, prepareCreate } from '../../execute/prepare';
import { dataItem } from '../../execute/present';
import type { Operation, Prepared } from '../../execute/types';

const scope = { resource: 'collection', operation: 'create' };
const mit = ENDPOINTS.mitApply;
const local = ENDPOINTS.localCollectionApply;
const coins = ENDPOINTS.coinCollectionApply;

/**
 * The currency chooses the collection: USD is the card collection in MIT mode (`/usd/mit/apply`, the contract's
 * §4.3, first so that it stays the default), every other one a local-currency collection (`/{ccy}/collect/apply`).
 */
const currencies = [...mit.currencies, ...local.currencies, ...coins.currencies];
const rules: Record<string, RequestRules> = { ...mit.rules, ...local.rules, ...coins.rules };
const isCoin = (currency: string) => (coins.currencies as readonly string[]).includes(currency);

/**
 * A stablecoin collection sends its pricing currency as `currency` (the coin itself when none is given, which is no
 * conversion): HaiPay requires it, and the node's Currency parameter already names the path's coin.
 */
function pricedIn(body: IDataObject, currency: string): IDataObject {
	const { [PRICED_IN]: priced, ...rest } = body;
	return { ...rest, currency: typeof priced === 'string' && priced !== '' ? priced : currency };
}

/**
 * Where a stablecoin payer pays, and until when: HaiPay's address (bankNo) is single-use and valid for 60 minutes
 * from when HaiPay made it, which is after the request left; counted from then, the time given is never too late.
 */
function depositAddress(data: IDataObject, prepared: Prepared): IDataObject {
	const address = typeof data.bankNo === 'string' && data.bankNo !== '' ? { depositAddress: data.bankNo } : {};
	const sentAt = prepared.sentAt ?? Date.now();
	return {
		...address,
		addressSingleUse: true,
		addressExpiresAt: new Date(sentAt + COIN_ADDRESS_VALID_MS).toISOString(),
	};
}

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
			'USD is a card payment (MIT mode); BRL, IDR, PHP and BDT are local payments (PIX, QR codes, virtual accounts, wallets); USDT and USDC are stablecoin transfers to a single-use address. Each has its own fields, and needs an App ID of its currency in the credential.',
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
				"The answer carries what the payer pays with: payUrl (HaiPay's payment page) and, per rail, qrCode (the PIX or QR Ph code to show), bankNo and bankCode (a virtual account). The result arrives as a collection callback.",
			name: 'localNotice',
			type: 'notice',
			default: '',
			displayOptions: shownFor(local.currencies),
		},
		{
			displayName:
				"The answer carries HaiPay's page (payUrl) and the deposit address (depositAddress): it takes one transfer, and only until addressExpiresAt (60 minutes). Payments from sanctioned regions or flagged sources may be frozen by HaiPay.",
			name: 'coinNotice',
			type: 'notice',
			default: '',
			displayOptions: shownFor(coins.currencies),
		},
		fieldsFromParameter(scope.resource, scope.operation),
		...requiredParameters(rules, { ...scope, currency: currencies, catalogue: 'collection' }),
		...additionalFields(rules, { ...scope, currency: currencies }),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, currencies);
		const prepared = prepareCreate(ctx, itemIndex, rules[currency], currency);
		return isCoin(currency) ? { ...prepared, body: pricedIn(prepared.body, currency) } : prepared;
	},
	async present(_ctx, _itemIndex, answer, prepared) {
		const coin = isCoin(prepared.currency) && answer.type === 'data' ? depositAddress(answer.data, prepared) : {};
		return { json: dataItem(answer, prepared, 'collection', { outcome: provenOutcome('create'), ...coin }) };
	},
};
