/**
 * The audit of point 3 of issue 42 (docs/haipay-node.md, "Money choices: none preselected"): every drop-down a new
 * node (version 4) shows either decides how much, how often, to whom or where money goes, and starts on nothing, or
 * is named here with why its default decides none of that.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { NOT_CHOSEN } from '../../nodes/HaiPay/descriptions/fromRules';
import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';
import { SUBSCRIPTION_RULES } from '../../nodes/shared/contract/rules/subscription';

const description = new HaiPay().description;
const DOCS = readFileSync(join(__dirname, '..', '..', 'docs', 'haipay-node.md'), 'utf8');
const AUDIT = DOCS.slice(DOCS.indexOf('### Money choices: none preselected'));

/** Drop-downs a version 4 node shows preselected, each with why its default moves no money anywhere unchosen. */
const PRESELECTED: Record<string, string> = {
	resource: 'what the node does',
	operation: 'what the node does',
	fieldsFrom: 'where the fields are read',
	currency: "the rail: shown first, never hidden, every field follows it, and a row's own other currency is refused",
	payType:
		"how a payer pays a collection, or SUBSCRIPTION, a subscription's only value: the merchant is paid either way",
	inBankCode: "a subscriber's payment method: the merchant is paid the same amount as often either way",
	clientType: 'where the payer of a coin collection pays from',
	loadingType: 'what the card payment page shows',
	country: "BDT collections' cashier mode, sent only when added",
	lang: "the voucher's language",
	isAmount: 'which amount a voucher shows',
	ordersCurrency: 'which App ID asks for vouchers',
	output: 'what Payout → Check puts out; it sends nothing',
};

function shownInVersion4(property: INodeProperties): boolean {
	const versions = property.displayOptions?.show?.['@version'] as number[] | undefined;
	return versions === undefined || versions.includes(4);
}

function dropDowns(properties: INodeProperties[]): INodeProperties[] {
	return properties
		.filter(shownInVersion4)
		.flatMap((property) => [
			...(property.type === 'options' ? [property] : []),
			...(property.type === 'collection' ? dropDowns((property.options ?? []) as INodeProperties[]) : []),
		]);
}

const RULE_SETS = [
	...Object.values(ENDPOINTS.payoutApply.rules),
	...Object.values(ENDPOINTS.mitApply.rules),
	...Object.values(ENDPOINTS.localCollectionApply.rules),
	SUBSCRIPTION_RULES,
];
const deciding = new Set(
	RULE_SETS.flatMap((rules) =>
		(rules?.fields ?? []).filter((field) => field.decidesPayee ?? field.decidesMoney).map((field) => field.name),
	),
);

function resolved(choices: INodeParameters, typeVersion: number): INodeParameters {
	const node: INode = { id: '1', name: 'HaiPay', type: 'haiPay', typeVersion, position: [0, 0], parameters: {} };
	return NodeHelpers.getNodeParameters(description.properties, choices, true, false, node, description) ?? {};
}

describe('money choices in a new node (version 4)', () => {
	it('every drop-down that decides money starts on nothing; every other is named with why', () => {
		const preselected = new Set<string>();
		for (const property of dropDowns(description.properties)) {
			if (property.default === NOT_CHOSEN.value && property.options?.[0] === NOT_CHOSEN) continue;
			preselected.add(property.name);
		}
		expect([...preselected].sort()).toEqual(Object.keys(PRESELECTED).sort());
		// The fields the contract marks as deciding money or payee are never among the preselected ones where they decide.
		for (const name of ['recurringInterval', 'network', 'accountType', 'gender', 'identifyType'])
			expect([name, deciding.has(name), preselected.has(name)]).toEqual([name, true, false]);
	});

	it('Recurring Interval starts on nothing from version 4; versions 1 to 3 keep Day, as saved workflows ran', () => {
		const choices = { resource: 'subscription', operation: 'create', currency: 'USD' };
		expect(resolved(choices, 4).recurringInterval).toBe(NOT_CHOSEN.value);
		for (const version of [1, 2, 3]) expect(resolved(choices, version).recurringInterval).toBe('D');
	});

	it('docs/haipay-node.md audits every drop-down, money-deciding or not', () => {
		for (const name of [...Object.keys(PRESELECTED), 'recurringInterval', 'network', 'accountType', 'gender'])
			expect([name, AUDIT.includes(`\`${name}\``)]).toEqual([name, true]);
	});
});
