import { dataItem } from '../../execute/present';
import { distrustBalance } from '../../execute/trust';
import type { Operation } from '../../execute/types';
import { CURRENCIES, type Currency } from '../../../shared/contract/currencies';
import { currencyOf, currencyParameter } from '../shared';

const scope = { resource: 'account', operation: 'getBalance' };

const BALANCE_CURRENCIES = Object.keys(CURRENCIES) as Currency[];

export const getBalance: Operation = {
	...scope,
	kind: 'read',
	properties: [
		currencyParameter(
			scope.resource,
			scope.operation,
			BALANCE_CURRENCIES,
			'The currency whose balance to read: bal (total), availableBal, frzBal (frozen) and unSettleBal (unsettled)',
		),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, BALANCE_CURRENCIES);
		return { path: `/${currency.toLowerCase()}/account/ledger`, body: {}, currency };
	},
	distrust: distrustBalance,
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared) };
	},
};
