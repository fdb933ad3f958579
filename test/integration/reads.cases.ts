/**
 * Collections, queries, vouchers and balances in real n8n-core executions against the sandbox gateway.
 * Vouchers are opened for real: PDFs through pdf.js, ZIPs through JSZip.
 */
import JSZip from 'jszip';
import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS, MIT_COLLECTION } from '../fixtures/bodies';
import { binaryBuffer } from '../harness';
import { pdfText } from '../sandbox/helpers';
import { named, NODE, payoutFromItem, runNode, TZS_FIELDS, tzsRow, uniqueOrderId } from './helpers';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ manual: true });
});

afterAll(async () => {
	await sandbox.close();
});

afterEach(() => {
	sandbox.control.clearFaults();
	sandbox.control.setConfig({ voucherResponse: 'binary' });
});

/** pdf.js is an ES module, which jest cannot load in process: the sandbox tests' reader runs it in a child. */
async function pdfTextOf(buffer: Buffer): Promise<string> {
	const [read] = await pdfText([buffer]);
	return read.text;
}

const mitFields = ['orderId', 'amount', 'payType', 'inBankCode', 'name', 'phone', 'email', 'clientIp', 'partnerUserId'];

/** An amount as a number, which the node writes with the two decimals USD takes. */
function mitRow(overrides: Record<string, unknown> = {}) {
	return { orderId: uniqueOrderId('MIT'), ...MIT_COLLECTION, amount: 25, ...overrides };
}

describe('collection create (USD MIT)', () => {
	const parameters: INodeParameters = named({
		...payoutFromItem('USD', mitFields, ['tokenID']),
		resource: 'collection',
		// A refused create is confirmed by a query once Not Found After has passed: kept short here.
		options: { notFoundAfter: 1 },
	});

	it('first charge returns a payment page; its token charges the card later without one', async () => {
		const first = await runNode(sandbox, { currency: 'USD', parameters, items: [mitRow()] });
		const [charge] = first.jsonOf(NODE);
		expect(charge).toMatchObject({ outcome: 'accepted', currency: 'USD', verified: true });
		expect(String(charge.payUrl)).toMatch(/^http/);
		expect(typeof charge.clientToken).toBe('string');
		const sent = sandbox.requests.filter((entry) => entry.path === '/usd/mit/apply').pop();
		expect((sent?.body as { amount: string }).amount).toBe('25.00');

		const paid = sandbox.control.payCashier(charge.orderNo as string, 'pay');
		const tokenID = paid.mit?.tokenID;
		expect(typeof tokenID).toBe('string');

		const later = await runNode(sandbox, { currency: 'USD', parameters, items: [mitRow({ tokenID })] });
		expect(later.status).toBe('success');
		expect(later.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted' });
		expect(later.jsonOf(NODE)[0].payUrl ?? '').toBe('');
	});

	it('an unknown token is refused by the gateway', async () => {
		const result = await runNode(sandbox, {
			currency: 'USD',
			parameters,
			items: [mitRow({ tokenID: 'tok-does-not-exist' })],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'rejected' });
	});

	it('an amount that is not exactly two decimals is refused before sending', async () => {
		const before = sandbox.appliesReceived(APP_IDS.USD);
		const result = await runNode(sandbox, { currency: 'USD', parameters, items: [mitRow({ amount: '25.5' })] });
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('"amount" needs exactly 2 decimals');
		expect(sandbox.appliesReceived(APP_IDS.USD)).toBe(before);
	});
});

describe('collection get', () => {
	it.each(['SAR', 'IDR'] as const)('%s: amount, actualAmount, fee, status label', async (currency) => {
		const order = sandbox.control.createOrder({
			appId: APP_IDS[currency],
			kind: 'collection',
			orderId: uniqueOrderId(currency),
			amount: '200.00',
		});
		sandbox.control.setStatus(order.orderNo, 2);
		const result = await runNode(sandbox, {
			currency,
			parameters: { resource: 'collection', operation: 'get', currency, orderId: order.orderId },
		});
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ orderNo: order.orderNo, status: 2, statusLabel: 'success', verified: true });
		for (const field of ['amount', 'actualAmount', 'fee']) expect(typeof item[field]).toBe('string');
	});

	it('partial collection reads as such', async () => {
		const order = sandbox.control.createOrder({
			appId: APP_IDS.SAR,
			kind: 'collection',
			orderId: uniqueOrderId('SAR'),
			amount: '200.00',
		});
		sandbox.control.setStatus(order.orderNo, 4, { paidAmount: '150.00' });
		const result = await runNode(sandbox, {
			currency: 'SAR',
			parameters: { resource: 'collection', operation: 'get', currency: 'SAR', orderNo: order.orderNo },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ status: 4, statusLabel: 'partially collected' });
	});

	it('USDC: the data is passed through whole', async () => {
		const order = sandbox.control.createOrder({
			appId: 1011,
			kind: 'collection',
			orderId: uniqueOrderId('USDC'),
			amount: '10.00',
		});
		const result = await runNode(sandbox, {
			currency: 'USDC',
			parameters: { resource: 'collection', operation: 'get', currency: 'USDC', orderNo: order.orderNo },
		});
		const [item] = result.jsonOf(NODE);
		const answered = sandbox.requests.filter((entry) => entry.path === '/usdc/collect/query').length;
		expect(answered).toBeGreaterThan(0);
		expect(item).toMatchObject({ orderNo: order.orderNo, currency: 'USDC', verified: true });
		expect(item).not.toHaveProperty('sign');
	});
});

