/**
 * HaiPay's `payTime` is `yyyy-MM-dd HH:mm:ss` with no offset, and most of HaiPay's pages name no zone for it
 * (docs/haipay-facts.md, "payTime"). Where a page names one, the time is also given as ISO 8601 with its offset, so
 * that a report never mixes zones unmarked; where none is named, nothing is added: an offset is never guessed.
 */

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** The offset of `zone` at an instant, in minutes east of UTC, from the platform's time zone data. */
function offsetAt(zone: string, epochMs: number): number {
	const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
		.formatToParts(epochMs)
		.find((part) => part.type === 'timeZoneName')?.value;
	const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name ?? '');
	if (match === null) throw new Error(`no offset for the time zone ${zone}`);
	if (match[1] === undefined) return 0;
	const minutes = Number(match[2]) * 60 + Number(match[3]);
	return match[1] === '-' ? -minutes : minutes;
}

function offsetText(minutes: number): string {
	const size = Math.abs(minutes);
	const pad = (value: number) => String(value).padStart(2, '0');
	return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(size / 60))}:${pad(size % 60)}`;
}

/**
 * `text`, a wall-clock time in the IANA `zone`, as ISO 8601 with that zone's offset at that moment, or undefined
 * when it is not one moment there: not a real date and time, skipped when the clocks went forward, or given twice
 * when they went back (the offset would be a guess).
 */
export function zonedIso(text: unknown, zone: string): string | undefined {
	const match = typeof text === 'string' ? LOCAL_TIME.exec(text) : null;
	if (match === null) return undefined;
	const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
	const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
	const check = new Date(asUtc);
	// Date.UTC rolls 2026-02-30 over to 2026-03-02: a date it had to change is not a date.
	if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
	if (hour > 23 || minute > 59 || second > 59) return undefined;
	// The zone's offsets on either side of the day; the wall time is that moment under each one that maps back to it.
	const offsets = new Set([offsetAt(zone, asUtc - 86_400_000), offsetAt(zone, asUtc + 86_400_000)]);
	const fits = [...offsets].filter((offset) => offsetAt(zone, asUtc - offset * 60_000) === offset);
	if (fits.length !== 1) return undefined;
	return `${year}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}${offsetText(fits[0])}`;
}
