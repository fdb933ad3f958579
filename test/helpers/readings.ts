import { byteOrder } from '../../nodes/shared/signing/canonical';

/**
 * The test oracle for the readings of a signed string (nodes/shared/signing/readings.ts): every body whose signed
 * string is the given text, found by search, and a seeded generator so that a failing body fails again.
 */

export type Body = Record<string, string>;

/** A name a reading could give a field: not empty, not `sign`, no `&`, `=`, control or space character. */
export function plausible(name: string): boolean {
	return name !== '' && name !== 'sign' && !/[&=\u0000-\u0020\u007f]/u.test(name);
}

export interface ReadingBounds {
	/** Only readings HaiPay could sign: no `&` in a deciding or HaiPay-written value (pruned as they are built). */
	shape?: { deciding: ReadonlySet<string>; plain: ReadonlySet<string> };
	/** Only readings that hold every one of these fields. */
	carried?: ReadonlySet<string>;
}

/** Every body whose signed string is `text`: cut at `&` into `name=value`, names strictly increasing, no value empty. */
export function readingsOf(text: string, bounds: ReadingBounds = {}): Body[] {
	const { shape, carried } = bounds;
	const found: Body[] = [];
	const ends = [...text.matchAll(/&/gu)].map((match) => match.index as number).concat(text.length);
	const walk = (start: number, last: string | undefined, body: Body) => {
		if (start > text.length) {
			if ([...(carried ?? [])].every((name) => body[name] !== undefined)) found.push({ ...body });
			return;
		}
		for (const end of ends.filter((at) => at > start)) {
			const segment = text.slice(start, end);
			const equals = segment.indexOf('=');
			if (equals < 0) continue;
			const [name, value] = [segment.slice(0, equals), segment.slice(equals + 1)];
			if (!plausible(name) || value === '' || (last !== undefined && byteOrder(last, name) >= 0)) continue;
			if (shape !== undefined && value.includes('&') && (shape.deciding.has(name) || shape.plain.has(name))) continue;
			walk(end + 1, name, { ...body, [name]: value });
		}
	};
	walk(0, undefined, {});
	return found;
}

/** A small deterministic generator (mulberry32), so that a failure names a body that fails again. */
export function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
