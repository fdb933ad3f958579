import type { RequestRules } from '../types';
import { BRL, MXN, USD } from './americas';
import { IDR, INR, MYR, PHP, PKR, THB, VND } from './asia';
import { EUR, TRY } from './europe';
import { KRW } from './krw';
import { USDT } from './usdt';

/**
 * The payout rails beyond docs/contract.md's five currencies, in the order the node offers them: each one's rules
 * from HaiPay's page for the currency, with its address and certainty (`source`).
 *
 * A new rail is a file of its own (`rail()` in fields.ts: code, name, rules) and one entry in OWN_RAILS: the currency
 * lists of the node, the credential and the trigger, the payout and query paths and the tables of README.md and docs/haipay-node.md follow.
 */
const OWN_RAILS = [USDT, KRW] as const;

type OwnRailCurrency = (typeof OWN_RAILS)[number]['currency'];

/** The names of the rails in files of their own, for the currency lists (currencies.ts). */
export const OWN_RAIL_NAMES = Object.fromEntries(OWN_RAILS.map((own) => [own.currency, own.name])) as Record<
	OwnRailCurrency,
	string
>;

const GROUPED = ['BRL', 'INR', 'IDR', 'PHP', 'MXN', 'EUR', 'USD', 'THB', 'VND', 'MYR', 'PKR', 'TRY'] as const;

export const RAIL_CURRENCIES: ReadonlyArray<(typeof GROUPED)[number] | OwnRailCurrency> = [
	...GROUPED,
	...OWN_RAILS.map((own) => own.currency),
];
export type RailCurrency = (typeof RAIL_CURRENCIES)[number];

export const RAIL_RULES = {
	BRL,
	INR,
	IDR,
	PHP,
	MXN,
	EUR,
	USD,
	THB,
	VND,
	MYR,
	PKR,
	TRY,
	...Object.fromEntries(OWN_RAILS.map((own) => [own.currency, own.rules])),
} as Record<RailCurrency, RequestRules>;
