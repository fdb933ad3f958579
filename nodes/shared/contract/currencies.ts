import type { INodePropertyOptions } from 'n8n-workflow';

import { OWN_RAIL_NAMES } from './rules/rails';

/**
 * Every currency the gateway's paths know, in the order merchants meet them; then the payout rails in files of their
 * own (rules/rails/index.ts), which name themselves.
 */
export const CURRENCIES = {
	TZS: 'Tanzanian Shilling',
	ZAR: 'South African Rand',
	NGN: 'Nigerian Naira',
	EGP: 'Egyptian Pound',
	BDT: 'Bangladeshi Taka',
	USD: 'US Dollar',
	BRL: 'Brazilian Real',
	MYR: 'Malaysian Ringgit',
	SAR: 'Saudi Riyal',
	IDR: 'Indonesian Rupiah',
	USDC: 'USD Coin',
	INR: 'Indian Rupee',
	PHP: 'Philippine Peso',
	MXN: 'Mexican Peso',
	EUR: 'Euro',
	THB: 'Thai Baht',
	VND: 'Vietnamese Dong',
	PKR: 'Pakistani Rupee',
	TRY: 'Turkish Lira',
	...OWN_RAIL_NAMES,
} as const;

export type Currency = keyof typeof CURRENCIES;

export function currencyOptions(codes: readonly Currency[]): INodePropertyOptions[] {
	return codes.map((code) => ({ name: `${code} (${CURRENCIES[code]})`, value: code }));
}

export const CURRENCY_OPTIONS = currencyOptions(Object.keys(CURRENCIES) as Currency[]);
