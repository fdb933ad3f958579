import { AMOUNT_MAX_WHOLE_DIGITS } from '../../shared/contract/rules/amounts';
import type { AmountRule } from '../../shared/contract/rules/types';
import { compareDecimal } from '../../shared/decimal';

/**
 * Money stays a decimal string from the spreadsheet to the gateway. A number (what an expression over a
 * spreadsheet cell often yields) is written out only when that does not change its value.
 */

export { compareDecimal };

function decimalsOf(value: string): number {
	return value.includes('.') ? value.split('.')[1].length : 0;
}

function grouped(decimal: string): string {
	const [whole, fraction] = decimal.split('.');
	const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
	return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

/** A refused amount says why, and names its rule when it is not the currency's own ("amount"). */
type AmountResult = { value: string } | { problem: string; rule?: string };

function fromNumber(value: number, rule: AmountRule): AmountResult {
	if (!Number.isFinite(value)) return { problem: 'must be a number' };
	const text = String(value);
	if (/e/i.test(text))
		return { problem: `arrived as the number ${text}, which cannot be written exactly: send it as text` };
	if (value < 0) return { problem: `must be positive (got ${text})` };
	if (decimalsOf(text) > rule.maxDecimals) {
		return {
			problem:
				rule.maxDecimals === 0
					? `must be a whole number of ${rule.unit} (got ${text}); rounding would change the amount`
					: `has more than ${rule.maxDecimals} decimals (got ${text}); rounding would change the amount`,
		};
	}
	return { value: rule.exactDecimals === undefined ? text : value.toFixed(rule.exactDecimals) };
}

/** Normalises and checks an amount. Strings are only trimmed: "12.5" for USD is refused, not rewritten. */
export function checkAmount(input: unknown, rule: AmountRule): AmountResult {
	let candidate: AmountResult;
	if (typeof input === 'number') candidate = fromNumber(input, rule);
	else if (typeof input === 'string') candidate = { value: input.trim() };
	else return { problem: 'must be a decimal amount given as text or a number' };
	if ('problem' in candidate) return candidate;
	const value = candidate.value;

	if (!/^\d+(\.\d+)?$/.test(value)) {
		const offending = [...new Set(value.replace(/[0-9.]/g, ''))].join('');
		return {
			problem: offending
				? `may hold digits and one decimal point only, no signs, commas or spaces (found "${offending}" in "${value}")`
				: `is not a decimal number (got "${value}")`,
		};
	}
	const whole = value.split('.')[0].length;
	if (whole > AMOUNT_MAX_WHOLE_DIGITS) {
		return {
			rule: 'maxDigits',
			problem: `may have at most ${AMOUNT_MAX_WHOLE_DIGITS} digits before the decimal point, more than any balance holds (got ${whole})`,
		};
	}
	if (/^0\d/.test(value)) return { problem: `must not start with a leading zero (got "${value}")` };
	if (rule.exactDecimals !== undefined && decimalsOf(value) !== rule.exactDecimals) {
		return { problem: `needs exactly ${rule.exactDecimals} decimals and no commas, e.g. "25.00" (got "${value}")` };
	}
	if (decimalsOf(value) > rule.maxDecimals) {
		return {
			problem:
				rule.maxDecimals === 0
					? `must be a whole number of ${rule.unit}, without decimals (got "${value}")`
					: `allows at most ${rule.maxDecimals} decimals (got "${value}")`,
		};
	}
	if (rule.pattern && !rule.pattern.test(value)) {
		return {
			problem: `${rule.patternText !== undefined ? `must be ${rule.patternText}` : `does not match the ${rule.unit} amount format`} (got "${value}")`,
		};
	}
	if (compareDecimal(value, '0') <= 0) return { problem: `must be greater than 0 (got "${value}")` };
	if (rule.min !== undefined && compareDecimal(value, rule.min) < 0) {
		return { problem: `must be at least ${grouped(rule.min)} ${rule.unit} (got ${grouped(value)})` };
	}
	if (rule.max !== undefined && compareDecimal(value, rule.max) > 0) {
		return { problem: `must be at most ${grouped(rule.max)} ${rule.unit} (got ${grouped(value)})` };
	}
	return { value };
}
