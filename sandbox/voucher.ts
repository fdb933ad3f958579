import fontkit from '@pdf-lib/fontkit';
import JSZip from 'jszip';
import { PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';

import { cjkFont } from './font';
import type { Order } from './orders';

export interface VoucherOptions {
	getFee: number;
	isAmount: number;
	getSubject: number;
	lang: 'zh' | 'en';
}

const LABELS = {
	en: {
		title: 'Payout Voucher',
		appId: 'Merchant appId',
		orderNo: 'Platform order no.',
		orderId: 'Merchant order ID',
		currency: 'Currency',
		orderAmount: 'Order amount',
		actualAmount: 'Amount received',
		fee: 'Fee',
		status: 'Status',
		success: 'Success',
		failed: 'Failed',
		payee: 'Payee',
		account: 'Account',
		bank: 'Bank / wallet',
		time: 'Time',
		remark: 'Remark',
		footer: 'HaiPay local sandbox - test data, not a real payment',
	},
	zh: {
		title: '付款凭证',
		appId: '商户号',
		orderNo: '平台订单号',
		orderId: '商户订单号',
		currency: '币种',
		orderAmount: '订单金额',
		actualAmount: '实际到账金额',
		fee: '手续费',
		status: '状态',
		success: '成功',
		failed: '失败',
		payee: '收款人',
		account: '收款账号',
		bank: '银行/钱包',
		time: '时间',
		remark: '备注',
		footer: 'HaiPay 本地沙箱 - 测试数据，非真实付款',
	},
};

function maskAccount(account: string | undefined): string {
	if (!account) return '';
	return account.length <= 4 ? account : `${'*'.repeat(Math.min(account.length - 4, 8))}${account.slice(-4)}`;
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
	const lines: string[] = [];
	let line = '';
	for (const char of text) {
		if (char === '\n' || font.widthOfTextAtSize(line + char, size) > width) {
			lines.push(line);
			line = char === '\n' ? '' : char;
		} else line += char;
	}
	if (line !== '') lines.push(line);
	return lines.slice(0, 12);
}

export function voucherRows(order: Order, options: VoucherOptions, time: string): Array<[string, string]> {
	const l = LABELS[options.lang];
	const rows: Array<[string, string]> = [
		[l.appId, String(order.appId)],
		[l.orderNo, order.orderNo],
		[l.orderId, order.orderId],
		[l.currency, order.currency],
		options.isAmount === 1 ? [l.orderAmount, order.amount] : [l.actualAmount, order.actualAmount],
	];
	if (options.getFee === 1) rows.push([l.fee, order.fee]);
	rows.push([l.status, order.status === 2 ? l.success : `${l.failed}${order.errorMsg ? ` (${order.errorMsg})` : ''}`]);
	if (order.name) rows.push([l.payee, order.name]);
	if (order.accountNo) rows.push([l.account, maskAccount(order.accountNo)]);
	if (order.bankCode) rows.push([l.bank, order.bankCode]);
	rows.push([l.time, time]);
	if (options.getSubject === 1) rows.push([l.remark, order.subject ?? '']);
	return rows;
}

export async function voucherPdf(order: Order, options: VoucherOptions, time: string): Promise<Uint8Array> {
	const l = LABELS[options.lang];
	const rows = voucherRows(order, options, time);
	const doc = await PDFDocument.create();
	doc.setTitle(`${l.title} ${order.orderNo}`);
	doc.setProducer('HaiPay local sandbox');
	doc.setCreationDate(new Date(order.updatedAt));
	const everything = [l.title, l.footer, ...rows.flat()].join('');
	let font: PDFFont;
	if (options.lang === 'en' && /^[\x20-\x7e]*$/.test(everything)) {
		font = await doc.embedFont(StandardFonts.Helvetica);
	} else {
		doc.registerFontkit(fontkit);
		font = await doc.embedFont(cjkFont(), { subset: true });
	}
	const page = doc.addPage([595, 842]);
	const grey = rgb(0.4, 0.4, 0.4);
	let y = 780;
	page.drawText(l.title, { x: 60, y, size: 22, font });
	y -= 40;
	for (const [label, value] of rows) {
		page.drawText(label, { x: 60, y, size: 11, font, color: grey });
		const lines = wrap(value, font, 11, 300);
		for (const line of lines.length ? lines : ['']) {
			page.drawText(line, { x: 230, y, size: 11, font });
			y -= 18;
		}
		y -= 6;
	}
	page.drawText(l.footer, { x: 60, y: 60, size: 8, font, color: grey });
	return doc.save();
}

export async function voucherZip(files: Array<{ name: string; bytes: Uint8Array }>): Promise<Buffer> {
	const zip = new JSZip();
	// A fixed date keeps the archive the same for the same orders, which makes answers comparable.
	for (const file of files) zip.file(file.name, file.bytes, { date: new Date('2020-01-01T00:00:00Z') });
	return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
