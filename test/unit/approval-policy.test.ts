/**
 * The approval policy by amount (nodes/HaiPay/approval/policy.ts) and how approvals are counted against it
 * (approvals.ts), at their edges: a total exactly at one approver's limit and one smallest unit above it in every
 * payout currency's places, a single row above the row limit in a small sheet, exact decimals where floating point
 * drifts, two approvals by one person, the uploader approving, an approval of other rows, and every way a policy
 * can be written wrong.
 */
import { countedApprovals, readApprovals } from '../../nodes/HaiPay/approval/approvals';
import { currencyDecimals } from '../../nodes/HaiPay/approval/places';
import { approvalNeed, PolicyError, readPolicy } from '../../nodes/HaiPay/approval/policy';
import type { Prepared } from '../../nodes/HaiPay/execute/types';
import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';

const rowsOf = (currency: string, amounts: string[]): Prepared[] =>
	amounts.map((amount) => ({ path: '/x', currency, body: { amount } }));

/** The smallest amount of a currency with `places` decimals, and a limit written in them. */
function unit(places: number): string {
	return places === 0 ? '1' : `0.${'1'.padStart(places, '0')}`;
}
function inPlaces(whole: string, places: number): string {
	return places === 0 ? whole : `${whole}.${'0'.repeat(places)}`;
}

describe('what the policy asks', () => {
	it.each(Object.keys(PAYOUT_RULES))(
		'%s: a total exactly at the limit needs one approver; one smallest unit above it needs two',
		(currency) => {
			const places = currencyDecimals(currency);
			const limit = inPlaces('1000', places);
			const policy = readPolicy({ [currency]: { oneApproverUpToTotal: limit, oneApproverUpToRow: limit } });
			// 600 + 400 written in the currency's places is exactly the limit.
			const at = approvalNeed(rowsOf(currency, [inPlaces('600', places), inPlaces('400', places)]), policy);
			expect(at.approvalsRequired).toBe(1);
			expect(at.currencies[0].total).toBe(limit);
			const above = approvalNeed(
				rowsOf(currency, [inPlaces('600', places), inPlaces('400', places), unit(places)]),
				policy,
			);
			expect(above.approvalsRequired).toBe(2);
			expect(above.why).toContain(`the ${currency} total`);
			expect(above.why).toContain(`above ${limit}`);
		},
	);

	it('a single row above the row limit in a small sheet needs two, though the total is far below its limit', () => {
		const policy = readPolicy({ ZAR: { oneApproverUpToTotal: '100000.00', oneApproverUpToRow: '2500.00' } });
		const need = approvalNeed(rowsOf('ZAR', ['10.00', '2500.01']), policy);
		expect(need).toMatchObject({ approvalsRequired: 2 });
		expect(need.why).toContain('a ZAR row of 2500.01 is above 2500.00');
		expect(need.why).not.toContain('total');
		expect(approvalNeed(rowsOf('ZAR', ['10.00', '2500.00']), policy).approvalsRequired).toBe(1);
	});

	it('sums exactly: 0.10 + 0.20 is 0.30 at a limit of 0.30 (a float sum is 0.30000000000000004)', () => {
		expect(0.1 + 0.2 > 0.3).toBe(true);
		const policy = readPolicy({ ZAR: { oneApproverUpToTotal: '0.30', oneApproverUpToRow: '0.3' } });
		expect(approvalNeed(rowsOf('ZAR', ['0.10', '0.20']), policy).approvalsRequired).toBe(1);
		expect(approvalNeed(rowsOf('ZAR', ['0.10', '0.21']), policy).approvalsRequired).toBe(2);
	});

	it('a large total beyond what a float holds exactly is compared exactly', () => {
		const policy = readPolicy({
			TZS: { oneApproverUpToTotal: '9007199254740993.00', oneApproverUpToRow: '9007199254740993' },
		});
		expect(approvalNeed(rowsOf('TZS', ['9007199254740993.00']), policy).approvalsRequired).toBe(1);
		expect(approvalNeed(rowsOf('TZS', ['9007199254740993.01']), policy).approvalsRequired).toBe(2);
	});

	it('the strictest currency decides; "*" covers the others; a currency in neither needs two', () => {
		const policy = readPolicy({
			ZAR: { oneApproverUpToTotal: '1000', oneApproverUpToRow: '1000' },
			'*': { oneApproverUpToTotal: '50', oneApproverUpToRow: '50' },
		});
		const mixed = [...rowsOf('ZAR', ['900.00']), ...rowsOf('TZS', ['40.00'])];
		expect(approvalNeed(mixed, policy).approvalsRequired).toBe(1);
		const over = [...rowsOf('ZAR', ['900.00']), ...rowsOf('TZS', ['60.00'])];
		expect(approvalNeed(over, policy)).toMatchObject({ approvalsRequired: 2, why: expect.stringContaining('TZS') });
		const onlyZar = readPolicy({ ZAR: { oneApproverUpToTotal: '1000', oneApproverUpToRow: '1000' } });
		expect(approvalNeed(rowsOf('BDT', ['1']), onlyZar)).toMatchObject({
			approvalsRequired: 2,
			why: 'BDT is not in the approval policy, so two approvers are needed',
		});
	});

	it('without a policy one approver suffices', () => {
		expect(approvalNeed(rowsOf('ZAR', ['99999999.99']), undefined).approvalsRequired).toBe(1);
	});
});

