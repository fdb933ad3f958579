/**
 * Spreadsheet-sized runs: a thousand rows, some invalid, through one HaiPay node in a real n8n-core execution.
 */
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';

import type { IDataObject } from 'n8n-workflow';

import { createPayout } from '../../nodes/HaiPay/resources/payout/create';
import type { Prepared } from '../../nodes/HaiPay/execute/types';

import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { NODE, payoutFromItem, runNode, TZS_FIELDS, tzsRow } from './helpers';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ manual: true });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.control.reset();
});

/** Refused rows are confirmed by a query once Not Found After has passed: kept short here. */
const createTzs = { ...payoutFromItem('TZS', TZS_FIELDS), options: { notFoundAfter: 1 } };

/** Every 7th row breaks a different rule; every 50th is refused by the gateway. */
function spreadsheet(rows: number): IDataObject[] {
	const breakers: IDataObject[] = [
		{ amount: '999' },
		{ accountNo: '2557123' },
		{ name: 'R2 D2' },
		{ email: 'nope' },
		{ bankCode: 'MPESA' },
	];
	return Array.from({ length: rows }, (_, index) => {
		const row = tzsRow({ orderId: `BULK-${String(index).padStart(5, '0')}`, amount: String(1000 + index) });
		if (index % 7 === 3) return { ...row, ...breakers[index % breakers.length] };
		if (index % 50 === 10) return { ...row, name: 'No Channel' };
		return row;
	});
}

describe('a 1,000-row bulk payout with Continue On Fail', () => {
	it('accounts for every row, in order, sends no invalid row and creates no order twice', async () => {
		const rows = spreadsheet(1000);
		const invalid = rows.filter((_, index) => index % 7 === 3);
		const refused = rows.filter((_, index) => index % 7 !== 3 && index % 50 === 10);
		const valid = rows.length - invalid.length - refused.length;

		const result = await runNode(sandbox, {
			parameters: { ...createTzs, options: { concurrency: 16, notFoundAfter: 1 } },
			items: rows,
			settings: { onError: 'continueRegularOutput' },
		});

		expect(result.status).toBe('success');
		const out = result.outputOf(NODE);
		expect(out).toHaveLength(rows.length);
		out.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json.orderId).toBe(rows[index].orderId);
		});
		const outcomes = out.map((item) => item.json.outcome);
		expect(outcomes.filter((outcome) => outcome === 'invalid')).toHaveLength(invalid.length);
		expect(outcomes.filter((outcome) => outcome === 'rejected')).toHaveLength(refused.length);
		expect(outcomes.filter((outcome) => outcome === 'accepted')).toHaveLength(valid);

		// The gateway saw only the rows that passed the rules, each once.
		expect(sandbox.appliesReceived(APP_IDS.TZS)).toBe(valid + refused.length);
		const created = sandbox.orders.map((order) => order.orderId);
		expect(new Set(created).size).toBe(created.length);
		expect(created).toHaveLength(valid);
		for (const row of invalid) expect(created).not.toContain(row.orderId);
		for (const item of out.filter((entry) => entry.json.outcome === 'invalid')) {
			expect(item.json).toMatchObject({ currency: 'TZS', errorType: 'invalid' });
			expect(item.json).toHaveProperty('field');
			expect(item.json).toHaveProperty('rule');
		}
	});

	it('takes the fields from the input items by their gateway names, with the same checks', async () => {
		const rows: IDataObject[] = spreadsheet(300).map((row) => ({ ...row, currency: 'TZS', note: 'ignored column' }));
		const invalid = rows.filter((_, index) => index % 7 === 3).length;
		const refused = rows.filter((_, index) => index % 7 !== 3 && index % 50 === 10).length;
		const result = await runNode(sandbox, {
			parameters: {
				resource: 'payout',
				operation: 'create',
				currency: '={{ $json.currency }}',
				fieldsFrom: 'input',
				options: { concurrency: 16, notFoundAfter: 1 },
			},
			items: rows,
			settings: { onError: 'continueRegularOutput' },
		});
		const out = result.jsonOf(NODE);
		expect(out.map((item) => item.orderId)).toEqual(rows.map((row) => row.orderId));
		expect(out.filter((item) => item.outcome === 'invalid')).toHaveLength(invalid);
		expect(out.filter((item) => item.outcome === 'accepted')).toHaveLength(rows.length - invalid - refused);
		expect(sandbox.appliesReceived(APP_IDS.TZS)).toBe(rows.length - invalid);
		const sent = sandbox.requests.find((entry) => entry.path === '/tzs/pay/apply')?.body as Record<string, unknown>;
		expect(sent).not.toHaveProperty('note');
		expect(sent).not.toHaveProperty('currency');
	});

	it('without Continue On Fail, one invalid row stops the run before anything is sent', async () => {
		const rows = spreadsheet(200);
		const result = await runNode(sandbox, { parameters: createTzs, items: rows });
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 3 });
		expect(sandbox.appliesReceived()).toBe(0);
	});

	it('with a rate set, sends every row once and keeps output order', async () => {
		const rows = Array.from({ length: 12 }, () => tzsRow());
		const result = await runNode(sandbox, {
			parameters: { ...createTzs, options: { requestsPerSecond: 40, concurrency: 4, notFoundAfter: 1 } },
			items: rows,
		});
		expect(result.jsonOf(NODE).map((item) => item.orderId)).toEqual(rows.map((row) => row.orderId));
		expect(sandbox.appliesReceived(APP_IDS.TZS)).toBe(12);
	});
});

