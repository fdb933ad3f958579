import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { MIT_RULES } from '../../nodes/shared/contract/rules/collection';
import { LOCAL_COLLECTION_RULES } from '../../nodes/shared/contract/rules/localCollection';
import type { RequestRules } from '../../nodes/shared/contract/rules/types';

/** Collection → Create shows each currency's own fields, and Refund / Get Refund theirs. */

const description = new HaiPay().description;
const node: INode = { id: '1', name: 'HaiPay', type: 'haiPay', typeVersion: 1, position: [0, 0], parameters: {} };

function resolved(choices: INodeParameters): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, choices, true, false, node, description) ?? {};
}

const PANEL = [
	'resource',
	'operation',
	'currency',
	'additionalFields',
	'options',
	'createNotice',
	'fieldsFrom',
	'mitNotice',
	'localNotice',
];

function optionalFieldsShownFor(currency: string): string[] {
	const collection = description.properties.find(
		(property) =>
			property.name === 'additionalFields' &&
			property.displayOptions?.show?.resource?.includes('collection') === true &&
			(property.displayOptions?.show?.currency as string[] | undefined)?.includes(currency),
	);
	return (collection?.options ?? []).map((option) => (option as { name: string }).name).sort();
}

describe('Collection → Create', () => {
	it.each([['USD', MIT_RULES] as const, ...Object.entries(LOCAL_COLLECTION_RULES)])(
		'shows exactly the %s fields, required ones on top',
		(currency, rules: RequestRules) => {
			const parameters = resolved({ resource: 'collection', operation: 'create', currency });
			const required = rules.fields.filter((field) => field.required).map((field) => field.name);
			const optional = rules.fields.filter((field) => !field.required).map((field) => field.name);
			expect(
				Object.keys(parameters)
					.filter((name) => !PANEL.includes(name))
					.sort(),
			).toEqual([...required].sort());
			expect(optionalFieldsShownFor(currency)).toEqual([...optional].sort());
		},
	);

	it('keeps USD, the card collection, the default currency, with its notice', () => {
		const parameters = resolved({ resource: 'collection', operation: 'create' });
		expect(parameters.currency).toBe('USD');
		expect(parameters).toHaveProperty('mitNotice');
		expect(parameters).not.toHaveProperty('localNotice');
		expect(parameters).not.toHaveProperty('inBankNo');
	});

	it('tells what a local collection answers', () => {
		const parameters = resolved({ resource: 'collection', operation: 'create', currency: 'BRL' });
		expect(parameters).toHaveProperty('localNotice');
		expect(parameters).not.toHaveProperty('mitNotice');
		expect(parameters).not.toHaveProperty('clientIp');
	});

	it("offers IDR's three ways to pay as a list", () => {
		expect(resolved({ resource: 'collection', operation: 'create', currency: 'IDR' }).payType).toBe('QR');
		const payType = description.properties.find(
			(property) => property.name === 'payType' && property.type === 'options',
		);
		expect((payType?.options ?? []).map((option) => (option as { value: string }).value).sort()).toEqual([
			'EWALLET',
			'QR',
			'VA',
		]);
	});
});

describe('Collection → Refund and Get Refund', () => {
	it("asks for the Refund ID (sent as orderId) and the collection's order number, and nothing else", () => {
		const parameters = resolved({ resource: 'collection', operation: 'refund' });
		expect(Object.keys(parameters).sort()).toEqual(
			['createNotice', 'currency', 'operation', 'options', 'orderId', 'orderNo', 'refundNotice', 'resource'].sort(),
		);
		const labels = description.properties.filter(
			(property) =>
				property.displayOptions?.show?.operation?.includes('refund') === true &&
				['orderId', 'orderNo'].includes(property.name),
		);
		expect(labels.map((property) => [property.name, property.displayName, property.required])).toEqual([
			['orderId', 'Refund ID', true],
			['orderNo', 'Collection Order Number', true],
		]);
		expect(parameters.currency).toBe('USD');
	});

	it("gives the refund the create's options (Resolve Unknown Outcomes ...), not the reads'", () => {
		const options = description.properties.filter((property) => property.name === 'options');
		const shown = options.filter((property) => {
			const show = property.displayOptions?.show?.operation;
			const hide = property.displayOptions?.hide?.operation;
			return show !== undefined ? show.includes('refund') : hide?.includes('refund') !== true;
		});
		expect(shown).toHaveLength(1);
		expect((shown[0].options ?? []).map((option) => (option as { name: string }).name)).toContain('resolveUnknown');
	});

	it('looks a refund up by Refund ID or refund number', () => {
		const parameters = resolved({ resource: 'collection', operation: 'getRefund' });
		expect(Object.keys(parameters).sort()).toEqual(
			['currency', 'operation', 'options', 'orderId', 'refundNo', 'resource'].sort(),
		);
	});
});
