import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { currencyParameter } from '../../descriptions/fields';
import { currencyOf } from '../../execute/prepare';
import { dataItem } from '../../execute/present';
import { distrustBalance } from '../../execute/trust';
import type { Operation } from '../../execute/types';

const scope = { resource: 'account', operation: 'getBalance' };
const { currencies, path } = ENDPOINTS.balance;

export const getBalance: Operation = {
	...scope,
	selector: {
		name: 'Get Balance',
		description: 'Get the balance of a currency account',
		action: 'Get the balance of an account',
	},
	kind: 'read',
	properties: [
		currencyParameter(
			scope.resource,
			scope.operation,
			currencies,
			'The currency whose balance to read: bal (total), availableBal, frzBal (frozen) and unSettleBal (unsettled)',
		),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, currencies);
		return { path: path(currency), body: {}, currency };
	},
	distrust: distrustBalance,
	async present(_ctx, _itemIndex, answer, prepared) {
		return { json: dataItem(answer, prepared) };
	},
};
