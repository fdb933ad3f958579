/**
 * Readable names for the numeric order `status`. Collection values are HaiPay's documented ones; payout values
 * 2 and 3 are final as documented, 0 and 1 follow the collection meaning by analogy (docs/haipay-facts.md).
 */

export type OrderKind = 'payout' | 'collection';

const COMMON: Record<number, string> = {
	0: 'not started',
	1: 'processing',
	2: 'success',
	3: 'failed',
};

const COLLECTION_ONLY: Record<number, string> = {
	4: 'partially collected',
	5: 'over-collected',
	[-1]: 'abnormal, awaiting confirmation',
};

/** Final states: the money moved (or definitively did not) and the order will not change again. */
export const FINAL_STATUSES: readonly number[] = [2, 3, 4, 5];

/** The states an order passes through before a final one: not started, processing, abnormal. */
export const EARLIER_STATUSES: readonly number[] = [0, 1, -1];

const FINAL = new Set(FINAL_STATUSES);

/**
 * Final states HaiPay may report more than once for one order, each time with another result: a collection paid in
 * parts, or paid more than asked. Two such results differ by their amount and time, not by their status.
 */
export const REPEATING_STATUSES: readonly number[] = [4, 5];

/** Outcome groups a workflow routes on. */
type StatusGroup = 'success' | 'failed' | 'partial' | 'pending' | 'abnormal' | 'unknown';

/**
 * An order status as the integer it states, or undefined. Only a JSON number whose value is a safe integer, or a
 * string of plain decimal digits (no sign but a leading minus, no leading zero, no spaces), is one: "0x3", " 3 ",
 * "03", [3] and 3.5 state no status, so nothing is decided on them.
 */
export function exactStatus(status: unknown): number | undefined {
	if (typeof status === 'number') return Number.isSafeInteger(status) ? status : undefined;
	if (typeof status === 'string' && /^(?:0|-?[1-9]\d{0,15})$/.test(status)) {
		const value = Number(status);
		return Number.isSafeInteger(value) ? value : undefined;
	}
	return undefined;
}

const JSON_NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The status a JSON number states, from the number exactly as written: its value when that value is a safe integer
 * (`2`, `2.0`, `2e0`, `20E-1`, `-0` is 0), otherwise undefined (`2.5`, `1e400`, and `2.0000000000000001`, which a
 * JavaScript number would round to 2). Worked on the digits, never through a rounding float.
 */
export function exactNumberStatus(text: string): number | undefined {
	const match = JSON_NUMBER.exec(text);
	if (match === null) return undefined;
	const [, sign, whole, fraction = '', exponent = '0'] = match;
	const written = whole + fraction;
	const leadingZeros = written.length - written.replace(/^0+/, '').length;
	const digits = written.slice(leadingZeros);
	if (digits === '') return 0;
	const shift = Number(exponent);
	if (!Number.isSafeInteger(shift)) return undefined;
	// Where the decimal point falls in `digits`: every digit after it must be 0 for the value to be an integer.
	const point = whole.length - leadingZeros + shift;
	if (point <= 0 || point > 16 || /[1-9]/.test(digits.slice(point))) return undefined;
	const value = Number(digits.slice(0, point).padEnd(point, '0'));
	if (!Number.isSafeInteger(value)) return undefined;
	return sign === '-' ? -value : value;
}

export function statusLabel(status: unknown, kind?: OrderKind): string | undefined {
	const value = exactStatus(status);
	if (value === undefined) return undefined;
	if (COMMON[value] !== undefined) return COMMON[value];
	if (kind !== 'payout' && COLLECTION_ONLY[value] !== undefined) return COLLECTION_ONLY[value];
	return undefined;
}

export function isFinalStatus(status: unknown): boolean {
	const value = exactStatus(status);
	return value !== undefined && FINAL.has(value);
}

export function statusGroup(status: unknown): StatusGroup {
	switch (exactStatus(status)) {
		case 2:
			return 'success';
		case 3:
			return 'failed';
		case 4:
		case 5:
			return 'partial';
		case 0:
		case 1:
			return 'pending';
		case -1:
			return 'abnormal';
		default:
			return 'unknown';
	}
}
