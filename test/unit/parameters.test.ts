import { referencedField } from '../../nodes/HaiPay/execute/parameters';

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
