/**
 * The kinds of request and their truth tables (nodes/shared/gateway/kinds.ts), and the settling step reading them:
 * what a query's answer settles depends on the kind, so that a change (a cancel) whose order is found is not called
 * accepted, and a query that publishes no "no such" answer never makes one up.
 */
import type { IDataObject } from 'n8n-workflow';

import { resolveAll, type ResolveSettings, type Unsettled } from '../../nodes/HaiPay/execute/resolve';
import type { Judged, Prepared, Settlement } from '../../nodes/HaiPay/execute/types';
import {
	OUTCOME_TABLES,
	provenOutcome,
	sentOnce,
	verdictOutcome,
	type OperationKind,
} from '../../nodes/shared/gateway/kinds';
import type { LookupResult } from '../../nodes/shared/gateway/lookup';
import { ItemFailure } from '../../nodes/shared/gateway/outcome';
import type { HaiPaySettings } from '../../nodes/shared/signing/credential';

describe('the truth tables', () => {
	it('sends every kind but a read once', () => {
		expect((['create', 'refund', 'change', 'read'] as OperationKind[]).map((kind) => [kind, sentOnce(kind)])).toEqual([
			['create', true],
			['refund', true],
			['change', true],
			['read', false],
		]);
	});

	it('names a proven answer by what the kind does: a change is "changed", never "accepted"', () => {
		expect(provenOutcome('create')).toBe('accepted');
		expect(provenOutcome('refund')).toBe('accepted');
		expect(provenOutcome('change')).toBe('changed');
		expect(provenOutcome('read')).toBeUndefined();
		expect(Object.values(OUTCOME_TABLES.change.query ?? {})).not.toContain('accepted');
	});

	it('settles each verdict of a query by the kind', () => {
		expect(verdictOutcome('create', 'done')).toBe('accepted');
		expect(verdictOutcome('create', 'other')).toBe('duplicate');
		expect(verdictOutcome('change', 'done')).toBe('changed');
		expect(verdictOutcome('change', 'pending')).toBe('unknown');
		expect(verdictOutcome('change', 'refused')).toBe('rejected');
		expect(verdictOutcome('read', 'done')).toBe('unknown');
	});

	it('settles an unsigned "already" of a change by its query, as a create\'s duplicate', () => {
		expect(OUTCOME_TABLES.change.duplicate).toBe('duplicate');
		expect(OUTCOME_TABLES.create.duplicate).toBe('duplicate');
		expect(OUTCOME_TABLES.read.lost).toBe('unavailable');
	});
});

/** A settlement whose query answers from a list, and judges by the answer's status: 9 is the change's own state. */
function scripted(answers: LookupResult[]): Settlement & { asked: number } {
	const settlement = {
		asked: 0,
		async lookup(): Promise<LookupResult> {
			const answer = answers[Math.min(settlement.asked, answers.length - 1)];
			settlement.asked += 1;
			return answer;
		},
		judge(data: IDataObject): Judged {
			if (data.status === 9) return { verdict: 'done' };
			if (data.status === 2) return { verdict: 'refused', why: 'the order was paid out before the cancel reached it' };
			return { verdict: 'pending', why: `the order still shows status ${String(data.status)}` };
		},
		item: (data: IDataObject, _prepared: Prepared, outcome: string): IDataObject => ({ ...data, outcome }),
	};
	return settlement;
}

const prepared: Prepared = { path: '/tzs/pay/cancel', body: { orderId: 'C-1' }, currency: 'TZS', orderId: 'C-1' };

async function settle(kind: OperationKind, answers: LookupResult[], withinMs = 1500) {
	const settlement = scripted(answers);
	const open: Unsettled[] = [
		{
			itemIndex: 0,
			prepared,
			failure: new ItemFailure('unknown', 'no answer within 10 ms'),
			endedAt: performance.now() - 60_000,
		},
	];
	const how: ResolveSettings = {
		kind,
		settlement,
		settings: {} as HaiPaySettings,
		call: { timeoutMs: 1000 },
		concurrency: 1,
		withinMs,
		notFoundAfterMs: 0,
	};
	const resolution = (await resolveAll({ helpers: {} as never }, open, how)).get(0);
	return { resolution, asked: settlement.asked };
}

