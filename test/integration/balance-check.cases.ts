/**
 * Payout → Check, Options → Check Balance: HaiPay's signed balance of every currency with a row to pay, beside its
 * total to pay, before anyone approves. Short, enough, and every way a balance can fail to be proven (a failed read,
 * an unsigned answer, a forged signature, a signed answer with no decimal availableBal or about an order): the
 * currency is `unknown`, said why, and never enough. Real n8n-core executions against the sandbox over HTTP.
 */
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

const CURRENCIES = ['TZS', 'ZAR', 'NGN'] as const;
type Fault = Parameters<Sandbox['control']['addFault']>[0];

const row = (currency: PayoutCurrency, amount: string, overrides: IDataObject = {}) =>
	sheetRow('BAL', currency, { amount, ...overrides });

async function summaryOf(items: IDataObject[], options: IDataObject = { checkBalance: true }, credential = {}) {
	const all = { output: 'summary', retries: 0, ...options };
	const result = await runSheet(sandbox, 'check', items, all, { currencies: CURRENCIES, credential });
	expect(result.status).toBe('success');
	return result.jsonOf(NODE)[0];
}

const ledgerAsks = () => sandbox.requests.filter((request) => request.path.endsWith('/account/ledger')).length;
const lineOf = (summary: IDataObject, currency: string) =>
	(summary.currencies as IDataObject[]).find((line) => line.currency === currency) as IDataObject;

it('off by default: no balance is asked and the lines carry none', async () => {
	const before = ledgerAsks();
	const summary = await summaryOf([row('ZAR', '10.00')], {});
	expect(ledgerAsks()).toBe(before);
	expect(lineOf(summary, 'ZAR').balance).toBeUndefined();
	expect(summary.shortCurrencies).toBeUndefined();
});

it('short by one cent, and enough at exactly the total: the shortfall is exact, the short currency named', async () => {
	sandbox.control.setBalance(APP_IDS.ZAR, '1100.09');
	sandbox.control.setBalance(APP_IDS.TZS, '16000.00');
	const summary = await summaryOf([row('ZAR', '1000.00'), row('ZAR', '100.10'), row('TZS', '16000')]);
	expect(lineOf(summary, 'ZAR')).toMatchObject({
		total: '1100.10',
		balance: 'short',
		availableBal: '1100.09',
		shortfall: '0.01',
	});
	expect(lineOf(summary, 'TZS')).toMatchObject({
		total: '16000.00',
		balance: 'enough',
		availableBal: '16000.00',
		shortfall: '0',
	});
	expect(summary).toMatchObject({ shortCurrencies: ['ZAR'], balanceUnknownCurrencies: [] });
});

it('a negative balance is read as signed: the whole total and more is short', async () => {
	sandbox.control.addFault({
		type: 'replaceData',
		path: '/zar/account/ledger',
		data: { bal: '-50.00', availableBal: '-50.00', frzBal: '0', unSettleBal: '0' },
	});
	const summary = await summaryOf([row('ZAR', '10.00')]);
	expect(lineOf(summary, 'ZAR')).toMatchObject({ balance: 'short', availableBal: '-50.00', shortfall: '60.00' });
});

it('a currency with nothing to pay (every row invalid) is not asked', async () => {
	const before = ledgerAsks();
	const summary = await summaryOf([row('NGN', '5000', { accountNo: '12' }), row('TZS', '1500')]);
	expect(ledgerAsks()).toBe(before + 1);
	expect(lineOf(summary, 'NGN').balance).toBeUndefined();
	expect(lineOf(summary, 'TZS').balance).toBe('enough');
});

describe('a balance that cannot be read or proven is unknown, never enough', () => {
	it.each<[string, Fault, RegExp]>([
		['HTTP 502', { type: 'httpError', path: '/zar/account/ledger' }, /502/],
		['a refusal (status "0")', { type: 'statusZero', path: '/zar/account/ledger' }, /HaiPay/],
		['a forged signature', { type: 'badSignature', path: '/zar/account/ledger' }, /signature does not verify/],
		['an echo of the request', { type: 'echo', path: '/zar/account/ledger' }, /signature does not verify/],
		[
			'a signed answer whose availableBal is not a decimal',
			{ type: 'replaceData', path: '/zar/account/ledger', data: { bal: 'lots', availableBal: 'lots' } },
			/no availableBal that reads as a decimal/,
		],
		[
			'a signed answer with no availableBal',
			{ type: 'replaceData', path: '/zar/account/ledger', data: { bal: '99999999.00' } },
			/no availableBal/,
		],
		[
			'a signed answer about an order, with a large availableBal',
			{
				type: 'replaceData',
				path: '/zar/account/ledger',
				data: { orderId: 'X-1', orderNo: 'HP-1', availableBal: '99999999.00' },
			},
			/about an order, not a balance/,
		],
	])('%s', async (_, fault, why) => {
		sandbox.control.addFault(fault);
		const summary = await summaryOf([row('ZAR', '10.00'), row('TZS', '1500')]);
		expect(lineOf(summary, 'ZAR')).toMatchObject({ balance: 'unknown', availableBal: null, shortfall: null });
		expect(String(lineOf(summary, 'ZAR').balanceWhy)).toMatch(why);
		expect(lineOf(summary, 'TZS').balance).toBe('enough');
		expect(summary).toMatchObject({ shortCurrencies: [], balanceUnknownCurrencies: ['ZAR'] });
	});

	it("without HaiPay's public key no balance is proven: every currency unknown", async () => {
		const summary = await summaryOf(
			[row('ZAR', '10.00'), row('TZS', '1500')],
			{ checkBalance: true },
			{ haipayPublicKey: '' },
		);
		expect(summary.balanceUnknownCurrencies).toEqual(['ZAR', 'TZS']);
		for (const currency of ['ZAR', 'TZS']) expect(String(lineOf(summary, currency).balanceWhy)).toContain('not signed');
	});
});

it('asked for with One Item per Row, it stops the check naming the option and the output, and asks HaiPay nothing', async () => {
	const before = sandbox.requests.length;
	const items = [row('ZAR', '10.00')];
	const result = await runSheet(
		sandbox,
		'check',
		items,
		{ checkBalance: true, lookUpExisting: true },
		{
			currencies: CURRENCIES,
		},
	);
	expect(result.status).toBe('error');
	expect(result.error?.message).toBe(
		'"Check Balance" (checkBalance) puts each currency\'s balance on the Approval Summary: set Output to Approval Summary, or turn Check Balance off; nothing was checked',
	);
	expect(sandbox.requests.length).toBe(before);
	const rows = await runSheet(sandbox, 'check', items, { checkBalance: false }, { currencies: CURRENCIES });
	expect(rows.jsonOf(NODE)[0]).toMatchObject({ outcome: 'valid' });
});
