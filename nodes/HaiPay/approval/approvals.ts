import type { IExecuteFunctions } from 'n8n-workflow';

import { plainDecimal } from '../../shared/decimal';
import { ItemFailure } from '../../shared/gateway/outcome';
import { trimmedText } from '../../shared/text';
import { codePoint, readingOf } from '../../shared/contract/rules/identifiers';
import { hasCollectionEntry, parameterValue } from '../execute/parameters';
import type { Prepared } from '../execute/types';
import { expiredWhy } from './expiry';
import { isFingerprint, rowsFingerprint } from './fingerprint';
import { approvalNeed, jsonOf, NOT_JSON, PolicyError, readPolicy, type ApprovalPolicy } from './policy';

/**
 * Payout → Create held to the approval policy (policy.ts): the approvals it is given, each an n8n user id and the
 * fingerprint that person approved, count only for the rows this run would send, once per person, and never from the
 * person who uploaded them. However the approvals were collected, fewer than the policy asks sends nothing.
 */

/** One approval as the workflow hands it over. */
export interface Approval {
	userId: string;
	fingerprint: string;
	approvedAt?: string;
}

const RULE = 'approvalPolicy';

function refusal(field: string, message: string): ItemFailure {
	return new ItemFailure('invalid', `${message}: nothing was sent`, { field, rule: RULE });
}

function parsed(value: unknown): unknown {
	if (typeof value !== 'string' || value.trim() === '') return value;
	const read = jsonOf(value);
	if (read === NOT_JSON)
		throw new PolicyError('is not JSON: write a list such as [{"userId": "…", "fingerprint": "v1:…"}]');
	return read;
}

/**
 * A person's id as the policy compares it: "Alice ", "alice" and fullwidth "ａｌｉｃｅ" are one person (NFKC, case
 * folded, spaces run together), or one insider would count as two approvers, or approve as someone other than the
 * uploader. Only printable ASCII is taken after NFKC (n8n user ids are UUIDs): a Cyrillic "а" in "аlice" looks like
 * the Latin letter and no folding joins them, so such an id is refused rather than counted.
 */
export function personOf(value: unknown, what: string): string {
	const id = trimmedText(value).normalize('NFKC');
	if (id === '') throw new PolicyError(`${what} has no user id (the approver's n8n user id)`);
	if (id.length > 200) throw new PolicyError(`${what} has a user id longer than 200 characters`);
	const odd = [...id].find((char) => !/^[\x20-\x7E]$/.test(char));
	if (odd !== undefined)
		throw new PolicyError(
			`${what} has a user id with ${codePoint(odd)}, which is not printable ASCII: n8n user ids are, and a look-alike letter could pass for another person`,
		);
	return readingOf(id).replace(/\s+/g, ' ');
}

/** Reads the approvals: a list (or its JSON text) of `{ userId, fingerprint, approvedAt? }`; one alone is a list of one. */
export function readApprovals(value: unknown): Approval[] {
	const read = parsed(value);
	const list = Array.isArray(read) ? read : read === null || read === undefined || read === '' ? [] : [read];
	return list.map((entry: unknown, index) => {
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
			throw new PolicyError(`approval ${index + 1} is not an object with userId and fingerprint`);
		const { userId, fingerprint, approvedAt } = entry as Record<string, unknown>;
		if (trimmedText(userId) === '')
			throw new PolicyError(`approval ${index + 1} has no userId (the approver's n8n user id)`);
		personOf(userId, `approval ${index + 1}`);
		return {
			userId: trimmedText(userId).normalize('NFKC'),
			fingerprint: trimmedText(fingerprint),
			...(approvedAt === undefined ? {} : { approvedAt: trimmedText(approvedAt) }),
		};
	});
}

/** The people whose approvals count for rows of this fingerprint, and why each other approval does not. */
export function countedApprovals(
	approvals: readonly Approval[],
	fingerprint: string,
	uploadedBy: string | undefined,
	expiry?: { hours: number; now: number },
): { counted: string[]; notCounted: string[] } {
	const counted: string[] = [];
	const notCounted: string[] = [];
	const people = new Set<string>();
	const uploader = uploadedBy === undefined ? undefined : personOf(uploadedBy, 'uploadedBy');
	approvals.forEach(({ userId, fingerprint: approved, approvedAt }, index) => {
		const who = `approval ${index + 1} (user ${userId})`;
		const person = personOf(userId, `approval ${index + 1}`);
		const expired = expiry === undefined ? undefined : expiredWhy(approvedAt, expiry.hours, expiry.now);
		if (expired !== undefined) notCounted.push(`${who} ${expired}`);
		else if (!isFingerprint(approved)) notCounted.push(`${who} names no fingerprint Payout → Check gives`);
		else if (approved !== fingerprint) notCounted.push(`${who} is for other rows (${approved.slice(0, 15)}…)`);
		else if (person === uploader) notCounted.push(`${who} is by the uploader`);
		else if (people.has(person)) notCounted.push(`${who} is the same person again`);
		else {
			people.add(person);
			counted.push(userId);
		}
	});
	return { counted, notCounted };
}