describe('settling an open request by its kind', () => {
	it('a change whose query shows its own state is "changed"', async () => {
		const { resolution } = await settle('change', [{ found: true, data: { orderId: 'C-1', status: 9 } }]);
		expect(resolution).toMatchObject({ type: 'shown', outcome: 'changed' });
	});

	it('a change whose order is found unchanged is not settled: asked again, then unknown, never accepted', async () => {
		const { resolution, asked } = await settle('change', [{ found: true, data: { orderId: 'C-1', status: 1 } }]);
		expect(asked).toBeGreaterThan(1);
		expect(resolution?.type).toBe('failed');
		const failure = resolution?.type === 'failed' ? resolution.failure : undefined;
		expect(failure?.kind).toBe('unknown');
		expect(failure?.message).toMatch(/still shows status 1/);
	});

	it('a change whose order moved to a state it cannot reach is rejected', async () => {
		const { resolution } = await settle('change', [{ found: true, data: { orderId: 'C-1', status: 2 } }]);
		expect(resolution?.type === 'failed' ? [resolution.failure.kind, resolution.failure.message] : resolution).toEqual([
			'rejected',
			'the order was paid out before the cancel reached it',
		]);
	});

	it('the same found order settles a create as accepted', async () => {
		const { resolution } = await settle('create', [{ found: true, data: { orderId: 'C-1', status: 9 } }]);
		expect(resolution).toMatchObject({ type: 'shown', outcome: 'accepted' });
	});

	it('a proven absence is not_found, and for a change says nothing was there to change', async () => {
		const { resolution } = await settle('change', [{ found: false, errorMsg: 'order does not exist' }]);
		const failure = resolution?.type === 'failed' ? resolution.failure : undefined;
		expect([failure?.kind, failure?.message]).toEqual([
			'not_found',
			'HaiPay has no order with this orderId ("order does not exist"): there was nothing to change',
		]);
	});
});

describe('settling open requests on the monotonic clock', () => {
	afterEach(() => jest.restoreAllMocks());

	it.each([
		['an hour back', -3_600_000],
		['an hour ahead', 3_600_000],
	])('with the wall clock stepped %s during the first query, asks again and stops at its time', async (_name, ms) => {
		const now = Date.now.bind(Date);
		const settlement = scripted([{ found: true, data: { orderId: 'C-1', status: 1 } }]);
		const lookup = settlement.lookup.bind(settlement);
		settlement.lookup = async (...args) => {
			if (settlement.asked === 0) jest.spyOn(Date, 'now').mockImplementation(() => now() + ms);
			return await lookup(...args);
		};
		const open: Unsettled[] = [
			{ itemIndex: 0, prepared, failure: new ItemFailure('unknown', 'no answer'), endedAt: performance.now() },
		];
		const how: ResolveSettings = {
			kind: 'change',
			settlement,
			settings: {} as HaiPaySettings,
			call: { timeoutMs: 1000 },
			concurrency: 1,
			withinMs: 2_500,
			notFoundAfterMs: 0,
		};
		const started = performance.now();
		const resolution = (await resolveAll({ helpers: {} as never }, open, how)).get(0);
		// Asked at once and again after its 1-second backoff, then stopped at 2.5 s: neither an hour's sleep nor none.
		expect(settlement.asked).toBe(2);
		expect(performance.now() - started).toBeGreaterThanOrEqual(950);
		expect(performance.now() - started).toBeLessThan(2_500);
		expect(resolution?.type === 'failed' ? resolution.failure.kind : resolution).toBe('unknown');
	});
});
