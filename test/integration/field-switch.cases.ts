/**
 * Issue 42, point 1, in real n8n-core executions against the sandbox: for every pair of currencies whose bank-code
 * or method fields differ (Payout → Create: accountType and bankCode; Collection → Create: payType and inBankCode),
 * in node versions 3 and 4, a node saved as n8n's editor saves it after "pick under the first currency, switch to the
 * second, fill in what shows empty" (test/helpers/editor-switch.ts). Each run either sends exactly what the second
 * currency's fields show, each a value that field offers, or refuses the item naming one of those fields and sends
 * nothing. Today's main sent a ZAR list pick under NGN, USDT and every currency whose bank code is text.
 */
import type { IDataObject, INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { searchCatalogue, type CatalogueField } from '../../nodes/shared/contract/catalogue';
import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';
import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import type { RequestRules } from '../../nodes/shared/contract/rules/types';
import type { OrderKind } from '../../nodes/shared/contract/statuses';
import type { Sandbox } from '../../sandbox';
import {
	APP_IDS,
	COIN_COLLECTION,
	LOCAL_COLLECTIONS,
	MIT_COLLECTION,
	PAYOUTS,
	type SandboxCurrency,
} from '../fixtures/bodies';
import { editorNode, editorSet } from '../helpers/editor-switch';
import { credentialFor, NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const description = new HaiPay().description;

interface Surface {
	resource: string;
	kind: OrderKind;
	fields: readonly string[];
	rules: Record<string, RequestRules>;
	rows: Record<string, Readonly<Record<string, string>>>;
}

const { mitApply, localCollectionApply, coinCollectionApply } = ENDPOINTS;
const SURFACES: Surface[] = [
	{ resource: 'payout', kind: 'payout', fields: ['accountType', 'bankCode'], rules: PAYOUT_RULES, rows: PAYOUTS },
	{
		resource: 'collection',
		kind: 'collection',
		fields: ['payType', 'inBankCode'],
		rules: { ...mitApply.rules, ...localCollectionApply.rules, ...coinCollectionApply.rules } as Record<
			string,
			RequestRules
		>,
		rows: { USD: MIT_COLLECTION, ...LOCAL_COLLECTIONS, USDT: COIN_COLLECTION, USDC: COIN_COLLECTION },
	},
];

const codesOf = (surface: Surface, field: string, currency: string) =>
	searchCatalogue(surface.kind, field as CatalogueField, currency).map((choice) => choice.value);

/** The parameter the panel shows for a field of the node as it stands: found by its label, whatever its name. */
function shown(node: INode, displayName: string): INodeProperties | undefined {
	return description.properties.find(
		(property) =>
			property.displayName === displayName &&
			NodeHelpers.displayParameter(node.parameters, property, node, description),
	);
}

/**
 * What a person sets in a field of this kind for a value: a drop-down's entry, text, or in a list the value picked
 * from it, else (`pick`) the list's first code, or the value By Code.
 */
function entry(property: INodeProperties, value: string, codes: string[], pick: boolean): INodeParameters[string] {
	if (property.type !== 'resourceLocator') return value;
	if (codes.includes(value)) return { __rl: true, mode: 'list', value };
	return pick && codes.length > 0 ? { __rl: true, mode: 'list', value: codes[0] } : { __rl: true, mode: 'id', value };
}

const INVALID = Symbol('not offered');

/** The value a field shows and would send, or INVALID where the field does not offer what it holds. */
function offered(property: INodeProperties, value: unknown, codes: string[]): unknown {
	if (property.type === 'string') return typeof value === 'string' ? value : INVALID;
	if (property.type === 'options') {
		return (property.options ?? []).some((option) => 'value' in option && option.value === value) ? value : INVALID;
	}
	const locator = value as { __rl?: boolean; mode?: string; value?: unknown } | undefined;
	if (locator?.__rl !== true) return INVALID;
	return locator.mode === 'id' || codes.includes(String(locator.value)) ? locator.value : INVALID;
}

function isEmpty(value: unknown): boolean {
	if (value === undefined || value === '') return true;
	return typeof value === 'object' && value !== null && (value as { value?: unknown }).value === '';
}

/** A field's parameter type, its drop-down values or the list's codes: where two currencies differ. */
function signature(surface: Surface, version: number, currency: string): string {
	const node = editorNode(description, version, [
		['resource', surface.resource],
		['currency', currency],
	]);
	return JSON.stringify(
		surface.fields.map((field) => {
			const rule = surface.rules[currency].fields.find((candidate) => candidate.name === field);
			const property = rule?.required ? shown(node, rule.displayName) : undefined;
			if (property === undefined) return null;
			const values = (property.options ?? []).map((option) => ('value' in option ? option.value : ''));
			return [property.type, values, property.type === 'resourceLocator' ? codesOf(surface, field, currency) : []];
		}),
	);
}

/** The node as saved after picking the first currency's codes, switching, and filling in what shows empty. */
function switched(surface: Surface, version: number, first: string, second: string): INode {
	const node = editorNode(description, version, [
		['resource', surface.resource],
		['currency', first],
	]);
	for (const field of surface.fields) {
		const rule = surface.rules[first].fields.find((candidate) => candidate.name === field);
		const property = rule?.required ? shown(node, rule.displayName) : undefined;
		if (property === undefined) continue;
		const value = surface.rows[first][field] ?? 'TYPED';
		node.parameters = editorSet(
			description,
			node,
			property.name,
			entry(property, value, codesOf(surface, field, first), true),
		);
	}
	node.parameters = editorSet(description, node, 'currency', second);
	const row: Record<string, string> = { ...surface.rows[second], orderId: uniqueOrderId(`SWITCH-${first}-${second}`) };
	const filled: INodeParameters = { ...node.parameters };
	for (const rule of surface.rules[second].fields.filter((candidate) => candidate.required)) {
		const property = shown(node, rule.displayName);
		if (property === undefined || !isEmpty(filled[property.name]) || row[rule.name] === undefined) continue;
		filled[property.name] = entry(property, row[rule.name], codesOf(surface, rule.name, second), false);
	}
	// What the row needs beyond the required fields (TRY's PAPARA its identifyType), added as Additional Fields.
	const additional = shown(node, 'Additional Fields');
	const added: INodeParameters = { ...((filled.additionalFields ?? {}) as INodeParameters) };
	for (const rule of surface.rules[second].fields.filter((candidate) => !candidate.required)) {
		const options = (additional?.options ?? []) as INodeProperties[];
		const option = options.find((candidate) => candidate.displayName === rule.displayName);
		if (option !== undefined && row[rule.name] !== undefined) added[option.name] ??= row[rule.name];
	}
	return { ...node, parameters: { ...filled, additionalFields: added } as INodeParameters };
}

type Verdict = [string, string, string];

async function verdict(surface: Surface, version: number, first: string, second: string): Promise<Verdict> {
	const node = switched(surface, version, first, second);
	const result = await runNode(sandbox, {
		currency: second as SandboxCurrency,
		parameters: node.parameters,
		settings: { typeVersion: version, onError: 'continueRegularOutput' },
	});
	const [item] = result.jsonOf(NODE);
	const orderId = node.parameters.orderId ?? node.parameters.subscriptionOrderId;
	const sent = sandbox.requests.filter((request) => request.orderId === orderId);
	const pair = `${first}→${second}`;
	if (item.outcome === 'invalid') {
		const named = surface.fields.includes(String(item.field));
		return [pair, named && sent.length === 0 ? 'refused, naming its field' : `refused: ${item.field}`, ''];
	}
	if (item.outcome !== 'accepted' || sent.length !== 1) return [pair, `${String(item.outcome)}: ${item.error}`, ''];
	const body = sent[0].body as IDataObject;
	const wrong = surface.fields.filter((field) => {
		const rule = surface.rules[second].fields.find((candidate) => candidate.name === field);
		const property = rule?.required ? shown(node, rule.displayName) : undefined;
		if (property === undefined) return false;
		const value = offered(property, node.parameters[property.name], codesOf(surface, field, second));
		return value === INVALID || body[field] !== value;
	});
	return [pair, 'sent as shown', wrong.join()];
}

const expected = (verdicts: Verdict[]) =>
	verdicts.map(([pair, what]): Verdict => [pair, what === 'sent as shown' ? what : 'refused, naming its field', '']);

describe.each([3, 4])('node version %i: pick, switch the currency, run', (version) => {
	describe.each(SURFACES)('$resource → Create', (surface) => {
		const currencies = Object.keys(surface.rows).filter((currency) => surface.rules[currency] !== undefined);
		const signatures = Object.fromEntries(
			currencies.map((currency) => [currency, signature(surface, version, currency)]),
		);

		it.each(currencies)('every first currency whose fields differ, then %s', async (second) => {
			const firsts = currencies.filter((first) => first !== second && signatures[first] !== signatures[second]);
			const verdicts: Verdict[] = [];
			for (const first of firsts) verdicts.push(await verdict(surface, version, first, second));
			expect(verdicts).toEqual(expected(verdicts));
			// Not every pair is refused: a switch whose second currency's fields start empty is filled in and sent.
			if (version === 4 && firsts.length > 0) {
				expect(verdicts.some(([, what]) => what === 'sent as shown')).toBe(true);
			}
		});
	});
});

describe('what a field does not offer is refused in every version, naming the field, and never sent', () => {
	const ngnRow = () => ({ ...PAYOUTS.NGN, orderId: uniqueOrderId('GUARD-NGN') });
	const fields = PAYOUT_RULES.NGN.fields.filter((rule) => rule.required).map((rule) => rule.name);

	it.each([1, 2, 3, 4])(
		'version %i: a list pick under a text field (NGN) is refused, never "[object Object]"',
		async (version) => {
			const row = ngnRow();
			const parameters: INodeParameters = { resource: 'payout', operation: 'create', currency: 'NGN' };
			for (const field of fields) parameters[field] = row[field as keyof typeof row];
			const textName = version >= 4 ? 'bankCodeText' : 'bankCode';
			parameters[textName] = { __rl: true, mode: 'list', value: '051001' };
			const result = await runNode(sandbox, {
				currency: 'NGN',
				parameters,
				settings: { typeVersion: version, onError: 'continueRegularOutput' },
			});
			const [item] = result.jsonOf(NODE);
			expect(item).toMatchObject({ outcome: 'invalid', field: 'bankCode', rule: 'type' });
			expect(String(item.error)).not.toContain('[object Object]');
			expect(sandbox.requests.filter((request) => request.orderId === row.orderId)).toEqual([]);
		},
	);

	it.each([3, 4])(
		'version %i: a ZAR list pick reaching a BRL item is refused for that item alone; the ZAR item is sent',
		async (version) => {
			const rows = (['BRL', 'ZAR'] as const).map((currency) => ({
				...PAYOUTS[currency],
				currency,
				orderId: uniqueOrderId(`GUARD-${currency}`),
			}));
			const parameters: INodeParameters = {
				resource: 'payout',
				operation: 'create',
				currency: '={{ $json.currency }}',
			};
			const names = new Set(['BRL', 'ZAR'].flatMap((currency) => PAYOUT_RULES[currency as 'BRL'].fields));
			for (const rule of [...names].filter((candidate) => candidate.required)) {
				for (const name of [rule.name, `${rule.name}Text`]) parameters[name] = `={{ $json.${rule.name} }}`;
			}
			parameters[version >= 4 ? 'bankCodeList' : 'bankCode'] = { __rl: true, mode: 'list', value: '051001' };
			const credential = credentialFor(sandbox, 'BRL', {
				otherCurrencies: ['ZAR'],
				appIdZar: APP_IDS.ZAR,
				secretKeyZar: 'test-only-secret-zar',
			});
			const result = await runNode(sandbox, {
				credential,
				parameters,
				items: rows,
				settings: { typeVersion: version, onError: 'continueRegularOutput' },
			});
			const out = result.jsonOf(NODE);
			expect(out.map((item) => [item.outcome, item.field ?? null, item.rule ?? null])).toEqual([
				['invalid', 'bankCode', 'list'],
				['accepted', null, null],
			]);
			expect(String(out[0].error)).toContain("not in HaiPay's list for BRL");
			const sent = (orderId: string) => sandbox.requests.filter((request) => request.orderId === orderId);
			expect([sent(rows[0].orderId).length, (sent(rows[1].orderId)[0]?.body as IDataObject)?.bankCode]).toEqual([
				0,
				'051001',
			]);
		},
	);
});
