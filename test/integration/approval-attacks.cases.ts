/**
 * The finance controls attacked in real n8n-core executions against the sandbox: an insider counting twice under
 * one id written two ways, or approving their own upload under another case; a careless author paying part of an
 * approved sheet, or the sheet with an amount written otherwise; a lying gateway answering the balance with a
 * number that is not a plain decimal, about another account, late, or with an HTML page under HTTP 200. The request
 * log shows what reached HaiPay.
 */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { APP_IDS, type PayoutCurrency } from '../fixtures/bodies';
import { NODE, sandboxPerFile } from './helpers';
import { runSheet, sheetRow } from './payout-sheets';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});
beforeEach(() => {
	sandbox.control.setBalance(APP_IDS.ZAR, '1000000.00');
	sandbox.control.setBalance(APP_IDS.TZS, '1000000.00');
});

const CURRENCIES = ['TZS', 'ZAR', 'BDT'] as const;
const POLICY = JSON.stringify({
	ZAR: { oneApproverUpToTotal: '1000.00', oneApproverUpToRow: '600.00' },
	BDT: { oneApproverUpToTotal: '5000', oneApproverUpToRow: '5000' },
});
const UPLOADER = 'user-uploader';
type Fault = Parameters<Sandbox['control']['addFault']>[0];

const row = (currency: PayoutCurrency, amount: string) => sheetRow('ATK', currency, { amount });

async function run(operation: 'check' | 'create', items: IDataObject[], options: IDataObject, baseUrl?: string) {
	const all = { retries: 0, ...(operation === 'check' ? { output: 'summary' } : {}), ...options };
	const settings = { onError: 'continueRegularOutput' };
	return await runSheet(sandbox, operation, items, all, { currencies: CURRENCIES, baseUrl, settings });
}

async function summaryOf(items: IDataObject[], options: IDataObject = {}): Promise<IDataObject> {
	const result = await run('check', items, { approvalPolicy: POLICY, ...options });
	expect(result.status).toBe('success');
	return result.jsonOf(NODE)[0];
}

async function pay(items: IDataObject[], approvals: IDataObject[], uploadedBy: string = UPLOADER) {
	return (await run('create', items, { approvalPolicy: POLICY, uploadedBy, approvals })).jsonOf(NODE);
}

const received = (items: IDataObject[]): number =>
	sandbox.requests.filter((request) =>
		items.some((item) => (request.body as IDataObject | undefined)?.orderId === item.orderId),
	).length;

const by = (userId: unknown, fingerprint: unknown): IDataObject =>
	({ userId, fingerprint, approvedAt: '2026-06-30T10:00:00Z' }) as IDataObject;

function expectRefused(out: IDataObject[], items: IDataObject[], reason: RegExp): void {
	expect(out.length).toBe(items.length);
	for (const item of out) expect(item).toMatchObject({ outcome: 'invalid', rule: 'approvalPolicy' });
	expect(String(out[0].error)).toMatch(reason);
	expect(received(items)).toBe(0);
}