/** An option's value at the first item, or undefined when the option is not added; throws when it cannot be read. */
function option(ctx: IExecuteFunctions, name: string): unknown {
	if (!hasCollectionEntry(ctx, 'options', name)) return undefined;
	// Added but resolving to nothing is empty, not absent: an expression that lost its value must not lift the rule.
	return parameterValue(ctx, 0, `options.${name}`, '') ?? '';
}

interface Settings {
	policy?: ApprovalPolicy;
	approvals: Approval[];
	uploadedBy?: string;
}

function readSettings(ctx: IExecuteFunctions, field: { name: string }): Settings {
	const policyValue = option(ctx, 'approvalPolicy');
	const policy = policyValue === undefined ? undefined : readPolicy(policyValue);
	field.name = 'approvals';
	const approvals = readApprovals(option(ctx, 'approvals'));
	field.name = 'uploadedBy';
	const uploader = option(ctx, 'uploadedBy');
	const uploadedBy = uploader === undefined ? undefined : trimmedText(uploader);
	if (uploadedBy === '') throw new PolicyError('is added but empty, so the uploader could not be told apart');
	if (uploadedBy !== undefined) personOf(uploadedBy, 'the uploader');
	// "Neither the uploader" cannot hold unless the uploader is named: a policy without one refuses.
	if (policy !== undefined && uploadedBy === undefined)
		throw new PolicyError(
			"is needed with an approval policy: the n8n user id of who submitted the rows (a fixed text, such as 'schedule', for a run no person started)",
		);
	return { policy, approvals, uploadedBy };
}

/** The options read, or the refusal naming the one that could not be. */
function settingsOf(ctx: IExecuteFunctions): Settings | ItemFailure {
	const field = { name: 'approvalPolicy' };
	try {
		return readSettings(ctx, field);
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return refusal(field.name, `"${field.name}" ${why}`);
	}
}

/**
 * Why the approvals given do not let these rows be sent, or undefined when they do, or when neither Approval Policy
 * nor Approvals is added (the run asks for no approval).
 */
export function policyRefusal(
	ctx: IExecuteFunctions,
	prepared: ReadonlyArray<Prepared | undefined>,
): ItemFailure | undefined {
	if (!hasCollectionEntry(ctx, 'options', 'approvalPolicy') && !hasCollectionEntry(ctx, 'options', 'approvals'))
		return undefined;
	const rows = prepared.filter((entry): entry is Prepared => entry !== undefined);
	if (rows.length === 0) return undefined;
	const settings = settingsOf(ctx);
	if (settings instanceof ItemFailure) return settings;
	// A payout row always names its amount (the contract requires it); one that did not is refused, never guessed.
	const unpriced = rows.findIndex((row) => plainDecimal(row.body.amount) === undefined);
	if (unpriced >= 0)
		return refusal(
			'approvalPolicy',
			`"approvalPolicy" is by amount, and row ${unpriced + 1} of this operation has none`,
		);
	const need = approvalNeed(rows, settings.policy);
	const hours = settings.policy?.validForHours;
	const expiry = hours === undefined ? undefined : { hours, now: Date.now() };
	const fingerprint = rowsFingerprint(rows);
	const { counted, notCounted } = countedApprovals(settings.approvals, fingerprint, settings.uploadedBy, expiry);
	if (counted.length >= need.approvalsRequired) return undefined;
	const asked =
		need.approvalsRequired === 2
			? 'two distinct approvers, neither the uploader,'
			: 'one approver other than the uploader';
	const given = notCounted.length === 0 ? '' : ` (${notCounted.join('; ')})`;
	return refusal(
		'approvals',
		`The approval policy asks ${asked} for these ${rows.length} row(s) (${need.why}); ${counted.length} approval(s) count${given}`,
	);
}
