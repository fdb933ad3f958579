import JSZip from 'jszip';

import type { Sandbox } from '../../sandbox';
import { APP, call, control, mitApply, pdfText, rawPost, signed, tzsPayout, withSandbox, type Body } from './helpers';

let sandbox: Sandbox;
let success: string;
let failed: string;
let pending: string;

beforeAll(async () => {
	sandbox = await withSandbox();
	const create = async (body: Body) => String(((await call(sandbox, '/tzs/pay/apply', body)).data as Body).orderNo);
	success = await create(tzsPayout({ amount: '15000.50', subject: 'Salary 工资 November' }));
	failed = await create(tzsPayout({ amount: '2000', subject: 'Refund', name: 'Fail Payout' }));
	pending = await create(tzsPayout());
	sandbox.control.settle(success, 'success');
	sandbox.control.settle(failed, 'failed');
	// The first Chinese voucher loads and pads the CJK font (several MB) once per process: done here, not in a test.
	expect((await voucher({ orderNos: [success] })).contentType).toBe('application/pdf');
});
afterAll(() => sandbox.close());

async function voucher(body: Body) {
	return rawPost(sandbox.baseUrl, '/common/voucher/pdf', signed({ appId: APP.TZS, ...body }));
}

describe('voucher download', () => {
	it('one order is a PDF, in English, with amount, fee and remark as asked', async () => {
		const full = await voucher({ orderNos: [success], lang: 'en', getFee: 1, isAmount: 1, getSubject: 1 });
		expect(full.httpStatus).toBe(200);
		expect(full.contentType).toBe('application/pdf');
		expect(full.bytes.subarray(0, 5).toString()).toBe('%PDF-');
		const bare = await voucher({ orderNos: [success], lang: 'en' });
		const [withAll, withNone] = await pdfText([full.bytes, bare.bytes]);
		expect(withAll.pages).toBe(1);
		for (const text of [
			'Payout Voucher',
			success,
			'Order amount',
			'15000.50',
			'Fee',
			'150.01',
			'Remark',
			'Salary 工资 November',
			'Success',
			'Amina Juma',
		]) {
			expect(withAll.text).toContain(text);
		}
		expect(withAll.text).toContain('********5678');
		expect(withAll.text).not.toContain('255712345678');
		expect(withNone.text).toContain('Amount received');
		expect(withNone.text).not.toContain('Fee');
		expect(withNone.text).not.toContain('150.01');
		expect(withNone.text).not.toContain('Remark');
		expect(withNone.text).not.toContain('Salary');
	});

	it('Chinese is the default language, and a failed payout shows 0.00 received', async () => {
		const zh = await voucher({ orderNos: [failed], getFee: 1, getSubject: 1 });
		const [text] = await pdfText([zh.bytes]);
		for (const word of [
			'付款凭证',
			'平台订单号',
			failed,
			'实际到账金额',
			'0.00',
			'手续费',
			'20.00',
			'备注',
			'Refund',
			'失败',
		]) {
			expect(text.text).toContain(word);
		}
	});

	it('several orders are a ZIP of PDFs, one per order', async () => {
		const zip = await voucher({ orderNos: [success, failed, success], lang: 'en' });
		expect(zip.contentType).toBe('application/zip');
		const archive = await JSZip.loadAsync(zip.bytes);
		const names = Object.keys(archive.files).sort();
		expect(names).toEqual([`${failed}.pdf`, `${success}.pdf`].sort());
		const pdfs = await Promise.all(names.map((name) => archive.file(name)!.async('nodebuffer')));
		const texts = await pdfText(pdfs);
		names.forEach((name, i) => expect(texts[i].text).toContain(name.replace('.pdf', '')));
	});

	it('only final payout orders of this appId have vouchers (4008)', async () => {
		const notFinal = await voucher({ orderNos: [pending] });
		expect(notFinal.json).toMatchObject({ status: '0', error: '4008', data: null });
		expect(notFinal.json?.msg).toContain(pending);
		const mit = String(((await call(sandbox, '/usd/mit/apply', mitApply())).data as Body).orderNo);
		expect(
			(await rawPost(sandbox.baseUrl, '/common/voucher/pdf', signed({ appId: APP.USD, orderNos: [mit] }))).json?.msg,
		).toContain('not a payout');
		expect((await voucher({ orderNos: [success, 'HP-missing'] })).json).toMatchObject({ error: '4008' });
		const otherApp = await rawPost(
			sandbox.baseUrl,
			'/common/voucher/pdf',
			signed({ appId: APP.ZAR, orderNos: [success] }),
		);
		expect(otherApp.json).toMatchObject({ error: '4008' });
	});

	it('answers base64 in a JSON envelope, or a download URL, when configured', async () => {
		await control(sandbox, 'POST', '/config', { voucherResponse: 'base64' });
		try {
			const single = await voucher({ orderNos: [success] });
			expect(single.json).toMatchObject({ status: '1', error: '00000000' });
			expect(Buffer.from(String(single.json?.data), 'base64').subarray(0, 5).toString()).toBe('%PDF-');
			const several = await voucher({ orderNos: [success, failed] });
			expect(Buffer.from(String(several.json?.data), 'base64').subarray(0, 2).toString()).toBe('PK');

			sandbox.control.setConfig({ voucherResponse: 'url' });
			const link = await voucher({ orderNos: [success] });
			const url = String(link.json?.data);
			expect(url.startsWith(`${sandbox.baseUrl}/__sandbox/files/`)).toBe(true);
			const download = await fetch(url);
			expect(download.headers.get('content-type')).toBe('application/pdf');
			expect(
				Buffer.from(await download.arrayBuffer())
					.subarray(0, 5)
					.toString(),
			).toBe('%PDF-');
		} finally {
			sandbox.control.setConfig({ voucherResponse: 'binary' });
		}
	});
});