describe("n8n's Retry On Fail on a bulk create", () => {
	/*
	 * "Retry On Fail" re-runs the whole node with every item. Around an outcome that is unknown (a time-out, a 5xx)
	 * each retry would send that create again, and every create before it. So a create refuses to run with the
	 * setting on, before anything is sent; n8n's own retries of that refusal send nothing either. The README tells
	 * users to use "On Error: Continue" and to route unknown outcomes to a query instead.
	 */
	it('is refused before anything is sent, with the setting named and On Error: Continue advised', async () => {
		const rows = Array.from({ length: 10 }, (_, index) => tzsRow(index === 5 ? { name: 'No Permission' } : {}));
		const before = sandbox.control.ledger(APP_IDS.TZS).availableBal;

		const result = await runNode(sandbox, {
			parameters: { ...createTzs, options: { concurrency: 1 } },
			items: rows,
			settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 },
		});

		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(result.error?.message).toContain('"Retry On Fail"');
		expect(result.error?.message).toContain('On Error → Continue');
		expect(sandbox.appliesReceived()).toBe(0);
		expect(sandbox.orders).toHaveLength(0);
		expect(sandbox.control.ledger(APP_IDS.TZS).availableBal).toBe(before);
	});

	it('with On Error: Continue instead, each row is sent once and the refused row comes out as an item', async () => {
		const rows = Array.from({ length: 10 }, (_, index) => tzsRow(index === 5 ? { name: 'No Permission' } : {}));
		const result = await runNode(sandbox, {
			parameters: createTzs,
			items: rows,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.status).toBe('success');
		expect(sandbox.appliesReceived(APP_IDS.TZS)).toBe(rows.length);
		expect(result.jsonOf(NODE)[5]).toMatchObject({ outcome: 'rejected', errorCode: '4010' });
	});
});

describe('what a bulk run holds while it goes on', () => {
	/*
	 * A payroll sheet's accepted rows must not keep their requests (body, signed answer) until the last row is
	 * answered: n8n's heap then grows with the sheet beyond what its run data needs. Each prepared request is
	 * watched through a WeakRef; when the sandbox has answered the last row, a full collection shows how many of the
	 * first half's requests are still held.
	 */
	it("holds no accepted row's request once it is answered", async () => {
		setFlagsFromString('--expose-gc');
		const collect = runInNewContext('gc') as () => void;
		const watched: Array<WeakRef<Prepared>> = [];
		// The credential has no Default Notify URL, so the request the operation prepares is the one the run keeps.
		const original = createPayout.prepare;
		createPayout.prepare = (ctx, itemIndex) => {
			const prepared = original.call(createPayout, ctx, itemIndex);
			watched.push(new WeakRef(prepared));
			return prepared;
		};
		const rows = Array.from({ length: 200 }, () => tzsRow());
		const last = String(rows[rows.length - 1].orderId);
		let held: number | undefined;
		const onRequest = (entry: { orderId?: string }) => {
			if (entry.orderId !== last) return;
			collect();
			held = watched.slice(0, 100).filter((ref) => ref.deref() !== undefined).length;
		};
		sandbox.events.on('request', onRequest);
		try {
			const result = await runNode(sandbox, {
				parameters: { ...createTzs, options: { concurrency: 4 } },
				items: rows,
			});
			expect(result.jsonOf(NODE).filter((item) => item.outcome === 'accepted')).toHaveLength(rows.length);
		} finally {
			sandbox.events.off('request', onRequest);
			createPayout.prepare = original;
		}
		expect(watched).toHaveLength(rows.length);
		expect(held).toBe(0);
	});
});