describe('a policy written wrong is refused, naming what', () => {
	const limit = { oneApproverUpToTotal: '100', oneApproverUpToRow: '10' };
	it.each<[string, unknown, RegExp]>([
		['not JSON', '{ZAR: 1}', /is not JSON/],
		['a list', '[]', /object keyed by currency/],
		['empty', '{}', /names no currency/],
		['a currency in lower case', { zar: limit }, /"zar" is not a payout currency/],
		['a currency HaiPay does not pay out in', { XYZ: limit }, /"XYZ" is not a payout currency/],
		['a limit missing', { ZAR: { oneApproverUpToTotal: '100' } }, /"ZAR".oneApproverUpToRow must be a plain decimal/],
		['a misspelt member', { ZAR: { ...limit, oneApproverUpToTotals: '5' } }, /"oneApproverUpToTotals"/],
		['a negative limit', { ZAR: { ...limit, oneApproverUpToRow: '-5' } }, /plain decimal/],
		['an exponent', { ZAR: { ...limit, oneApproverUpToTotal: '1e6' } }, /plain decimal/],
		['grouped digits', { ZAR: { ...limit, oneApproverUpToTotal: '1,000' } }, /plain decimal/],
		['more places than the currency has', { BDT: { ...limit, oneApproverUpToRow: '10.5' } }, /more places than BDT/],
		[
			'ZAR to three places',
			{ ZAR: { ...limit, oneApproverUpToRow: '10.005' } },
			/more places than ZAR amounts have \(2\)/,
		],
	])('%s', (_, value, message) => {
		expect(() => readPolicy(typeof value === 'string' ? value : JSON.stringify(value))).toThrow(PolicyError);
		expect(() => readPolicy(value)).toThrow(message);
	});

	it('trailing zeros beyond the places are the same amount, and numbers are read as written', () => {
		expect(readPolicy({ BDT: { oneApproverUpToTotal: '100.00', oneApproverUpToRow: 50 } }).get('BDT')).toEqual({
			oneApproverUpToTotal: '100.00',
			oneApproverUpToRow: '50',
		});
	});
});

