import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchCatalogue, type CatalogueField } from '../../shared/contract/catalogue';
import type { OrderKind } from '../../shared/contract/statuses';
import { SEARCH_METHODS } from '../descriptions/catalogue';

/**
 * The list searches behind the catalogued code fields. The currency is read as the panel holds it: a fixed code
 * narrows the list to that currency; an expression (a sheet of mixed currencies) lists every currency's codes, each
 * named with its currency. A currency without a catalogue lists nothing, and By Code takes any code.
 */

function fixedText(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.startsWith('=')) return undefined;
	return value.trim().toUpperCase();
}

function kindOf(ctx: ILoadOptionsFunctions): OrderKind {
	return ctx.getCurrentNodeParameter('resource') === 'collection' ? 'collection' : 'payout';
}

function search(field: CatalogueField) {
	return async function (this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const currency = fixedText(this.getCurrentNodeParameter('currency'));
		const choices = searchCatalogue(kindOf(this), field, currency, filter ?? '');
		return { results: choices.map(({ name, value, description }) => ({ name, value, description })) };
	};
}

export const catalogueSearch = {
	[SEARCH_METHODS.bankCode]: search('bankCode'),
	[SEARCH_METHODS.payType]: search('payType'),
	[SEARCH_METHODS.inBankCode]: search('inBankCode'),
};
