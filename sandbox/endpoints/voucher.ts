import { ERROR_CODES } from '../constants';
import type { Merchant } from '../merchants';
import { isFinal, type Order } from '../orders';
import type { Outcome } from '../types';
import { voucherPdf, voucherZip, type VoucherOptions } from '../voucher';
import { fail, type Endpoint, type Handler, type GatewayPort } from './shared';

/** The orders named, once each: all must be the appId's own payouts in a final state, since only those have vouchers. */
function finalPayouts(gateway: GatewayPort, merchant: Merchant, orderNos: string[]): Order[] | Outcome {
	const orders: Order[] = [];
	for (const orderNo of new Set(orderNos)) {
		const order = gateway.book.orders.get(orderNo);
		if (!order || order.appId !== merchant.appId) {
			return fail(ERROR_CODES.voucherNotAvailable, `orderNos: ${orderNo} is not an order of appId ${merchant.appId}`);
		}
		if (order.kind !== 'payout')
			return fail(ERROR_CODES.voucherNotAvailable, `orderNos: ${orderNo} is not a payout order`);
		if (!isFinal(order)) {
			return fail(
				ERROR_CODES.voucherNotAvailable,
				`orderNos: ${orderNo} is not final (status ${order.status}); vouchers exist for success (2) and failed (3) payouts`,
			);
		}
		orders.push(order);
	}
	return orders;
}

interface VoucherFile {
	contentType: string;
	filename: string;
	bytes: Buffer;
}

/** One order gives a PDF, several a ZIP of PDFs. */
async function voucherFile(
	gateway: GatewayPort,
	merchant: Merchant,
	orders: Order[],
	options: VoucherOptions,
): Promise<VoucherFile> {
	const pdfs: Array<{ name: string; bytes: Uint8Array }> = [];
	for (const order of orders) {
		const when = order.payTime || gateway.time(Date.parse(order.updatedAt));
		pdfs.push({ name: `${order.orderNo}.pdf`, bytes: await voucherPdf(order, options, when) });
	}
	return pdfs.length === 1
		? { contentType: 'application/pdf', filename: pdfs[0].name, bytes: Buffer.from(pdfs[0].bytes) }
		: { contentType: 'application/zip', filename: `vouchers-${merchant.appId}.zip`, bytes: await voucherZip(pdfs) };
}

/** `/common/voucher/pdf`: answered as the file itself, or (as the gateway is configured) base64 or a download URL. */
const voucher: Handler = async (gateway, merchant, request) => {
	const orders = finalPayouts(gateway, merchant, request.orderNos as string[]);
	if (!Array.isArray(orders)) return orders;
	const file = await voucherFile(gateway, merchant, orders, {
		getFee: (request.getFee as number | undefined) ?? 0,
		isAmount: (request.isAmount as number | undefined) ?? 0,
		getSubject: (request.getSubject as number | undefined) ?? 0,
		lang: (request.lang as 'zh' | 'en' | undefined) ?? 'zh',
	});
	if (gateway.config.voucherResponse === 'base64') return { type: 'bare', data: file.bytes.toString('base64') };
	if (gateway.config.voucherResponse === 'url') {
		return {
			type: 'bare',
			data: gateway.keepFile({ contentType: file.contentType, name: file.filename, bytes: file.bytes }),
		};
	}
	return { type: 'file', ...file };
};

export const VOUCHER_ENDPOINTS: Endpoint[] = [{ path: '/common/voucher/pdf', schema: 'voucherPdf', handle: voucher }];
