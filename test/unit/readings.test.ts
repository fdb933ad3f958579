/**
 * The other bodies a signed string could stand for (nodes/shared/signing/readings.ts), each rule on both sides of
 * its edge. Every reading found is checked against the string itself: the split body signs exactly like the original.
 */
import { canonicalFields } from '../../nodes/shared/signing/canonical';
import { badNameOf, otherReadings } from '../../nodes/shared/signing/readings';

const PAYOUT = { appId: 1001, currency: 'TZS', orderId: 'PO-1', orderNo: 'HP1', amount: '1500.00', status: 3 };

/** The body with `field` cut at its first `&` that starts `name=`, the rest as that field: the other reading. */
function split(body: Record<string, unknown>, field: string, name: string): Record<string, unknown> {
	const text = String(body[field]);
	const at = text.indexOf(`&${name}=`);
	return { ...body, [field]: text.slice(0, at), [name]: text.slice(at + name.length + 2) };
}

describe('otherReadings', () => {
	it.each([
		['Account name & number mismatch', 'an & with no name= after it'],
		['bank says: code=51 & account closed', 'an = before the &, and none after it'],
		['a&b', 'an & alone'],
		['a=b', 'an = alone'],
		['x & y=z', 'a name with a space'],
		['x&amount=5', 'a name that sorts before errorMsg'],
		['x&orderId=5', 'a name that sorts after the next field (fee)'],
		['x&fee=9', 'the next field itself'],
		['x&errorMsg=5', 'the field itself'],
		['x&errorNote=', 'an empty value, which no signer writes'],
		['&errorNote=5', 'an empty field before it, which no signer writes'],
		['x&sign=5', 'sign, which is never signed'],
		['x&err\nNote=5', 'a control character in the name'],
	])('finds none in errorMsg %j: %s', (errorMsg) => {
		expect(otherReadings({ ...PAYOUT, fee: '1.00', errorMsg })).toEqual([]);
	});

	it.each([
		['x&errorNote=5', ['errorNote']],
		['x&ex=1&f=2', ['ex', 'f']],
		['x&ex=a&b', ['ex']],
		['x&errorMsh=1', ['errorMsh']],
	])('finds errorMsg %j could end in %j, and each such body signs exactly like it', (errorMsg, adds) => {
		const body = { ...PAYOUT, fee: '1.00', errorMsg };
		expect(otherReadings(body)).toEqual([{ field: 'errorMsg', adds }]);
		for (const name of adds) expect(canonicalFields(split(body, 'errorMsg', name))).toBe(canonicalFields(body));
	});

	it('bounds a split by the next signed field: an empty or null field is not signed, so it bounds nothing', () => {
		expect(otherReadings({ ...PAYOUT, errorMsg: 'x&fee=1', fee: '1.00' })).toEqual([]);
		expect(otherReadings({ ...PAYOUT, errorMsg: 'x&fee=1', fee: '' })).toEqual([{ field: 'errorMsg', adds: ['fee'] }]);
		expect(otherReadings({ ...PAYOUT, errorMsg: 'x&fee=1', fee: null })).toEqual([
			{ field: 'errorMsg', adds: ['fee'] },
		]);
	});

	it('reads the last field with no bound above, and a deciding field the same way as free text', () => {
		expect(otherReadings({ ...PAYOUT, status: undefined, zNote: 'x&zz=1' })).toEqual([
			{ field: 'zNote', adds: ['zz'] },
		]);
		const folded = { ...PAYOUT, orderNo: undefined, orderId: 'PO-1&orderNo=HP1' };
		expect(otherReadings(folded)).toEqual([{ field: 'orderId', adds: ['orderNo'] }]);
		expect(canonicalFields(split(folded, 'orderId', 'orderNo'))).toBe(canonicalFields(folded));
	});

	it('reads names in byte order, as HaiPay sorts them: upper case before lower case', () => {
		expect(otherReadings({ ...PAYOUT, errorMsg: 'x&errorZ=1' })).toEqual([{ field: 'errorMsg', adds: ['errorZ'] }]);
		expect(otherReadings({ ...PAYOUT, errorMsg: 'x&errorM=1' })).toEqual([]);
	});

	it('reads numbers as the digits signed, and list-style arrays by their elements', () => {
		expect(otherReadings({ ...PAYOUT, amount: 1500.5 })).toEqual([]);
		expect(otherReadings({ ...PAYOUT, tags: ['a, b'] }, { arrayStyle: 'list' })).toEqual([
			{ field: 'tags', adds: [], elements: true },
		]);
		expect(otherReadings({ ...PAYOUT, tags: ['a', 'b'] }, { arrayStyle: 'list' })).toEqual([]);
		expect(otherReadings({ ...PAYOUT, tags: ['a, b'] }, { arrayStyle: 'json' })).toEqual([]);
	});
});

describe('badNameOf', () => {
	it.each([
		['a&b', '&'],
		['a=b', '='],
		['', 'empty'],
		['a\nb', 'U+000A'],
		['a\u007fb', 'U+007F'],
	])('refuses the name %j (%s): no HaiPay field is named so', (name, character) => {
		expect(badNameOf({ ...PAYOUT, [name]: '1' })).toEqual({ field: name, character });
	});

	it.each(['errorMsg ', 'ça', 'token_id', 'a-b.c', 'x y'])('takes the name %j as a name', (name) => {
		expect(badNameOf({ ...PAYOUT, [name]: '1' })).toBeUndefined();
	});

	it('does not look at unsigned fields or at sign', () => {
		expect(badNameOf({ ...PAYOUT, 'a&b': '', 'c=d': null, sign: 'x' })).toBeUndefined();
	});
});
