import type { IExecuteFunctions } from 'n8n-workflow';

import { parameterValue, referencedField } from '../../nodes/HaiPay/execute/parameters';

describe('the expressions read straight from the item', () => {
	it.each([
		['={{ $json.amount }}', 'amount'],
		['={{$json.amount}}', 'amount'],
		['=  {{  $json.order_id  }}  ', 'order_id'],
		['={{ $json["account no"] }}', 'account no'],
		["={{ $json['bankCode'] }}", 'bankCode'],
	])('%s reads %s', (raw, field) => {
		expect(referencedField(raw)).toBe(field);
	});

	it.each([
		'={{ $json.amount.toFixed(2) }}',
		'={{ $json.a.b }}',
		'={{ $json.first + " " + $json.last }}',
		'={{ $("Sheet").item.json.amount }}',
		'={{ $json.amount }} TZS',
		'{{ $json.amount }}',
		'$json.amount',
		'amount',
		'={{ $json["a" + "b"] }}',
		42,
		undefined,
	])('%p goes to n8n', (raw) => {
		expect(referencedField(raw)).toBeUndefined();
	});
});

describe('parameter values without an expression', () => {
	const parameters = {
		currency: 'TZS',
		amount: '={{ $json.amount }}',
		options: { concurrency: 16, extraFields: '{"a":"1"}' },
		additionalFields: { email: '={{ $json.email }}' },
	};
	const evaluated: string[] = [];
	const ctx = {
		getNode: () => ({ parameters }),
		getInputData: () => [{ json: { amount: '1000', email: 'a@example.com' } }],
		getNodeParameter: (path: string, _item: number, fallback: unknown) => {
			evaluated.push(path);
			return path === 'additionalFields' ? { email: 'from n8n' } : fallback;
		},
	} as unknown as IExecuteFunctions;

	beforeEach(() => evaluated.splice(0));

	it('are taken as set, without asking n8n', () => {
		expect(parameterValue(ctx, 0, 'currency', '')).toBe('TZS');
		expect(parameterValue(ctx, 0, 'options', {})).toEqual({ concurrency: 16, extraFields: '{"a":"1"}' });
		expect(evaluated).toEqual([]);
	});

	it('while expressions, also nested ones, and absent parameters still go to n8n or the item', () => {
		expect(parameterValue(ctx, 0, 'amount', '')).toBe('1000');
		expect(parameterValue(ctx, 0, 'additionalFields', {})).toEqual({ email: 'from n8n' });
		expect(parameterValue(ctx, 0, 'fieldsFrom', 'parameters')).toBe('parameters');
		expect(evaluated).toEqual(['additionalFields', 'fieldsFrom']);
	});
});
