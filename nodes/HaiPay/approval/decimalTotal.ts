/**
 * An exact sum of decimal amounts, kept as a whole number of the smallest unit seen. A JavaScript number cannot
 * hold 0.10 exactly, so adding thousands of them drifts from the sum a controller checks against the bank; the
 * amounts summed here are the decimal strings HaiPay receives, and the sum is a string too.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export class DecimalTotal {
	private units = 0n;

	/** `decimals`: the places the total is written with, at least; an amount with more widens it. */
	constructor(private decimals: number) {}

	add(amount: string): void {
		const match = DECIMAL.exec(amount);
		if (match === null) throw new RangeError(`"${amount}" is not a decimal amount`);
		const [, whole, fraction = ''] = match;
		if (fraction.length > this.decimals) {
			this.units *= 10n ** BigInt(fraction.length - this.decimals);
			this.decimals = fraction.length;
		}
		this.units += BigInt(whole + fraction.padEnd(this.decimals, '0'));
	}

	/** The total as plain decimal text, with the total's places: "2500.50", "1750". */
	toString(): string {
		const digits = this.units.toString().padStart(this.decimals + 1, '0');
		if (this.decimals === 0) return digits;
		return `${digits.slice(0, -this.decimals)}.${digits.slice(-this.decimals)}`;
	}
}
