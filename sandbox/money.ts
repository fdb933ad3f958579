/**
 * Money as integers of 1/10,000 of a unit: NGN amounts carry up to four decimals, and floating point would let
 * a balance drift by a cent after enough payouts.
 */

export const SCALE = 10_000n;

export function parseMoney(text: string): bigint {
	const match = /^(-)?(\d+)(?:\.(\d{1,4}))?$/.exec(text.trim());
	if (!match) throw new Error(`not a decimal amount: ${text}`);
	const units = BigInt(match[2]) * SCALE + BigInt((match[3] ?? '').padEnd(4, '0'));
	return match[1] ? -units : units;
}

/** Two decimals, half away from zero: the shape of every amount, fee and balance the gateway prints. */
export function formatMoney(units: bigint): string {
	const negative = units < 0n;
	const abs = negative ? -units : units;
	const cents = (abs + 50n) / 100n;
	const text = `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
	return negative && cents !== 0n ? `-${text}` : text;
}

/** A rate such as "0.015" applied to an amount, rounded to whole cents as a fee is charged. */
export function feeOf(amount: bigint, rate: string, minimum = '0'): bigint {
	const rateUnits = parseMoney(rate);
	const raw = (amount * rateUnits + SCALE / 2n) / SCALE;
	const cents = ((raw + 50n) / 100n) * 100n;
	const floor = parseMoney(minimum);
	return cents < floor ? floor : cents;
}

/** Decimal string comparison for schema ranges, exact for any number of decimals. */
export function compareDecimal(a: string, b: string): number {
	const [ai, af = ''] = a.split('.');
	const [bi, bf = ''] = b.split('.');
	const width = Math.max(af.length, bf.length);
	const left = BigInt(ai + af.padEnd(width, '0'));
	const right = BigInt(bi + bf.padEnd(width, '0'));
	return left < right ? -1 : left > right ? 1 : 0;
}
