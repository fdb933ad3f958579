import { emvQrCode } from '../emv';
import { magicOf } from '../faults';
import type { LocalPayment, Order } from '../orders';
import type { SchemaName } from '../schemas';
import { fail, lostAnswer, pick, waitingCollection, type Endpoint, type Handler, type GatewayPort } from './shared';

/**
 * `/{ccy}/collect/apply` in local currencies (docs/haipay-facts.md): the order waits (status 0) for the payer, who
 * pays the QR code, the virtual account or HaiPay's page; the control API (settle, status) or that page's buttons
 * end it, and its callback goes out as any collection's. Each currency has its own request schema.
 */
const LOCAL_APPLY: Record<string, SchemaName> = {
	BRL: 'brlCollectApply',
	IDR: 'idrCollectApply',
	PHP: 'phpCollectApply',
	BDT: 'bdtCollectApply',
	USDT: 'usdtCollectApply',
	USDC: 'usdcCollectApply',
};

/** Stablecoins: the payer transfers to a single-use address of HaiPay's, answered as bankNo (version2 coinpay). */
const COINS = new Set(['USDT', 'USDC']);

/** A deposit address of the TRON form (T and 33 base58 characters), one per order. */
function depositAddress(orderNo: string): string {
	const base58 = orderNo.replace(/[^1-9A-HJ-NP-Za-km-z]/g, '');
	return `T${base58.padStart(33, '1').slice(-33)}`;
}

/** The rails whose answer carries a QR code and an account besides the page (BDT answers with the page only). */
const WITH_INSTRUMENTS = new Set(['BRL', 'IDR', 'PHP']);

function text(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/** What the payer pays with: a QR code unless the rail is a virtual account or a wallet, and an account number. */
function instruments(order: Order, request: Record<string, unknown>): LocalPayment {
	const payType = text(request.payType);
	const inBankCode = text(request.inBankCode);
	const redirects = pick(request, ['callBackUrl', 'callBackFailUrl']);
	if (COINS.has(order.currency)) return { payType, inBankCode, bankNo: depositAddress(order.orderNo), ...redirects };
	if (!WITH_INSTRUMENTS.has(order.currency)) return { payType, inBankCode, ...redirects };
	const qr = payType === 'QR' || order.currency === 'BRL';
	const digits = order.orderNo.replace(/\D/g, '').slice(-10);
	return {
		payType,
		inBankCode,
		qrCode: qr ? emvQrCode(order.currency, order.amount, order.orderNo) : '',
		bankNo:
			order.currency === 'BRL' ? `PC${digits}` : payType === 'VA' || order.currency === 'PHP' ? `88${digits}` : '',
		bankCode: inBankCode,
		...redirects,
	};
}

function answer(gateway: GatewayPort, order: Order): Record<string, unknown> {
	const data: Record<string, unknown> = {
		orderId: order.orderId,
		orderNo: order.orderNo,
		payUrl: gateway.cashierUrl(order),
	};
	if (COINS.has(order.currency)) return { ...data, bankNo: order.local?.bankNo ?? '' };
	if (!WITH_INSTRUMENTS.has(order.currency)) return data;
	return {
		...data,
		bankCode: order.local?.bankCode ?? '',
		bankNo: order.local?.bankNo ?? '',
		qrCode: order.local?.qrCode ?? '',
	};
}

const localApply: Handler = (gateway, merchant, request) => {
	const magic = magicOf(request.name);
	if (magic?.kind === 'reject') return fail(magic.code, magic.message);
	const order = waitingCollection(gateway, merchant, request, magic);
	order.local = instruments(order, request);
	gateway.placed(order);
	return { type: 'ok', merchant, data: answer(gateway, order), lose: lostAnswer(magic) };
};

/** A permanent USDT address on the network asked for: the same one each time (fixed-addresses.ts). */
const fixedAddress: Handler = (gateway, merchant, request) => {
	const { address } = gateway.fixedAddresses.bind(merchant.appId, request.inBankCode as string);
	return { type: 'ok', merchant, data: { payUrl: `${gateway.baseUrl}/deposit/${address}`, bankNo: address } };
};

export const LOCAL_COLLECTION_ENDPOINTS: Endpoint[] = [
	...Object.entries(LOCAL_APPLY).map(([currency, schema]) => ({
		path: `/${currency.toLowerCase()}/collect/apply`,
		currency,
		schema,
		handle: localApply,
	})),
	{ path: '/usdt/collect/apply/multiple', currency: 'USDT', schema: 'usdtFixedAddress', handle: fixedAddress },
];
