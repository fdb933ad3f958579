/**
 * decidingDoubt (nodes/shared/signing/readings.ts) against every reading of the signed string, found by search: for
 * bodies generated from HaiPay's field names and text holding `&name=`, any other reading that HaiPay could have
 * signed (sorted names, no `&` in a deciding or HaiPay-written value, every carried field present) and that gives a
 * deciding field another value, adds one or takes one away must be marked. Also the attacks that found the rule
 * short: several `&` at once, joins across fields, a field added after the field that was split.
 */
import { CALLBACK_READINGS, CALLBACK_SHAPE } from '../../nodes/shared/contract/callback';
import { canonicalFields } from '../../nodes/shared/signing/canonical';
import { decidingDoubt } from '../../nodes/shared/signing/readings';
import { random, readingsOf, type Body } from '../helpers/readings';

/**
 * Whether HaiPay could have signed this reading (see readings.ts): else it is no genuine callback to be replayed.
 * With `carried`, only readings that hold every one of those fields (the library's earlier bound).
 */
function couldBeHaiPays(reading: Body, carried?: ReadonlySet<string>): boolean {
	for (const [name, value] of Object.entries(reading)) {
		if ((CALLBACK_SHAPE.deciding.has(name) || CALLBACK_SHAPE.plain.has(name)) && value.includes('&')) return false;
	}
	return [...(carried ?? [])].every((name) => reading[name] !== undefined);
}

function decidingOf(body: Body): string {
	return JSON.stringify([...CALLBACK_SHAPE.deciding].sort().map((name) => body[name] ?? null));
}

/** A reading HaiPay could have signed that changes, adds or takes away a deciding field, or undefined. */
function harmfulReading(body: Body, carried?: ReadonlySet<string>): Body | undefined {
	const own = decidingOf(body);
	return readingsOf(canonicalFields(body), { shape: CALLBACK_SHAPE }).find(
		(reading) => couldBeHaiPays(reading, carried) && decidingOf(reading) !== own,
	);
}

const TEXT_NAMES = ['errorMsg', 'bankName', 'remark', 'zz', 'channelRef', 'reason', 'subject'];
const OPTIONAL = ['refundNo', 'tokenID', 'tokenId', 'fee', 'payTime', 'actualAmount', ...TEXT_NAMES];
const PIECES = [
	'&status=2',
	'&orderId=X',
	'&orderNo=N',
	'&amount=5',
	'&currency=USD',
	'&appId=7',
	'&refundNo=R',
	'&tokenID=T',
	'&zz=w',
	'&fee=0',
	'&remark=r',
	'&errorMsg=e',
	'&payTime=p',
	'&',
	'=',
	'v',
];

function withoutField(body: Body, name: string): Body {
	const rest = { ...body };
	delete rest[name];
	return rest;
}

function generated(next: () => number): Body {
	const pick = <T>(from: T[]) => from[Math.floor(next() * from.length)];
	const text = () => `t${Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(PIECES)).join('')}`;
	const body: Body = { appId: '1', currency: 'TZS', orderId: 'PO', orderNo: 'HP', amount: '10', status: '3' };
	for (const name of OPTIONAL) if (next() < 0.35) body[name] = TEXT_NAMES.includes(name) ? text() : 'v';
	// Now and then a carried or HaiPay-written field goes missing or holds text, as a re-split body can.
	if (next() < 0.3) delete body[pick(Object.keys(body))];
	if (next() < 0.2) body[pick(Object.keys(body))] = text();
	return body;
}

describe('decidingDoubt against every reading', () => {
	it('marks every body that some reading HaiPay could have signed would change (4,000 generated bodies)', () => {
		const next = random(20240501);
		let harmful = 0;
		for (let count = 0; count < 4000; count++) {
			const body = generated(next);
			const reading = harmfulReading(body, CALLBACK_SHAPE.carried);
			if (reading === undefined) continue;
			harmful += 1;
			expect([body, reading, decidingDoubt(body, CALLBACK_SHAPE)]).toEqual([body, reading, expect.anything()]);
		}
		// The generator reaches the cases it is for.
		expect(harmful).toBeGreaterThan(300);
	});

	it('leaves the plain cases alone: text with & that no reading HaiPay signed could move', () => {
		const payout = { appId: '1', currency: 'TZS', orderId: 'PO', orderNo: 'HP', amount: '10', status: '3', fee: '1' };
		for (const errorMsg of [
			'Account name & number mismatch',
			'code=51 & account closed',
			'x&amount=5',
			'x&orderNo=HP-EVIL',
			'declined&errorNote=call the bank',
		]) {
			expect([errorMsg, decidingDoubt({ ...payout, errorMsg }, CALLBACK_SHAPE)]).toEqual([errorMsg, undefined]);
		}
		expect(
			decidingDoubt({ ...payout, payTime: '2024-05-01 10:20:30', refundNo: 'R1' }, CALLBACK_SHAPE),
		).toBeUndefined();
		expect(decidingDoubt({ ...payout, tokenID: 'tok' }, CALLBACK_SHAPE)).toBeUndefined();
	});
});

