import type { MethodEntry, MethodLimits } from './types';

/**
 * Collection codes (`payType` with `inBankCode`) for the local collections the node makes (BRL, IDR, PHP, BDT).
 * HaiPay's collection pages show one example each at most; the other rows come from a merchant's public copy of
 * HaiPay's method table and say so. Limits are those of an official page's limits table, never the copy's. The copy
 * also lists IDR's OVO under payType CASHIER, which the Indonesia page's payType values (QR, VA, EWALLET) leave out:
 * that row is left out too, as the node refuses such an IDR payType.
 */

const PHP_LIMITS: MethodLimits = { min: '100', max: '50000', source: 'philippinesPage' };
const BDT_LIMITS: MethodLimits = { min: '100', max: '50000', source: 'bangladeshPage' };

function collection(
	currency: string,
	payType: string,
	code: string,
	name: string,
	source: string,
	limits?: MethodLimits,
): MethodEntry {
	return { kind: 'collection', currency, payType, code, name, source, ...(limits === undefined ? {} : { limits }) };
}

export const COLLECTION_METHODS: readonly MethodEntry[] = [
	collection('BRL', 'QR', 'PIX', 'PIX QR code', 'brazilPage', { min: '1', max: '10000', source: 'brazilPage' }),
	collection('PHP', 'QR', 'PH_QRPH_DYNAMIC', 'QR Ph dynamic code', 'philippinesPage', PHP_LIMITS),
	collection('PHP', 'PAYMENT_GATEWAY', 'GCASH_QR', 'GCash (opens the app)', 'methodTable', PHP_LIMITS),
	collection('PHP', 'PAYMENT_GATEWAY', 'GCASH_URL', 'GCash (direct link)', 'methodTable', PHP_LIMITS),
	collection('PHP', 'PAYMENT_GATEWAY', 'GRPY_URL', 'GrabPay', 'methodTable', PHP_LIMITS),
	collection('PHP', 'PAYMENT_GATEWAY', 'PAYMAYA_URL', 'PayMaya (Maya)', 'methodTable', PHP_LIMITS),
	collection('IDR', 'QR', 'dynamic', 'QRIS dynamic code', 'methodTable'),
	collection('IDR', 'EWALLET', 'DANA', 'DANA', 'methodTable'),
	collection('IDR', 'EWALLET', 'SHOPEEPAY', 'ShopeePay', 'methodTable'),
	collection('IDR', 'EWALLET', 'LINKAJA', 'LinkAja', 'methodTable'),
	collection('BDT', 'EWALLET', 'BDT_BKASH', 'bKash', 'methodTable', BDT_LIMITS),
	collection('BDT', 'EWALLET', 'BDT_NAGAD', 'Nagad', 'methodTable', BDT_LIMITS),
];
