import { PAYOUT_RULES } from '../../shared/contract/rules/payout';

/** The places a currency's amounts are written with: as many as HaiPay accepts for it (BDT none, ZAR two). */
export function currencyDecimals(currency: string): number {
	const rules = (PAYOUT_RULES as Record<string, { fields: Array<{ amount?: { maxDecimals: number } }> } | undefined>)[
		currency
	];
	return rules?.fields.find((field) => field.amount !== undefined)?.amount?.maxDecimals ?? 0;
}

/** Whether HaiPay pays out in this currency (an upper-case ISO code). */
export function isPayoutCurrency(currency: string): boolean {
	return currency in PAYOUT_RULES;
}
