import type { RequestRules } from '../types';
import { BRL, MXN, USD } from './americas';
import { IDR, INR, MYR, PHP, PKR, THB, VND } from './asia';
import { EUR, TRY } from './europe';

/**
 * The payout rails beyond docs/contract.md's five currencies, in the order the node offers them: each one's rules
 * from HaiPay's page for the currency, with its address and certainty (`source`).
 */
export const RAIL_CURRENCIES = ['BRL', 'INR', 'IDR', 'PHP', 'MXN', 'EUR', 'USD', 'THB', 'VND', 'MYR', 'PKR', 'TRY'] as const;
export type RailCurrency = (typeof RAIL_CURRENCIES)[number];

export const RAIL_RULES: Record<RailCurrency, RequestRules> = { BRL, INR, IDR, PHP, MXN, EUR, USD, THB, VND, MYR, PKR, TRY };
