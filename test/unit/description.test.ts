import { readFileSync } from 'fs';
import { join } from 'path';

import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { MIT_RULES } from '../../nodes/shared/contract/rules/collection';
import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import type { RequestRules } from '../../nodes/shared/contract/rules/types';

const description = new HaiPay().description;
const node: INode = { id: '1', name: 'HaiPay', type: 'haiPay', typeVersion: 1, position: [0, 0], parameters: {} };

/** The parameters n8n resolves (defaults filled, hidden ones dropped) for the given choices. */
function resolved(choices: INodeParameters): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, choices, true, false, node, description) ?? {};
}

describe('node description', () => {
	it('is the public interface: type, credential, tool use', () => {
		expect(description.name).toBe('haiPay');
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials).toEqual([{ name: 'haiPayApi', required: true, testedBy: 'haiPayApiTest' }]);
	});

	it('offers the resources and operations of the contract', () => {
		const operations = description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options ?? []).map(
					(option) => `${property.displayOptions?.show?.resource}:${(option as { value: string }).value}`,
				),
			);
		expect(operations.sort()).toEqual([
			'account:getBalance',
			'collection:create',
			'collection:createCashier',
			'collection:get',
			'collection:getCashier',
			'collection:getFixedAddress',
			'collection:getRefund',
			'collection:refund',
			'payout:check',
			'payout:create',
			'payout:get',
			'subscription:cancel',
			'subscription:create',
			'subscription:get',
			'voucher:download',
		]);
	});

	it.each(Object.entries(PAYOUT_RULES))(
		'shows exactly the %s payout fields, required ones on top',
		(currency, rules: RequestRules) => {
			const parameters = resolved({ resource: 'payout', operation: 'create', currency });
			// Read at node version 1: a field a later version introduced (USDT's network, from 4) is not there.
			const required = rules.fields
				.filter((field) => field.required && field.since === undefined)
				.map((field) => field.name);
			const optional = rules.fields.filter((field) => !field.required).map((field) => field.name);
			expect(
				Object.keys(parameters)
					.filter(
						(name) =>
							![
								'resource',
								'operation',
								'currency',
								'additionalFields',
								'options',
								'createNotice',
								'fieldsFrom',
							].includes(name),
					)
					.sort(),
			).toEqual([...required].sort());
			const collection = description.properties.find(
				(property) =>
					property.name === 'additionalFields' &&
					(property.displayOptions?.show?.currency as string[] | undefined)?.includes(currency),
			);
			expect((collection?.options ?? []).map((option) => (option as { name: string }).name).sort()).toEqual(
				[...optional].sort(),
			);
		},
	);

	it.each(Object.keys(PAYOUT_RULES))(
		'shows Payout → Check exactly the %s fields of Payout → Create, with its own notice; as options the Approval Policy, Check Balance, Extra Fields, Output and how Look Up Existing Orders asks (no create option)',
		(currency) => {
			const create = resolved({ resource: 'payout', operation: 'create', currency });
			const check = resolved({ resource: 'payout', operation: 'check', currency });
			const fields = (parameters: Record<string, unknown>) =>
				Object.keys(parameters)
					.filter((name) => !['operation', 'createNotice', 'checkNotice', 'options'].includes(name))
					.sort();
			expect(fields(check)).toEqual(fields(create));
			expect(check).toHaveProperty('checkNotice');
			expect(check).not.toHaveProperty('createNotice');
			const options = description.properties.filter(
				(property) => property.name === 'options' && property.displayOptions?.show?.operation?.includes('check'),
			);
			expect(
				options.map((property) => (property.options ?? []).map((option) => (option as { name: string }).name)),
			).toEqual([
				[
					'approvalPolicy',
					'checkBalance',
					'concurrency',
					'extraFields',
					'lookUpExisting',
					'lookUpWithin',
					'output',
					'retries',
					'timeout',
				],
			]);
		},
	);

	it('lets n8n require, under a currency given by an expression, only the fields every payout has', () => {
		// A mixed sheet (currency from each row) with TZS's fields set: n8n shows every currency's parameters then, and
		// must not stop the run for a field only some currencies need (EUR's swiftCode, PKR's birth, USD's subject).
		const parameters = {
			resource: 'payout',
			operation: 'create',
			fieldsFrom: 'parameters',
			currency: '={{ $json.currency }}',
			...Object.fromEntries(
				PAYOUT_RULES.TZS.fields
					.filter((field) => field.required)
					.map((field) => [field.name, `={{ $json.${field.name} }}`]),
			),
		};
		expect(
			NodeHelpers.getNodeParametersIssues(description.properties, { ...node, parameters }, description),
		).toBeNull();
		const withoutPhone = { ...parameters, phone: '' };
		expect(
			NodeHelpers.getNodeParametersIssues(description.properties, { ...node, parameters: withoutPhone }, description)
				?.parameters,
		).toHaveProperty('phone');
	});

	it("under a currency given by an expression, n8n asks for every currency's fields before the run, as docs/haipay-node.md says", () => {
		// The editor shows one currency's fields then (or none), so a node built there has none set: n8n refuses the
		// run itself, before execute(), one line per field and currency. Fields From → Input asks for none.
		const issues = (fieldsFrom: string) => {
			const parameters = resolved({
				resource: 'payout',
				operation: 'create',
				fieldsFrom,
				currency: '={{ $json.currency }}',
			});
			const found = NodeHelpers.getNodeParametersIssues(
				description.properties,
				{ ...node, typeVersion: 2, parameters },
				description,
			);
			return Object.values(found?.parameters ?? {}).flat();
		};
		const lines = issues('parameters');
		expect(lines).toContain('Parameter "Amount" is required.');
		const page = readFileSync(join(__dirname, '..', '..', 'docs', 'haipay-node.md'), 'utf8');
		expect(page).toContain(`${lines.length} lines for Payout → Create`);
		expect(issues('input')).toEqual([]);
		const fieldsFrom = description.properties.find((property) => property.name === 'fieldsFrom');
		expect(JSON.stringify(fieldsFrom?.options)).toContain(
			'with the currency as an expression, use Input Item Fields instead',
		);
	});

	it('hides every field parameter when fields come from the input item', () => {
		const parameters = resolved({ resource: 'payout', operation: 'create', currency: 'TZS', fieldsFrom: 'input' });
		expect(Object.keys(parameters).sort()).toEqual(
			['createNotice', 'currency', 'fieldsFrom', 'operation', 'options', 'resource'].sort(),
		);
	});

	it('shows the USD MIT collection fields', () => {
		const parameters = resolved({ resource: 'collection', operation: 'create', currency: 'USD' });
		for (const field of MIT_RULES.fields.filter((rule) => rule.required)) expect(parameters).toHaveProperty(field.name);
		expect(parameters).not.toHaveProperty('tokenID');
	});

	it('defaults every enum field to one of its values', () => {
		const parameters = resolved({ resource: 'payout', operation: 'create', currency: 'TZS' });
		expect(parameters.accountType).toBe('EWALLET');
		expect(['AIRTEL', 'HALOPESA', 'TIGO', 'VODACOM']).toContain(parameters.bankCode);
	});

	it('keeps voucher and query parameters apart from create fields', () => {
		expect(Object.keys(resolved({ resource: 'voucher', operation: 'download' })).sort()).toEqual(
			[
				'binaryPropertyName',
				'getFee',
				'getSubject',
				'isAmount',
				'lang',
				'operation',
				'options',
				'orderNos',
				'ordersCurrency',
				'resource',
			].sort(),
		);
		expect(Object.keys(resolved({ resource: 'payout', operation: 'get', currency: 'BRL' })).sort()).toEqual(
			['currency', 'operation', 'options', 'orderId', 'orderNo', 'resource'].sort(),
		);
	});
});

describe('Subscription → Create on the panel', () => {
	it("has one parameter named currency, the Currency itself: the page's currency field is the node's Currency", () => {
		const shownHere = description.properties.filter((property) => {
			const show = property.displayOptions?.show ?? {};
			const resources = show.resource as string[] | undefined;
			const operations = show.operation as string[] | undefined;
			const hidden = property.displayOptions?.hide?.operation as string[] | undefined;
			return (
				(resources === undefined || resources.includes('subscription')) &&
				(operations === undefined || operations.includes('create')) &&
				!(hidden ?? []).includes('create')
			);
		});
		expect(shownHere.filter((property) => property.name === 'currency')).toHaveLength(1);
	});
});
