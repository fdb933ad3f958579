/**
 * payTime with its offset (nodes/shared/contract/payTime.ts): a wall-clock time in a named zone becomes ISO 8601
 * with that zone's offset at that moment, and nothing where the moment is not one (the hour skipped or repeated
 * when the clocks change) or the text is not a time.
 */
import { zonedIso } from '../../nodes/shared/contract/payTime';
import { DEPOSIT_PAY_TIME_ZONE, isDepositCallback } from '../../nodes/shared/products/fixedAddress';

const NEW_YORK = DEPOSIT_PAY_TIME_ZONE;

describe('payTime as ISO 8601', () => {
	it("gives New York's offset for winter and summer, as the fixed-address page's example and a July deposit", () => {
		expect(NEW_YORK).toBe('America/New_York');
		expect(zonedIso('2024-03-01 23:59:59', NEW_YORK)).toBe('2024-03-01T23:59:59-05:00');
		expect(zonedIso('2024-07-01 12:00:00', NEW_YORK)).toBe('2024-07-01T12:00:00-04:00');
		expect(Date.parse(String(zonedIso('2024-07-01 12:00:00', NEW_YORK)))).toBe(Date.UTC(2024, 6, 1, 16));
	});

	it('follows the clock change: the last second before it and the first after it', () => {
		expect(zonedIso('2026-03-08 01:59:59', NEW_YORK)).toBe('2026-03-08T01:59:59-05:00');
		expect(zonedIso('2026-03-08 03:00:00', NEW_YORK)).toBe('2026-03-08T03:00:00-04:00');
		expect(zonedIso('2026-11-01 00:59:59', NEW_YORK)).toBe('2026-11-01T00:59:59-04:00');
		expect(zonedIso('2026-11-01 02:00:00', NEW_YORK)).toBe('2026-11-01T02:00:00-05:00');
	});

	it('guesses no offset for a time New York skipped or lived twice', () => {
		expect(zonedIso('2026-03-08 02:30:00', NEW_YORK)).toBeUndefined();
		expect(zonedIso('2026-11-01 01:30:00', NEW_YORK)).toBeUndefined();
	});

	it("gives nothing for text that is not a date and time in HaiPay's shape", () => {
		for (const text of [
			'',
			'2026-02-30 10:00:00',
			'2026-01-01 24:00:00',
			'2026-01-01 10:60:00',
			'2026-01-01 10:00:60',
			'2026-01-01T10:00:00',
			'2026-01-01 10:00:00 ',
			'2026-01-01 10:00:00-05:00',
			1_700_000_000,
			undefined,
		])
			expect([text, zonedIso(text, NEW_YORK)]).toEqual([text, undefined]);
	});

	it('reads a deposit callback by its transaction hash, and no other', () => {
		expect(isDepositCallback({ hash: 'ab12' })).toBe(true);
		for (const hash of [undefined, '', '  ', 12]) expect(isDepositCallback({ hash })).toBe(false);
	});
});
