import type { CatalogueSource } from './types';

/**
 * The pages the catalogue's rows come from, read on the date of CATALOGUE_VERSION. docs/method-catalogue.md gives
 * the same list for people; a test keeps the two in step.
 */

const API = 'https://doc.haipay.net/docs/en/api-reference';
// HaiPay serves its country pages under two roots; each address is the one the page was read at.
const COUNTRY = 'https://doc.haipay.net/docs/en/api/version2';
const COUNTRY_OLD = 'https://doc.haipay.net/en/api/version2';

export const SOURCES = {
	contractTzs: {
		page: 'docs/contract.md §4.1 (the TZS payout of the merchant API this package is built on)',
		certainty: 'listed',
		basis: 'bankCode: "payment method code: AIRTEL, HALOPESA, TIGO, VODACOM"',
	},
	brlPayout: {
		page: `${API}/brl/api/payApply`,
		certainty: 'example',
		basis: 'bankCode "Wallet code", example request PIX',
	},
	usdPayout: {
		page: `${API}/usd/api/payApply`,
		certainty: 'named',
		basis: 'accountNo "for PayPal it is the email address"; example bankCode PayPal',
	},
	mxnPayout: {
		page: `${API}/mxn/api/payApply`,
		certainty: 'example',
		basis: 'example request bankCode STP (the description is cut off)',
	},
	tryPayout: { page: `${API}/try/api/payApply`, certainty: 'named', basis: 'a field "Required when bankCode=PAPARA"' },
	turkeyPage: {
		page: `${COUNTRY_OLD}/Turkey`,
		certainty: 'listed',
		basis: 'Transaction Limits table: payout 10-99000',
	},
	southAfricaPage: {
		page: `${COUNTRY}/SouthAfrica`,
		certainty: 'example',
		basis: 'example request bankCode 051001; Transaction Limits table: payout ZAR 2-1000000',
	},
	brazilPage: {
		page: `${COUNTRY_OLD}/Brazil`,
		certainty: 'example',
		basis: 'example request payType QR, inBankCode PIX; Transaction Limits table: PIX collection 1-10000',
	},
	philippinesPage: {
		page: `${COUNTRY}/Philippines`,
		certainty: 'example',
		basis: 'example request payType QR, inBankCode PH_QRPH_DYNAMIC; Transaction Limits table: collection 100-50000',
	},
	bangladeshPage: {
		page: `${COUNTRY_OLD}/Bangladesh`,
		certainty: 'listed',
		basis: 'Transaction Limits table: collection BDT 100-50000',
	},
	methodTable: {
		page: "a merchant's public Go source (package country) that copies HaiPay's collection method table (代收支付方式列表); not a HaiPay page",
		certainty: 'transcribed',
		basis: 'rows of currency, payType, inBankCode, limits and name marked available',
	},
} satisfies Record<string, CatalogueSource>;

export type SourceKey = keyof typeof SOURCES;
