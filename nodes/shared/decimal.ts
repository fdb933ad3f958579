/** Decimal amounts as HaiPay writes them, compared by value on their digits, never through a rounding float. */

/** Places a comparison keeps: more than any currency HaiPay prices in. */
const SCALE = 10;

function scaled(decimal: string): bigint {
	const [whole, fraction = ''] = decimal.split('.');
	return BigInt(whole + fraction.padEnd(SCALE, '0').slice(0, SCALE));
}

/** -1, 0 or 1 as `a` is less than, equal to or more than `b`, both plain decimals ("100", "100.00", "0.5"). */
export function compareDecimal(a: string, b: string): number {
	const left = scaled(a);
	const right = scaled(b);
	return left === right ? 0 : left < right ? -1 : 1;
}

/**
 * A plain decimal as written (digits, at most one point, at most SCALE places), from a string or a number that
 * states one; undefined for anything else ("1e3", "-5", "1,000", " 5").
 */
export function plainDecimal(value: unknown): string | undefined {
	const text = typeof value === 'number' ? String(value) : value;
	return typeof text === 'string' && /^\d+(?:\.\d{1,10})?$/.test(text) ? text : undefined;
}
