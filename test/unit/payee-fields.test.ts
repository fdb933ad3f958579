/**
 * Every drop-down of the node, audited for a silent default on who is paid: the fields whose
 * value decides who or what identity is paid (`decidesPayee` in the contract module) start with nothing chosen from
 * node version 2, keep their first-value defaults in version 1, and are the ones docs/haipay-node.md lists; every
 * other drop-down is one whose default decides nothing about the payee, each named here with why.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { NOT_CHOSEN } from '../../nodes/HaiPay/descriptions/fromRules';
import { NODE_VERSIONS } from '../../nodes/HaiPay/descriptions/versions';
import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';
import type { RequestRules } from '../../nodes/shared/contract/rules/types';

const description = new HaiPay().description;
const DOCS = readFileSync(join(__dirname, '..', '..', 'docs', 'haipay-node.md'), 'utf8');

const CREATES: Array<[string, Partial<Record<string, RequestRules>>]> = [
	['payout', ENDPOINTS.payoutApply.rules],
	['collection', { ...ENDPOINTS.mitApply.rules, ...ENDPOINTS.localCollectionApply.rules }],
	['collection', ENDPOINTS.refundApply.rules],
];

/** Drop-downs whose default decides nothing about who is paid, and why. */
const NOT_ABOUT_THE_PAYEE: Record<string, string> = {
	resource: 'what the node does',
	operation: 'what the node does',
	fieldsFrom: 'where the fields are read, not what they hold',
	currency: "the rail, shown first and never hidden; another currency's rules refuse a row of another currency",
	payType:
		'how the payer pays a collection (IDR: QR, VA or e-wallet), or SUBSCRIPTION, the only value of a subscription; the merchant is paid either way',
	recurringInterval: "a subscription's billing unit: when the merchant is paid, never who pays or is paid",
	inBankCode: 'how a subscriber pays (card, Google Pay, Apple Pay); the merchant is paid either way',
	country: "BDT collections' cashier mode, sent only when added",
	loadingType: "what the card payment page shows; 0 is HaiPay's own default",
	lang: "the voucher's language",
	isAmount: 'which amount a voucher shows',
	ordersCurrency: 'which App ID asks for vouchers; empty is the first',
	output: 'what Payout → Check puts out (a row each, or one approval summary); it sends nothing',
	clientType:
		"where the payer of a coin collection pays from (web or app); the deposit address is the merchant's either way",
};

function node(typeVersion: number): INode {
	return { id: '1', name: 'HaiPay', type: 'haiPay', typeVersion, position: [0, 0], parameters: {} };
}

function resolved(choices: INodeParameters, typeVersion: number): INodeParameters {
	return (
		NodeHelpers.getNodeParameters(description.properties, choices, true, false, node(typeVersion), description) ?? {}
	);
}

/** The table of docs/haipay-node.md ("Who is paid"): each payee-deciding drop-down, its choices and currencies. */
export function payeeTable(): string {
	const rows = new Map<string, string[]>();
	for (const [resource, rulesByCurrency] of CREATES) {
		for (const [currency, rules] of Object.entries(rulesByCurrency)) {
			for (const rule of rules?.fields ?? []) {
				if (rule.enum === undefined || rule.decidesPayee === undefined) continue;
				const where = rule.required ? '' : ' (Additional Fields)';
				const key = `| ${resource} | \`${rule.name}\`${where} | ${rule.enum.map((value) => `\`${value}\``).join(', ')} | ${rule.decidesPayee} |`;
				rows.set(key, [...(rows.get(key) ?? []), currency]);
			}
		}
	}
	const lines = [...rows].map(([key, currencies]) => key.replace(/^\| (\w+) \|/, `| $1 | ${currencies.join(', ')} |`));
	return ['| resource | currencies | field | choices | decides |', '|---|---|---|---|---|', ...lines].join('\n');
}

describe('drop-downs that decide who is paid', () => {
	it('docs/haipay-node.md lists each one, as the contract module states it', () => {
		const table = payeeTable();
		// On a change of the rules, paste the table printed here into docs/haipay-node.md.
		if (!DOCS.includes(table)) console.log(table);
		expect(DOCS).toContain(table);
	});

	it.each(Object.keys(ENDPOINTS.payoutApply.rules))(
		'%s: from version 2 each starts on nothing; version 1 keeps its first value',
		(currency) => {
			const rules = ENDPOINTS.payoutApply.rules[currency as keyof typeof ENDPOINTS.payoutApply.rules];
			const deciding = rules.fields.filter(
				(field) => field.enum !== undefined && field.decidesPayee !== undefined && field.required,
			);
			const latest = resolved({ resource: 'payout', operation: 'create', currency }, Math.max(...NODE_VERSIONS));
			const first = resolved({ resource: 'payout', operation: 'create', currency }, 1);
			for (const field of deciding) {
				expect([field.name, latest[field.name]]).toEqual([field.name, NOT_CHOSEN.value]);
				// A field a later version introduced (USDT's Network, from 4) is not in version 1 at all.
				if (field.since !== undefined) expect(first).not.toHaveProperty(field.name);
				else expect([field.name, first[field.name]]).toEqual([field.name, field.enum?.[0]]);
			}
		},
	);

	it('under a currency given by an expression, no payee-deciding field of any currency has a value n8n filled in', () => {
		const choices = { resource: 'payout', operation: 'create', currency: '={{ $json.currency }}' };
		const parameters = resolved(choices, 2);
		const names = new Set(
			Object.values(ENDPOINTS.payoutApply.rules).flatMap((rules) =>
				rules.fields.filter((field) => field.decidesPayee).map((field) => field.name),
			),
		);
		for (const name of names) expect([name, parameters[name] ?? '']).toEqual([name, '']);
	});

	it('every drop-down of every operation is payee-deciding (nothing chosen from version 2) or decides nothing about the payee', () => {
		const deciding = new Set(
			CREATES.flatMap(([, rules]) =>
				Object.values(rules).flatMap((rule) =>
					(rule?.fields ?? []).filter((field) => field.decidesPayee).map((field) => field.name),
				),
			),
		);
		const seen = new Set<string>();
		const audit = (properties: INodeProperties[], inVersion2: boolean) => {
			for (const property of properties) {
				const versions = property.displayOptions?.show?.['@version'] as number[] | undefined;
				const shown = inVersion2 && (versions === undefined || versions.includes(2));
				if (property.type === 'collection') audit((property.options ?? []) as INodeProperties[], shown);
				if (property.type !== 'options' || !shown) continue;
				seen.add(property.name);
				if (deciding.has(property.name)) {
					expect([property.name, property.default, property.options?.[0]]).toEqual([
						property.name,
						NOT_CHOSEN.value,
						NOT_CHOSEN,
					]);
				} else {
					expect([property.name, NOT_ABOUT_THE_PAYEE[property.name]]).toEqual([property.name, expect.any(String)]);
				}
			}
		};
		audit(description.properties, true);
		expect([...seen].filter((name) => !deciding.has(name)).sort()).toEqual(Object.keys(NOT_ABOUT_THE_PAYEE).sort());
	});

	it('lists in the docs every drop-down that decides nothing about the payee', () => {
		for (const name of Object.keys(NOT_ABOUT_THE_PAYEE))
			expect([name, DOCS.includes(`\`${name}\``)]).toEqual([name, true]);
	});
});