describe("decidingDoubt at the trigger's bound (only orderId and status carried) against every reading", () => {
	it('marks every body, and every body lacking any one of its fields, that some reading HaiPay could sign would change', () => {
		const next = random(20260541);
		let [harmful, bodies] = [0, 0];
		for (let count = 0; count < 600; count++) {
			const full = generated(next);
			for (const body of [full, ...Object.keys(full).map((name) => withoutField(full, name))]) {
				bodies += 1;
				const reading = harmfulReading(body, CALLBACK_READINGS.carried);
				if (reading === undefined) continue;
				harmful += 1;
				expect([body, reading, decidingDoubt(body, CALLBACK_READINGS)]).toEqual([body, reading, expect.anything()]);
			}
		}
		expect(bodies).toBeGreaterThan(5000);
		expect(harmful).toBeGreaterThan(1000);
	});

	it.each([
		// issue 41: each genuine body lacks the field its re-split adds; the re-split is marked.
		['currency', { bankName: 'CRDB&currency=USD' }, { bankName: 'CRDB', currency: 'USD' }],
		['amount', { accountName: 'Mallory&amount=99999.00' }, { accountName: 'Mallory', amount: '99999.00' }],
		['orderNo', { orderInfo: 'x&orderNo=HP-EVIL' }, { orderInfo: 'x', orderNo: 'HP-EVIL' }],
		['tokenID', { subject: 'x&tokenID=tok_evil' }, { subject: 'x', tokenID: 'tok_evil' }],
	])('a re-split that adds %s to a body without it is marked, and so is the genuine body', (field, genuine, split) => {
		const base: Body = { appId: '1', orderId: 'PO', status: '2' };
		if (field !== 'currency') base.currency = 'TZS';
		if (field !== 'amount') base.amount = '10';
		const [signedByHaiPay, replayed] = [
			{ ...base, ...genuine },
			{ ...base, ...split },
		];
		expect(canonicalFields(replayed)).toBe(canonicalFields(signedByHaiPay));
		expect(decidingDoubt(replayed, CALLBACK_READINGS)).toBeDefined();
		expect(decidingDoubt(signedByHaiPay, CALLBACK_READINGS)).toBeDefined();
		// The earlier bound took every callback to carry currency, amount and orderNo, and let the re-split through.
		if (field !== 'tokenID') expect(decidingDoubt(replayed, CALLBACK_SHAPE)).toBeUndefined();
	});

	it('leaves a body without free text alone, and text before the first name', () => {
		const paid = { appId: '1', currency: 'TZS', orderId: 'PO', orderNo: 'HP', amount: '10', status: '2', fee: '1' };
		expect(decidingDoubt({ ...paid, payTime: '2024-05-01 10:20:30' }, CALLBACK_READINGS)).toBeUndefined();
		expect(decidingDoubt({ ...paid, actualAmount: '10' }, CALLBACK_READINGS)).toBeUndefined();
		// A failed payout's bank text before its orderId and status: a reading that joined them into it would report
		// no result, and every callback carries both.
		expect(decidingDoubt({ ...paid, status: '3', errorMsg: 'declined' }, CALLBACK_READINGS)).toBeUndefined();
	});
});

describe('decidingDoubt: the re-splits that found the earlier rule short', () => {
	const genuine = {
		appId: '1',
		currency: 'TZS',
		orderId: 'PO',
		orderNo: 'HP',
		amount: '10',
		status: '3',
		fee: '1',
		errorMsg: 'declined',
	};

	it.each([
		// errorMsg swallows the real order; remark's text supplies another (a join, then several splits at once).
		[
			'a join across fields, then splits',
			{ ...genuine, remark: 'w&fee=0&orderId=VICTIM&orderNo=HPV&status=2&zz=x' },
			{
				appId: '1',
				currency: 'TZS',
				amount: '10',
				errorMsg: 'declined&fee=1&orderId=PO&orderNo=HP&remark=w',
				fee: '0',
				orderId: 'VICTIM',
				orderNo: 'HPV',
				status: '2',
				zz: 'x&status=3',
			},
		],
		// The genuine callback lacks refundNo; the split adds it after a field that is not carried.
		[
			'a split that adds a refund number',
			{ ...genuine, reason: 'bank&refundNo=R-EVIL' },
			{ ...genuine, reason: 'bank', refundNo: 'R-EVIL' },
		],
		[
			'a split that adds a card token',
			{ ...genuine, subject: 'x&tokenID=tok_evil' },
			{ ...genuine, subject: 'x', tokenID: 'tok_evil' },
		],
	])('%s: the replayed body signs alike, and is marked', (_case, signedByHaiPay, replayed) => {
		expect(canonicalFields(replayed)).toBe(canonicalFields(signedByHaiPay));
		expect(decidingOf(replayed)).not.toBe(decidingOf(signedByHaiPay));
		expect(decidingDoubt(replayed, CALLBACK_SHAPE)).toBeDefined();
	});
});
