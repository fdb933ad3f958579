/**
 * Issue 42, point 1, in the node's description as n8n's editor reads it (test/helpers/editor-switch.ts does what the
 * panel does on a change): in node version 4 a parameter name has one kind wherever it shows, so nothing picked under
 * one currency stays under another's field; a resource switch never keeps a Currency the new resource does not offer.
 */
import type { INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { editorNode } from '../helpers/editor-switch';

const description = new HaiPay().description;

function kindsByName(properties: INodeProperties[], version: number, kinds = new Map<string, Set<string>>()) {
	for (const property of properties) {
		const versions = property.displayOptions?.show?.['@version'] as number[] | undefined;
		if (versions !== undefined && !versions.includes(version)) continue;
		kinds.set(property.name, (kinds.get(property.name) ?? new Set()).add(property.type));
		const inner = (property.options ?? []).filter((option): option is INodeProperties => 'type' in option);
		kindsByName(inner, version, kinds);
	}
	return kinds;
}

const manyKinds = (version: number) =>
	[...kindsByName(description.properties, version)].filter(([, kinds]) => kinds.size > 1).map(([name]) => name);

const pick = (value: string) => ({ __rl: true, mode: 'list', value });

/** The name of the list a version 4 Payout → Create shows for ZAR's bank code. */
function zarList(): string {
	const node = editorNode(description, 4, [['currency', 'ZAR']]);
	const shown = description.properties.filter(
		(property) =>
			property.type === 'resourceLocator' && NodeHelpers.displayParameter(node.parameters, property, node, description),
	);
	expect(shown.length).toBe(1);
	return shown[0].name;
}

describe('one parameter name, one kind', () => {
	it('version 4 gives every name one kind; version 3 keeps its names for saved workflows', () => {
		expect(manyKinds(4)).toEqual([]);
		expect(manyKinds(3).sort()).toEqual(['accountType', 'bankCode', 'country', 'inBankCode', 'payType']);
	});

	// A list keeps its pick under another currency's list (BRL's): one list name for all, so that a currency mapped from
	// a sheet shows one list of every currency's codes. The run refuses it (test/integration/field-switch.cases.ts).
	it('a ZAR bank code picked from the list is not kept under a text field or a drop-down (version 4)', () => {
		for (const second of ['NGN', 'USDT', 'TZS']) {
			const node = editorNode(description, 4, [
				['currency', 'ZAR'],
				[zarList(), pick('051001')],
				['currency', second],
			]);
			const values = Object.values(node.parameters).map((value) => JSON.stringify(value));
			expect([second, values.filter((value) => value.includes('051001'))]).toEqual([second, []]);
		}
	});

	it('a Payout currency the new resource lacks is dropped: Subscription shows USD and its fields', () => {
		for (const version of [3, 4]) {
			const node = editorNode(description, version, [
				['currency', 'USDT'],
				['resource', 'subscription'],
			]);
			expect([version, node.parameters.currency, 'subscriptionOrderId' in node.parameters]).toEqual([
				version,
				'USD',
				true,
			]);
			const collection = editorNode(description, version, [
				['currency', 'ZAR'],
				['resource', 'collection'],
			]);
			expect([version, collection.parameters.currency, 'orderId' in collection.parameters]).toEqual([
				version,
				'USD',
				true,
			]);
		}
	});
});
