import { PolicyError } from './policyError';

/*
 * Approvals that expire where the money leaves. A Form page's Limit Wait Time ends an unanswered page, but an
 * approval collected any other way (Slack, email, a page answered and then left waiting behind another step) could be
 * handed to Payout → Create days later. With `approvalsValidForHours` in the policy, an approval counts only if its
 * `approvedAt` (ISO 8601 with its zone, as n8n's Form gives `submittedAt`) is within that many hours before the
 * send, and not from the future beyond a clock's drift.
 */

/** The policy's member for it: top-level, beside the currencies. */
export const VALID_FOR = 'approvalsValidForHours';

/** How far ahead of this machine's clock an approval's time may be (another machine's clock). */
export const FUTURE_DRIFT_MS = 5 * 60_000;

const MOST_HOURS = 24 * 366;

/** An ISO 8601 date and time that names its zone: without one, the same text is another instant elsewhere. */
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** Reads the policy's `approvalsValidForHours`: a positive number of hours up to a year. */
export function validForHoursOf(value: unknown): number {
	// Text is read only as plain decimal hours: Number() would also take "0x10" as 16 and "1e2" as 100.
	const hours = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
	if (typeof hours !== 'number' || !Number.isFinite(hours) || hours <= 0 || hours > MOST_HOURS)
		throw new PolicyError(
			`"${VALID_FOR}" must be a number of hours above 0 and at most ${MOST_HOURS} (got ${JSON.stringify(value) ?? 'nothing'})`,
		);
	return hours;
}

/** Why an approval given at `approvedAt` no longer counts `now`, or undefined when it does. */
export function expiredWhy(approvedAt: string | undefined, hours: number, now: number): string | undefined {
	if (approvedAt === undefined || approvedAt === '')
		return `has no approvedAt, and the policy's approvals count for ${hours} hours`;
	const at = ZONED.test(approvedAt) ? Date.parse(approvedAt) : NaN;
	if (Number.isNaN(at)) return `has approvedAt "${approvedAt.slice(0, 40)}", not an ISO 8601 time with its zone`;
	if (at - now > FUTURE_DRIFT_MS) return `is dated ${approvedAt}, in the future`;
	const age = now - at;
	if (age > hours * 3_600_000)
		return `was given at ${approvedAt}, ${(age / 3_600_000).toFixed(1)} hours ago: approvals count for ${hours} hours`;
	return undefined;
}