describe('an insider cannot count twice, nor approve their own upload', () => {
	it.each<[string, string, string]>([
		['letter case and a trailing space', 'anna', 'Anna '],
		['fullwidth letters', 'anna', 'ａｎｎａ'],
	])('one person under %s is one approval: nothing paid above the limit', async (_, first, second) => {
		const rows = [row('ZAR', '700.00'), row('ZAR', '400.00')];
		const { fingerprint } = await summaryOf(rows);
		const out = await pay(rows, [by(first, fingerprint), by(second, fingerprint)]);
		expectRefused(out, rows, /1 approval\(s\) count \(approval 2 \(user .*\) is the same person again\)/);
	});

	it('the uploader in other case is still the uploader', async () => {
		const rows = [row('ZAR', '700.00')];
		const { fingerprint } = await summaryOf(rows);
		const out = await pay(rows, [by('anna', fingerprint), by('USER-UPLOADER', fingerprint)]);
		expectRefused(out, rows, /is by the uploader/);
	});

	it('an approver id with a Cyrillic look-alike is refused, naming the approval', async () => {
		const rows = [row('ZAR', '700.00')];
		const { fingerprint } = await summaryOf(rows);
		const out = await pay(rows, [by('anna', fingerprint), by('\u0430nna', fingerprint)]);
		expectRefused(out, rows, /"approvals" approval 2 has a user id with U\+0430/);
		expect(out[0]).toMatchObject({ field: 'approvals' });
	});

	it.each<[string, unknown]>([
		['an object', { id: 'ben' }],
		['null', null],
		['an empty string', ''],
	])('an approver id that is %s is refused', async (_, id) => {
		const rows = [row('ZAR', '100.00')];
		const { fingerprint } = await summaryOf(rows);
		expectRefused(await pay(rows, [by(id, fingerprint)]), rows, /approval 1 has no userId/);
	});

	it('two distinct people still pay, once', async () => {
		const rows = [row('ZAR', '700.00')];
		const { fingerprint } = await summaryOf(rows);
		const out = await pay(rows, [by('Anna', fingerprint), by('ben', fingerprint)]);
		expect(out.map((item) => item.outcome)).toEqual(['accepted']);
		expect(received(rows)).toBe(1);
	});
});

describe('a careless author pays only what was approved', () => {
	it("part of an approved sheet, split to stay under the limit, is not the sheet: the sheet's approval pays neither part", async () => {
		const rows = [row('ZAR', '500.00'), row('ZAR', '500.00'), row('ZAR', '500.00')];
		const { fingerprint, approvalsRequired } = await summaryOf(rows);
		expect(approvalsRequired).toBe(2);
		const out = await pay(rows.slice(0, 2), [by('anna', fingerprint)]);
		expectRefused(out, rows.slice(0, 2), /is for other rows/);
	});

	it.each([
		['"500" where "500.00" was approved', '500'],
		['0.01 more than approved', '500.01'],
	])('an amount written %s is other rows: nothing paid', async (_, amount) => {
		const approved = row('ZAR', '500.00');
		const { fingerprint } = await summaryOf([approved]);
		const sent = { ...approved, amount };
		expectRefused(await pay([sent], [by('anna', fingerprint)]), [sent], /is for other rows/);
	});

	it('two currencies each within their own limits ask one approver (the limits are per currency)', async () => {
		const rows = [row('ZAR', '600.00'), row('BDT', '5000')];
		const summary = await summaryOf(rows);
		expect(summary.approvalsRequired).toBe(1);
		const out = await pay(rows, [by('anna', summary.fingerprint)]);
		expect(out.map((item) => item.outcome)).toEqual(['accepted', 'accepted']);
	});
});

it('a policy naming ZAR twice, strict then lax, is refused: nothing paid', async () => {
	const rows = [row('ZAR', '900.00')];
	const { fingerprint } = await summaryOf(rows);
	const lax = '{"oneApproverUpToTotal": "99999.00", "oneApproverUpToRow": "99999.00"}';
	const policy = `{"ZAR": {"oneApproverUpToTotal": "10.00", "oneApproverUpToRow": "10.00"}, "ZAR": ${lax}}`;
	const out = (
		await run('create', rows, { approvalPolicy: policy, uploadedBy: UPLOADER, approvals: [by('anna', fingerprint)] })
	).jsonOf(NODE);
	expect(out[0]).toMatchObject({ outcome: 'invalid', field: 'approvalPolicy' });
	expect(String(out[0].error)).toContain('names "ZAR" twice in one object');
	expect(received(rows)).toBe(0);
});