describe('account get balance', () => {
	it('reads the four balances as decimal strings, and they move with a payout', async () => {
		const read = async () =>
			(
				await runNode(sandbox, { parameters: { resource: 'account', operation: 'getBalance', currency: 'TZS' } })
			).jsonOf(NODE)[0];
		const before = await read();
		for (const field of ['bal', 'availableBal', 'frzBal', 'unSettleBal'])
			expect(before[field]).toMatch(/^-?\d+\.\d{2}$/);
		await runNode(sandbox, { parameters: payoutFromItem('TZS', TZS_FIELDS), items: [tzsRow({ amount: '10000' })] });
		const after = await read();
		expect(Number(before.availableBal) - Number(after.availableBal)).toBeGreaterThanOrEqual(10000);
	});
});

describe('voucher download', () => {
	async function finalPayouts(count: number, outcome: 'success' | 'failed' = 'success'): Promise<string[]> {
		const rows = Array.from({ length: count }, () => tzsRow({ subject: 'November salary' }));
		const created = await runNode(sandbox, { parameters: payoutFromItem('TZS', TZS_FIELDS, ['subject']), items: rows });
		const orderNos = created.jsonOf(NODE).map((item) => item.orderNo as string);
		for (const orderNo of orderNos) sandbox.control.settle(orderNo, outcome);
		return orderNos;
	}

	const voucher = (orderNos: unknown, extra: INodeParameters = {}): INodeParameters => ({
		resource: 'voucher',
		operation: 'download',
		orderNos: orderNos as string,
		...extra,
	});

	it('one order gives a PDF that shows it', async () => {
		const [orderNo] = await finalPayouts(1);
		const result = await runNode(sandbox, { parameters: voucher(orderNo, { lang: 'en', getFee: true }) });
		const [item] = result.outputOf(NODE);
		expect(item.json).toMatchObject({
			orderNos: [orderNo],
			mimeType: 'application/pdf',
			fileName: `voucher-${orderNo}.pdf`,
		});
		expect(item.binary?.data.mimeType).toBe('application/pdf');
		const pdf = await binaryBuffer(result, NODE, 0, 'data');
		expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
		expect(await pdfTextOf(pdf)).toContain(orderNo);
	});

	it('several orders give a ZIP of PDFs, from a comma list, into a chosen binary field', async () => {
		const orderNos = await finalPayouts(3);
		const result = await runNode(sandbox, {
			parameters: voucher(orderNos.join(', '), { binaryPropertyName: 'vouchers' }),
		});
		const [item] = result.outputOf(NODE);
		expect(item.json).toMatchObject({ mimeType: 'application/zip', orderNos });
		const zip = await JSZip.loadAsync(await binaryBuffer(result, NODE, 0, 'vouchers'));
		const pdfs = Object.values(zip.files).filter((file) => file.name.endsWith('.pdf'));
		expect(pdfs).toHaveLength(3);
		const texts = (
			await pdfText(await Promise.all(pdfs.map(async (file) => Buffer.from(await file.async('uint8array')))))
		).map((read) => read.text);
		for (const orderNo of orderNos) expect(texts.some((text) => text.includes(orderNo))).toBe(true);
	});

	it('takes the list from an expression that yields an array', async () => {
		const orderNos = await finalPayouts(2, 'failed');
		const result = await runNode(sandbox, {
			parameters: voucher('={{ $json.numbers }}'),
			items: [{ numbers: orderNos }],
		});
		expect(result.outputOf(NODE)[0].json.mimeType).toBe('application/zip');
	});

	it('decodes a JSON envelope carrying the file as base64', async () => {
		sandbox.control.setConfig({ voucherResponse: 'base64' });
		const [orderNo] = await finalPayouts(1);
		const result = await runNode(sandbox, { parameters: voucher(orderNo) });
		expect(result.outputOf(NODE)[0].json.mimeType).toBe('application/pdf');
		expect((await binaryBuffer(result, NODE, 0, 'data')).subarray(0, 5).toString()).toBe('%PDF-');
	});

	it('passes on any other string the gateway chose to return, such as a download URL', async () => {
		sandbox.control.setConfig({ voucherResponse: 'url' });
		const [orderNo] = await finalPayouts(1);
		const result = await runNode(sandbox, { parameters: voucher(orderNo) });
		expect(String(result.jsonOf(NODE)[0].data)).toMatch(/^http/);
	});

	it('a payout that is not final has no voucher: the gateway says so', async () => {
		const created = await runNode(sandbox, { parameters: payoutFromItem('TZS', TZS_FIELDS), items: [tzsRow()] });
		const result = await runNode(sandbox, { parameters: voucher(created.jsonOf(NODE)[0].orderNo) });
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
	});

	it('refuses more than 100 order numbers, or none, before sending', async () => {
		const tooMany = Array.from({ length: 101 }, (_, index) => `N${index}`);
		const result = await runNode(sandbox, {
			parameters: voucher('={{ $json.list }}'),
			items: [{ list: tooMany }, { list: [] }],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE).map((item) => item.rule)).toEqual(['maxItems', 'required']);
		expect(
			sandbox.requests.filter(
				(entry) => entry.path === '/common/voucher/pdf' && (entry.body as { orderNos: string[] }).orderNos.length > 100,
			),
		).toHaveLength(0);
	});

	it('accepts exactly 100 order numbers', async () => {
		const orderNos = await finalPayouts(100);
		const result = await runNode(sandbox, { parameters: voucher('={{ $json.list }}'), items: [{ list: orderNos }] });
		const zip = await JSZip.loadAsync(await binaryBuffer(result, NODE, 0, 'data'));
		expect(Object.keys(zip.files).filter((name) => name.endsWith('.pdf'))).toHaveLength(100);
	}, 60_000);
});
