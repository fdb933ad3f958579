import type { FieldRule } from '../../shared/contract/rules/types';
import { isCatalogueField } from './catalogue';
import { CATALOGUE_LISTS_FROM, ONE_TYPE_PER_NAME_FROM } from './versions';

/**
 * The name and kind of a field's parameter. n8n keeps a parameter's value when the currency, resource or operation
 * changes and another parameter of the same name shows instead; with two kinds under one name, a code picked from
 * ZAR's list reached an NGN text field (showing "[object Object]") and was sent. From node version 4 a gateway field
 * that is text for one currency and a drop-down or a list for another has one parameter name per kind: the gateway's
 * name for a drop-down (TZS's operators, ZAR's account type: what most workflows set), with "Text" for a text field
 * and "List" for a list (docs/haipay-node.md, "One name, one kind").
 */

export type FieldShape = 'text' | 'options' | 'list';

/** The gateway fields the node shows as more than one kind of parameter (test/unit/one-type-per-name.test.ts). */
export const MANY_SHAPED: readonly string[] = ['accountType', 'bankCode', 'payType', 'inBankCode', 'country'];

const SUFFIX: Record<Exclude<FieldShape, 'options'>, string> = { text: 'Text', list: 'List' };

/** The kind of parameter a field is in a node version: a list where the catalogue has codes for the currency (3 on). */
export function fieldShape(rule: FieldRule, version: number, catalogued: boolean): FieldShape {
	if (catalogued && rule.enum === undefined && version >= CATALOGUE_LISTS_FROM && isCatalogueField(rule.name)) {
		return 'list';
	}
	return rule.enum === undefined ? 'text' : 'options';
}

/** The parameter's name for a field of this kind in a node version. */
export function parameterName(name: string, shape: FieldShape, version: number): string {
	if (shape === 'options' || version < ONE_TYPE_PER_NAME_FROM || !MANY_SHAPED.includes(name)) return name;
	return `${name}${SUFFIX[shape]}`;
}

/** Every parameter name a field may have, in any version and kind: what a sheet's mapping may be found under. */
export function parameterNames(name: string): string[] {
	return MANY_SHAPED.includes(name) ? [name, `${name}${SUFFIX.text}`, `${name}${SUFFIX.list}`] : [name];
}