describe('approvals counted against the rows', () => {
	const fingerprint = `v1:${'a'.repeat(64)}`;
	const other = `v1:${'b'.repeat(64)}`;

	it('counts each person once, never the uploader, only for the rows approved', () => {
		const approvals = readApprovals([
			{ userId: 'anna', fingerprint },
			{ userId: 'anna', fingerprint },
			{ userId: 'uploader', fingerprint },
			{ userId: 'ben', fingerprint: other },
			{ userId: 'cleo', fingerprint: 'yes' },
			{ userId: 'dan', fingerprint },
		]);
		const { counted, notCounted } = countedApprovals(approvals, fingerprint, 'uploader');
		expect(counted).toEqual(['anna', 'dan']);
		expect(notCounted).toEqual([
			'approval 2 (user anna) is the same person again',
			'approval 3 (user uploader) is by the uploader',
			`approval 4 (user ben) is for other rows (${other.slice(0, 15)}…)`,
			'approval 5 (user cleo) names no fingerprint Payout → Check gives',
		]);
	});

	it('reads JSON text, one approval alone, and refuses an approval without a user id', () => {
		expect(readApprovals(JSON.stringify([{ userId: ' u1 ', fingerprint, approvedAt: 't' }]))).toEqual([
			{ userId: 'u1', fingerprint, approvedAt: 't' },
		]);
		expect(readApprovals({ userId: 'u1', fingerprint })).toHaveLength(1);
		expect(readApprovals('')).toEqual([]);
		expect(() => readApprovals([{ fingerprint }])).toThrow('approval 1 has no userId');
		expect(() => readApprovals([{ userId: 'u', fingerprint }, 'anna'])).toThrow('approval 2 is not an object');
		expect(() => readApprovals('[{')).toThrow('is not JSON');
	});
});

describe("approvals that expire (the policy's approvalsValidForHours)", () => {
	const fingerprint = `v1:${'c'.repeat(64)}`;
	const now = Date.parse('2026-12-06T12:00:00.000Z');
	const expiry = { hours: 72, now };
	const counted = (approvedAt: string | undefined) =>
		countedApprovals(
			readApprovals([{ userId: 'anna', fingerprint, ...(approvedAt === undefined ? {} : { approvedAt }) }]),
			fingerprint,
			'uploader',
			expiry,
		);

	it('counts an approval exactly 72 hours old, not one a millisecond older', () => {
		expect(counted('2026-12-03T12:00:00.000Z').counted).toEqual(['anna']);
		expect(counted('2026-12-03T11:59:59.999Z').notCounted).toEqual([
			'approval 1 (user anna) was given at 2026-12-03T11:59:59.999Z, 72.0 hours ago: approvals count for 72 hours',
		]);
	});

	it('reads the zone: 14:00 at +02:00 is noon UTC, and the same time without a zone is refused', () => {
		expect(counted('2026-12-03T14:00:00+02:00').counted).toEqual(['anna']);
		expect(counted('2026-12-03T13:59:59+02:00').counted).toEqual([]);
		expect(counted('2026-12-05T12:00:00').notCounted[0]).toMatch(/not an ISO 8601 time with its zone/);
		expect(counted('yesterday').notCounted[0]).toMatch(/not an ISO 8601 time with its zone/);
	});

	it('refuses an approval without its time, and one from the future beyond five minutes of drift', () => {
		expect(counted(undefined).notCounted).toEqual([
			"approval 1 (user anna) has no approvedAt, and the policy's approvals count for 72 hours",
		]);
		expect(counted('2026-12-06T12:05:00.000Z').counted).toEqual(['anna']);
		expect(counted('2026-12-06T12:05:00.001Z').notCounted[0]).toMatch(/in the future/);
	});

	it('without the member, an approval counts whatever its age or time', () => {
		const approvals = readApprovals([{ userId: 'anna', fingerprint, approvedAt: '1999-01-01T00:00:00Z' }]);
		expect(countedApprovals(approvals, fingerprint, 'uploader').counted).toEqual(['anna']);
	});

	it('reads the member beside the currencies and refuses what is not a number of hours', () => {
		const limits = { oneApproverUpToTotal: '10', oneApproverUpToRow: '10' };
		expect(readPolicy({ approvalsValidForHours: 72, ZAR: limits }).validForHours).toBe(72);
		expect(readPolicy(JSON.stringify({ ZAR: limits, approvalsValidForHours: '0.5' })).validForHours).toBe(0.5);
		expect(readPolicy({ approvalsValidForHours: 8784, ZAR: limits }).validForHours).toBe(8784);
		expect(readPolicy({ ZAR: limits }).validForHours).toBeUndefined();
		for (const bad of [0, -1, 'soon', '0x10', '1e2', '', 8785, null, true])
			expect(() => readPolicy({ approvalsValidForHours: bad, ZAR: limits })).toThrow(/approvalsValidForHours/);
		expect(() => readPolicy({ approvalsValidForHours: 72 })).toThrow(/names no currency/);
	});
});
