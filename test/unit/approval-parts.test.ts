import DecimalJs from 'decimal.js';

import { DecimalTotal } from '../../nodes/HaiPay/approval/decimalTotal';
import { isFingerprint, rowsFingerprint } from '../../nodes/HaiPay/approval/fingerprint';
import type { Prepared } from '../../nodes/HaiPay/execute/types';
import { seeded } from '../helpers/adversarial-amounts';

const Decimal = DecimalJs.clone({ precision: 200 });

describe('DecimalTotal', () => {
	it('adds decimal text exactly, with the places asked for, widened by an amount with more', () => {
		const total = new DecimalTotal(2);
		for (let index = 0; index < 10; index++) total.add('0.10');
		expect(total.toString()).toBe('1.00');
		total.add('0.005');
		expect(total.toString()).toBe('1.005');
		const whole = new DecimalTotal(0);
		whole.add('999999999999999');
		whole.add('999999999999999');
		expect(whole.toString()).toBe('1999999999999998');
		expect(new DecimalTotal(2).toString()).toBe('0.00');
		expect(() => new DecimalTotal(2).add('1e3')).toThrow(RangeError);
	});

	it('agrees with decimal.js on 20,000 random amounts of up to 15 whole digits and 4 decimals', () => {
		const next = seeded(7);
		const ours = new DecimalTotal(2);
		let theirs = new Decimal(0);
		for (let index = 0; index < 20_000; index++) {
			const whole = String(Math.floor(next() * 10 ** Math.ceil(next() * 15)));
			const places = Math.floor(next() * 5);
			const amount =
				places === 0 ? whole : `${whole}.${String(Math.floor(next() * 10 ** places)).padStart(places, '0')}`;
			ours.add(amount);
			theirs = theirs.plus(amount);
		}
		expect(new Decimal(ours.toString()).equals(theirs)).toBe(true);
	});
});

describe('rowsFingerprint', () => {
	const prepared = (orderId: string, amount: string, currency = 'TZS', appId = 1001): Prepared => ({
		path: `/${currency.toLowerCase()}/pay/apply`,
		currency,
		orderId,
		body: { orderId, amount, accountNo: '255712345678' },
		signer: { appId } as Prepared['signer'],
	});

	it('is the same for the same rows in any order, and differs for any change of what is sent, or of who sends it', () => {
		const rows = [prepared('A', '100'), prepared('B', '200.50')];
		const approved = rowsFingerprint(rows);
		expect(isFingerprint(approved)).toBe(true);
		expect(rowsFingerprint([rows[1], rows[0]])).toBe(approved);
		for (const changed of [
			[prepared('A', '100'), prepared('B', '200.5')],
			[prepared('A', '100'), prepared('B', '200.50', 'ZAR')],
			[prepared('A', '100'), prepared('B', '200.50', 'TZS', 1009)],
			[prepared('A', '100')],
			[...rows, prepared('C', '1')],
			[
				prepared('A', '100'),
				{ ...prepared('B', '200.50'), body: { orderId: 'B', amount: '200.50', accountNo: '255712345679' } },
			],
		]) {
			expect(rowsFingerprint(changed)).not.toBe(approved);
		}
	});
});