describe('a lying gateway: a balance not proven is unknown, never enough', () => {
	const LEDGER = '/zar/account/ledger';
	const balanceOf = async () => {
		const summary = await summaryOf([row('ZAR', '10.00')], { checkBalance: true, timeout: 1000 });
		return (summary.currencies as IDataObject[])[0];
	};

	it.each<[string, Fault, RegExp]>([
		[
			'availableBal with spaces',
			{ type: 'replaceData', path: LEDGER, data: { availableBal: ' 99999.00 ' } },
			/decimal/,
		],
		['availableBal in exponent form', { type: 'replaceData', path: LEDGER, data: { availableBal: '1e9' } }, /decimal/],
		[
			'availableBal with commas',
			{ type: 'replaceData', path: LEDGER, data: { availableBal: '1,000,000.00' } },
			/decimal/,
		],
		['availableBal a huge JSON number', { type: 'replaceData', path: LEDGER, data: { availableBal: 1e21 } }, /decimal/],
		[
			"availableBal a JSON number past a double's digits (99999999999999999.99 reads as 1e17)",
			{ type: 'replaceData', path: LEDGER, data: { availableBal: 99999999999999999.99 } },
			/decimal/,
		],
		[
			'a signed answer naming another App ID',
			{ type: 'replaceData', path: LEDGER, data: { appId: APP_IDS.TZS, availableBal: '99999.00' } },
			/about App ID/,
		],
		[
			'a signed answer naming another currency',
			{ type: 'replaceData', path: LEDGER, data: { currency: 'TZS', availableBal: '99999.00' } },
			/about TZS, not ZAR/,
		],
		[
			"an order query's answer",
			{ type: 'replaceData', path: LEDGER, data: { orderNo: 'HP-1', status: 2, availableBal: '99999.00' } },
			/about an order/,
		],
		['a ledger slower than the timeout', { type: 'latency', ms: 4000, path: LEDGER, times: 1 }, /./],
	])('%s', async (_, fault, why) => {
		sandbox.control.addFault(fault);
		try {
			const line = await balanceOf();
			expect(line).toMatchObject({ balance: 'unknown', availableBal: null, shortfall: null });
			expect(String(line.balanceWhy)).toMatch(why);
		} finally {
			sandbox.control.clearFaults();
		}
	});
});

it("a ledger answering HTTP 200 with an HTML page (a proxy's login page): unknown, never enough", async () => {
	const page = '<html><body>{"data": {"availableBal": "99999.00"}}</body></html>';
	const server = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const { port } = server.address() as AddressInfo;
		const options = { approvalPolicy: POLICY, checkBalance: true };
		const result = await run('check', [row('ZAR', '10.00')], options, `http://127.0.0.1:${port}`);
		const line = (result.jsonOf(NODE)[0].currencies as IDataObject[])[0];
		expect(line).toMatchObject({ balance: 'unknown', availableBal: null, shortfall: null });
		expect(String(line.balanceWhy)).not.toBe('');
	} finally {
		await new Promise((resolve) => server.close(resolve));
	}
});

it("a balance HaiPay signed for another currency's App ID, replayed as ZAR's: the signature does not verify, unknown", async () => {
	// A proxy between the node and the sandbox keeps TZS's signed ledger answer, then answers ZAR's query with it.
	let kept: string | undefined;
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			if (req.url === '/zar/account/ledger' && kept !== undefined) {
				res.writeHead(200, { 'Content-Type': 'application/json' }).end(kept);
				return;
			}
			void fetch(`${sandbox.baseUrl}${req.url}`, {
				method: req.method,
				headers: { 'Content-Type': 'application/json' },
				body: Buffer.concat(chunks),
			}).then(async (answer) => {
				const body = await answer.text();
				if (req.url === '/tzs/account/ledger') kept = body;
				res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(body);
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		const options = { approvalPolicy: POLICY, checkBalance: true };
		const tzs = await run('check', [row('TZS', '1500')], options, proxy);
		expect((tzs.jsonOf(NODE)[0].currencies as IDataObject[])[0].balance).toBe('enough');
		expect(kept).toContain('availableBal');
		const zar = await run('check', [row('ZAR', '10.00')], options, proxy);
		const line = (zar.jsonOf(NODE)[0].currencies as IDataObject[])[0];
		expect(line).toMatchObject({ currency: 'ZAR', balance: 'unknown', availableBal: null });
		expect(String(line.balanceWhy)).toMatch(/signature does not verify/);
	} finally {
		await new Promise((resolve) => server.close(resolve));
	}
});
