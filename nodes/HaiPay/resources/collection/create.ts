import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { provenOutcome } from '../../../shared/gateway/kinds';
import { COIN_ADDRESS_VALID_MS, PRICED_IN } from '../../../shared/contract/rules/coinCollection';
import type { RequestRules } from '../../../shared/contract/rules/types';
import { createSafetyNotice, currencyParameter } from '../../descriptions/fields';
import { additionalFields, fieldsFromParameter, requiredParameters } from '../../descriptions/fromRules';
import { ItemFailure } from '../../../shared/gateway/outcome';
import { isFixedParameter } from '../../execute/parameters';
import { currencyOf, prepareCreate } from '../../execute/prepare';
import { refuseOtherCurrency, rowCurrency } from '../../execute/rowCurrency';
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
 * A stablecoin collection sends its pricing currency as `currency`: HaiPay requires it, and the node's Currency
 * parameter already names the path's coin. Priced In when given (a row's own currency that contradicts it stops the
 * row), else the row's own currency (HaiPay's `currency` is the pricing one), else the coin itself: no conversion.
 */
function pricedIn(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject, currency: string): IDataObject {
	const { [PRICED_IN]: priced, ...rest } = body;
	const chosen = typeof priced === 'string' ? priced : '';
	if (chosen !== '') refuseOtherCurrency(ctx, itemIndex, chosen, 'Priced In');
	const own = rowCurrency(ctx, itemIndex);
	if (chosen === '' && own !== '' && !/^[A-Z]{3,4}$/.test(own))
		throw new ItemFailure('invalid', `"currency" in the item must be a currency code such as BRL (got "${own}")`, {
			field: 'currency',
			rule: 'pattern',
		});
	return { ...rest, currency: chosen || own || currency };
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
	// Card, local and coin collections all make collection orders: their endpoints declare the same product.
	makes: mit.makes,
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
		if (!isCoin(currency) && isFixedParameter(ctx, 'currency'))
			refuseOtherCurrency(ctx, itemIndex, currency, 'Currency');
		const prepared = prepareCreate(ctx, itemIndex, rules[currency], currency);
		return isCoin(currency) ? { ...prepared, body: pricedIn(ctx, itemIndex, prepared.body, currency) } : prepared;
	},
	async present(_ctx, _itemIndex, answer, prepared) {
		const coin = isCoin(prepared.currency) && answer.type === 'data' ? depositAddress(answer.data, prepared) : {};
		return { json: dataItem(answer, prepared, 'collection', { outcome: provenOutcome('create'), ...coin }) };
	},
};
