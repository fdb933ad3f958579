/*
 * The repeat memory's saved text (memory.ts), as n8n stores it in the workflow's static data: fixed-width records, so
 * that n8n parses a full memory in under a millisecond on every request.
 */

/** A record: the key's digest as 14 characters of base64url (84 bits), and its age in seconds as 5 of base 36. */
export const [VERSION, DIGEST_LENGTH, AGE_LENGTH, RECORD_LENGTH] = [2, 14, 5, 19];
/** A taken-back record: a record and one base-36 character, how many times the result was taken back. */
const BACK_LENGTH = RECORD_LENGTH + 1;
const OLDEST = 36 ** AGE_LENGTH - 1;

/**
 * The text in static data; `at`, the wall-clock second of the save, is for earlier versions (ages count from taking it
 * in). `back`, the results taken back because n8n could not start their workflow: a process that saved one of them
 * before hearing of that must not bring it back.
 */
export type Saved = { v: number; stamp: string; at: number; entries: string; back?: string };

export const isSaved = (value: unknown): value is Saved =>
	(value as Saved)?.v === VERSION &&
	typeof (value as Saved).stamp === 'string' &&
	typeof (value as Saved).entries === 'string' &&
	['string', 'undefined'].includes(typeof (value as Saved).back);

/**
 * The saved text as `current()` gives it whenever it is read: by JSON (`toJSON`), and by a copy that reads members
 * (structuredClone, a spread), which cannot copy a function of its own.
 */
export const liveText = (current: () => Saved): Saved =>
	Object.create(
		{ toJSON: current },
		Object.fromEntries(
			(['v', 'stamp', 'at', 'entries', 'back'] as const).map((name) => [
				name,
				{ get: () => current()[name], enumerable: true },
			]),
		),
	) as Saved;

/** A result remembered at `at`, or taken back `times` times (the last at `at`), in seconds of the memory's clock. */
export type MemoryRecord = { digest: string; at: number; times?: number };

const ageText = (now: number, at: number) =>
	Math.min(Math.max(now - at, 0), OLDEST)
		.toString(36)
		.padStart(AGE_LENGTH, '0');

export function encode(
	stamp: string,
	now: number,
	seen: Map<string, number>,
	back: Map<string, { times: number; at: number }>,
): Saved {
	let [entries, taken] = ['', ''];
	for (const [digest, at] of seen) entries += digest + ageText(now, at);
	for (const [digest, { times, at }] of back) taken += digest + ageText(now, at) + Math.min(times, 35).toString(36);
	const saved: Saved = { v: VERSION, stamp, at: Math.floor(Date.now() / 1000), entries };
	return taken === '' ? saved : { ...saved, back: taken };
}

/**
 * The newest `limit` records of one member of a saved text (records run oldest first), their ages counted back from
 * `now`: a text something else wrote, huge or with ages below zero, costs no more than a full memory and keeps nothing
 * longer than its window.
 */
export function* decode(text: string, now: number, limit: number, taken = false): Generator<MemoryRecord> {
	const length = taken ? BACK_LENGTH : RECORD_LENGTH;
	const first = Math.max(0, Math.floor(text.length / length) - limit) * length;
	for (let offset = first; offset + length <= text.length; offset += length) {
		const record = text.slice(offset, offset + length);
		const at = now - Math.max(parseInt(record.slice(DIGEST_LENGTH, RECORD_LENGTH), 36) || 0, 0);
		yield taken
			? { digest: record.slice(0, DIGEST_LENGTH), at, times: parseInt(record.slice(RECORD_LENGTH), 36) || 0 }
			: { digest: record.slice(0, DIGEST_LENGTH), at };
	}
}
