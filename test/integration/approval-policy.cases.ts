/**
 * The approval policy by amount, held where the money leaves: real n8n-core executions of Payout → Check and
 * Payout → Create against the sandbox, whose request log shows what reached HaiPay. Check states what the policy asks
 * of a sheet; Create, given the approvals (n8n user id and the fingerprint each approved), sends nothing unless they
 * meet it: under the limit one approver; above it two distinct people, neither the uploader, both for these rows.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import type { PayoutCurrency } from '../fixtures/bodies';
import { NODE, sandboxPerFile } from './helpers';
import { requestsFor, runSheet, sheetRow } from './payout-sheets';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const CURRENCIES = ['TZS', 'ZAR', 'BDT'] as const;
const POLICY = JSON.stringify({
	ZAR: { oneApproverUpToTotal: '1000.00', oneApproverUpToRow: '600.00' },
	'*': { oneApproverUpToTotal: '100000', oneApproverUpToRow: '100000' },
});
const UPLOADER = 'user-uploader';

const row = (currency: PayoutCurrency, amount: string) => sheetRow('POL', currency, { amount });

async function check(items: IDataObject[], options: IDataObject = { approvalPolicy: POLICY }) {
	return await runSheet(sandbox, 'check', items, { output: 'summary', ...options }, { currencies: CURRENCIES });
}

async function summaryOf(items: IDataObject[]): Promise<IDataObject> {
	const result = await check(items);
	expect(result.status).toBe('success');
	return result.jsonOf(NODE)[0];
}

async function pay(
	items: IDataObject[],
	options: IDataObject,
	settings: IDataObject = { onError: 'continueRegularOutput' },
) {
	const all = { approvalPolicy: POLICY, uploadedBy: UPLOADER, ...options };
	return await runSheet(sandbox, 'create', items, all, { currencies: CURRENCIES, settings });
}

const received = (items: IDataObject[]) => requestsFor(sandbox, items);

const by = (userId: string, fingerprint: unknown): IDataObject => ({
	userId,
	fingerprint: fingerprint as string,
	approvedAt: '2026-06-30T10:00:00Z',
});

function expectRefused(out: IDataObject[], reason: RegExp): void {
	expect(out.length).toBeGreaterThan(0);
	for (const item of out) expect(item).toMatchObject({ outcome: 'invalid', rule: 'approvalPolicy' });
	expect(String(out[0].error)).toMatch(reason);
	expect(String(out[0].error)).toContain('nothing was sent');
}

describe('Payout → Check states what the policy asks', () => {
	it('a ZAR total exactly at the limit: one approver; each currency line says why', async () => {
		const summary = await summaryOf([row('ZAR', '600.00'), row('ZAR', '400'), row('TZS', '1500')]);
		expect(summary).toMatchObject({
			approvalsRequired: 1,
			approvalWhy: "every currency is within one approver's limits",
		});
		expect((summary.currencies as IDataObject[])[0]).toMatchObject({
			currency: 'ZAR',
			total: '1000.00',
			approvalsRequired: 1,
			largestRow: '600.00',
			oneApproverUpToTotal: '1000.00',
			oneApproverUpToRow: '600.00',
		});
		expect((summary.currencies as IDataObject[])[1]).toMatchObject({ currency: 'TZS', approvalsRequired: 1 });
	});

	it('one cent above: two approvers, and why names the total and the limit', async () => {
		const summary = await summaryOf([row('ZAR', '600.00'), row('ZAR', '400.01')]);
		expect(summary.approvalsRequired).toBe(2);
		expect(summary.approvalWhy).toBe(
			'the ZAR total 1000.01 is above 1000.00, the most one approver may approve: two approvers',
		);
	});

	it('a single row above the row limit in a two-row sheet: two approvers', async () => {
		const summary = await summaryOf([row('ZAR', '600.01'), row('ZAR', '1.00')]);
		expect(summary).toMatchObject({
			approvalsRequired: 2,
			approvalWhy: expect.stringContaining('a ZAR row of 600.01'),
		});
	});

	it('a policy that cannot be read stops the check, naming it', async () => {
		const result = await check([row('ZAR', '1')], { approvalPolicy: '{"ZAR": {"oneApproverUpToTotal": "1,000"}}' });
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain(
			'"Approval Policy" (approvalPolicy) "ZAR".oneApproverUpToTotal must be a plain decimal',
		);
	});

	it('without the option the summary is as it was', async () => {
		const summary = (await check([row('ZAR', '5000')], {})).jsonOf(NODE)[0];
		expect(summary.approvalsRequired).toBeUndefined();
	});
});

describe('Payout → Create holds the approvals to the policy', () => {
	it('under the limit, one approver other than the uploader: paid', async () => {
		const rows = [row('ZAR', '500.00'), row('BDT', '700')];
		const { fingerprint } = await summaryOf(rows);
		const out = (await pay(rows, { approvals: [by('anna', fingerprint)] })).jsonOf(NODE);
		expect(out.map((item) => item.outcome)).toEqual(['accepted', 'accepted']);
		expect(received(rows)).toBe(2);
	});

	it('above the limit: one approver is refused with nothing sent; two distinct people pay it once', async () => {
		const rows = [row('ZAR', '700.00'), row('ZAR', '400.00')];
		const { fingerprint } = await summaryOf(rows);
		const one = (await pay(rows, { approvals: [by('anna', fingerprint)] })).jsonOf(NODE);
		expectRefused(
			one,
			/asks two distinct approvers, neither the uploader, for these 2 row\(s\) \(the ZAR total 1100.00 is above 1000.00.*a ZAR row of 700.00 is above 600.00.*1 approval\(s\) count/,
		);
		expect(received(rows)).toBe(0);
		const two = (
			await pay(rows, { approvals: JSON.stringify([by('anna', fingerprint), by('ben', fingerprint)]) })
		).jsonOf(NODE);
		expect(two.map((item) => item.outcome)).toEqual(['accepted', 'accepted']);
		expect(received(rows)).toBe(2);
	});

	it.each<[string, (fingerprint: string) => IDataObject[], RegExp]>([
		[
			'two approvals by the same person',
			(f) => [by('anna', f), by('anna', f)],
			/approval 2 \(user anna\) is the same person again/,
		],
		[
			'the uploader as second approver',
			(f) => [by('anna', f), by(UPLOADER, f)],
			/approval 2 \(user user-uploader\) is by the uploader/,
		],
		[
			'a second approval of other rows',
			(f) => [by('anna', f), by('ben', `v1:${'0'.repeat(64)}`)],
			/approval 2 \(user ben\) is for other rows/,
		],
		['a second approval naming no fingerprint', (f) => [by('anna', f), by('ben', 'approved')], /names no fingerprint/],
		['no approvals at all', () => [], /0 approval\(s\) count/],
	])('above the limit, %s: refused, nothing sent', async (_, approvals, reason) => {
		const rows = [row('ZAR', '1000.01')];
		const { fingerprint } = await summaryOf(rows);
		expectRefused((await pay(rows, { approvals: approvals(String(fingerprint)) })).jsonOf(NODE), reason);
		expect(received(rows)).toBe(0);
	});

	it('under the limit, the uploader alone is refused; an approval of other rows is refused', async () => {
		const rows = [row('TZS', '1500')];
		const { fingerprint } = await summaryOf(rows);
		expectRefused((await pay(rows, { approvals: [by(UPLOADER, fingerprint)] })).jsonOf(NODE), /is by the uploader/);
		const other = (await summaryOf([row('TZS', '1500')])).fingerprint;
		expectRefused((await pay(rows, { approvals: [by('anna', other)] })).jsonOf(NODE), /is for other rows/);
		expect(received(rows)).toBe(0);
	});

	it.each<[string, IDataObject, string, RegExp]>([
		['a policy without Uploaded By', { uploadedBy: undefined }, 'uploadedBy', /is needed with an approval policy/],
		[
			'Uploaded By empty (an expression that lost it)',
			{ uploadedBy: '={{ $json.nobody }}' },
			'uploadedBy',
			/added but empty/,
		],
		['a policy that is not JSON', { approvalPolicy: '{ZAR' }, 'approvalPolicy', /is not JSON/],
		['approvals without a user id', { approvals: [{ fingerprint: 'v1:x' }] }, 'approvals', /approval 1 has no userId/],
	])('%s: every row invalid, naming the field, nothing sent', async (_, options, field, reason) => {
		const rows = [row('TZS', '1500'), row('ZAR', '10.00')];
		const { fingerprint } = await summaryOf(rows);
		const given: IDataObject = { approvals: [by('anna', fingerprint)], ...options };
		const all = {
			approvalPolicy: POLICY,
			...(options.uploadedBy === undefined && 'uploadedBy' in options ? {} : { uploadedBy: UPLOADER }),
			...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
		};
		const settings = { onError: 'continueRegularOutput' };
		const result = await runSheet(sandbox, 'create', rows, all, { currencies: CURRENCIES, settings });
		const out = result.jsonOf(NODE);
		expectRefused(out, reason);
		expect(out[0].field).toBe(field);
		expect(received(rows)).toBe(0);
	});

	it('without On Error → Continue the node stops before sending anything', async () => {
		const rows = [row('ZAR', '2000.00')];
		const { fingerprint } = await summaryOf(rows);
		const result = await pay(rows, { approvals: [by('anna', fingerprint)] }, {});
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('asks two distinct approvers');
		expect(received(rows)).toBe(0);
	});

	it('Approvals alone, without a policy: one approver who is not the uploader, for these rows', async () => {
		const rows = [row('ZAR', '99999.00')];
		const { fingerprint } = await summaryOf(rows);
		const bare = { uploadedBy: UPLOADER };
		const refused = await runSheet(
			sandbox,
			'create',
			rows,
			{ ...bare, approvals: [by(UPLOADER, fingerprint)] },
			{ currencies: CURRENCIES, settings: { onError: 'continueRegularOutput' } },
		);
		expectRefused(refused.jsonOf(NODE), /asks one approver other than the uploader/);
		const paid = await runSheet(
			sandbox,
			'create',
			rows,
			{ ...bare, approvals: [by('anna', fingerprint)] },
			{
				currencies: CURRENCIES,
			},
		);
		expect(paid.jsonOf(NODE)[0].outcome).toBe('accepted');
		expect(received(rows)).toBe(1);
	});
});

describe("Payout → Create holds approvals to the policy's approvalsValidForHours", () => {
	const EXPIRING = JSON.stringify({ ...JSON.parse(POLICY), approvalsValidForHours: 72 });
	const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
	const at = (userId: string, fingerprint: unknown, approvedAt: string): IDataObject => ({
		userId,
		fingerprint: fingerprint as string,
		approvedAt,
	});

	it('an approval 73 hours old counts for nothing: every row invalid, nothing sent, naming its age', async () => {
		const rows = [row('ZAR', '500.00')];
		const { fingerprint } = await summaryOf(rows);
		const out = (
			await pay(rows, { approvalPolicy: EXPIRING, approvals: [at('anna', fingerprint, hoursAgo(73))] })
		).jsonOf(NODE);
		expectRefused(out, /approval 1 \(user anna\) was given at .*, 73\.0 hours ago: approvals count for 72 hours/);
		expect(received(rows)).toBe(0);
	});

	it('the same approval given an hour ago: paid once', async () => {
		const rows = [row('ZAR', '500.00')];
		const { fingerprint } = await summaryOf(rows);
		const out = (
			await pay(rows, { approvalPolicy: EXPIRING, approvals: [at('anna', fingerprint, hoursAgo(1))] })
		).jsonOf(NODE);
		expect(out.map((item) => item.outcome)).toEqual(['accepted']);
		expect(received(rows)).toBe(1);
	});

	it('two approvers where one approval has expired: refused, nothing sent', async () => {
		const rows = [row('ZAR', '900.00'), row('ZAR', '900.00')];
		const { fingerprint } = await summaryOf(rows);
		const approvals = [at('anna', fingerprint, hoursAgo(1)), at('ben', fingerprint, hoursAgo(80))];
		const out = (await pay(rows, { approvalPolicy: EXPIRING, approvals })).jsonOf(NODE);
		expectRefused(out, /two distinct approvers.*1 approval\(s\) count.*approval 2 \(user ben\) was given at/);
		expect(received(rows)).toBe(0);
	});
});
