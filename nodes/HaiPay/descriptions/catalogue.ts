import type { INodeProperties } from 'n8n-workflow';

import type { CatalogueField } from '../../shared/contract/catalogue';
import type { FieldRule } from '../../shared/contract/rules/types';

/** The node's list-search methods, one per catalogued field (methods/catalogueSearch.ts). */
export const SEARCH_METHODS: Record<CatalogueField, string> = {
	bankCode: 'searchBankCodes',
	payType: 'searchPayTypes',
	inBankCode: 'searchPaymentMethods',
};

const FROM_CATALOGUE = 'list';
const BY_CODE = 'id';

export function isCatalogueField(name: string): name is CatalogueField {
	return name in SEARCH_METHODS;
}

/**
 * A catalogued code field as a resource locator: the catalogue's codes for the item's currency, searchable, or By
 * Code for one the catalogue lacks (HaiPay adds methods, and enables some for one merchant only). An expression in
 * either mode maps a sheet's column, as the text field did.
 */
export function catalogueParameter(rule: FieldRule & { name: CatalogueField }): INodeProperties {
	return {
		displayName: rule.displayName,
		name: rule.name,
		description: `${rule.description}. Pick one of the codes HaiPay's pages name for this currency, or give any code By Code.`,
		type: 'resourceLocator',
		default: { mode: FROM_CATALOGUE, value: '' },
		modes: [
			{
				displayName: 'From List',
				name: FROM_CATALOGUE,
				type: 'list',
				typeOptions: { searchListMethod: SEARCH_METHODS[rule.name], searchable: true },
			},
			{ displayName: 'By Code', name: BY_CODE, type: 'string', placeholder: rule.placeholder ?? 'e.g. PIX' },
		],
	};
}

/**
 * A field's value as the request sends it: the code a resource locator holds (its `value`, expressions resolved by
 * n8n), or the value itself. Version 3's locators and versions 1-2's text read the same from here on.
 */
export function plainValue(value: unknown): unknown {
	if (value !== null && typeof value === 'object' && (value as { __rl?: unknown }).__rl === true) {
		return (value as { value?: unknown }).value;
	}
	return value;
}
