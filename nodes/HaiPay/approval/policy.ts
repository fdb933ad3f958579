import { compareDecimal, plainDecimal } from '../../shared/decimal';
import type { Prepared } from '../execute/types';
import { DecimalTotal } from './decimalTotal';
import { repeatedName } from './jsonKeys';
import { exactNumberText } from './numbers';
import { currencyDecimals, isPayoutCurrency } from './places';
import { PolicyError } from './policyError';
import { VALID_FOR, validForHoursOf } from './expiry';

/**
 * The approval policy by amount, stated once per currency: up to which total, and up to which single row, one
 * approver suffices; above either, two distinct approvers, neither the uploader. Payout → Check computes what it asks
 * of a sheet (the summary's `approvalsRequired` and why); Payout → Create holds the approvals it is given to the same
 * computation over the rows it would send, so that an approval collected by any n8n means (a Form, a Wait, Slack or
 * email send-and-wait) meets the same rule. Amounts are compared as exact decimals, never as floating point.
 */

/** The most one approver may approve in a currency: in total, and in a single row. */
export interface OneApproverLimit {
	oneApproverUpToTotal: string;
	oneApproverUpToRow: string;
}

/** Limits by upper-case currency code; `*` stands for every currency not named; and how long an approval counts. */
export type ApprovalPolicy = ReadonlyMap<string, OneApproverLimit> & { readonly validForHours?: number };

export { PolicyError };

/** Any currency the policy does not name. */
const OTHERS = '*';
const LIMIT_NAMES = ['oneApproverUpToTotal', 'oneApproverUpToRow'] as const;

function limitOf(currency: string, value: unknown): OneApproverLimit {
	if (value === null || typeof value !== 'object' || Array.isArray(value))
		throw new PolicyError(`"${currency}" must be an object with ${LIMIT_NAMES.join(' and ')}`);
	const entry = value as Record<string, unknown>;
	const unknown = Object.keys(entry).find((name) => !(LIMIT_NAMES as readonly string[]).includes(name));
	if (unknown !== undefined)
		throw new PolicyError(`"${currency}" has "${unknown}", which is not one of ${LIMIT_NAMES.join(', ')}`);
	const places = currency === OTHERS ? undefined : currencyDecimals(currency);
	const limit = {} as Record<(typeof LIMIT_NAMES)[number], string>;
	for (const name of LIMIT_NAMES) {
		const given = entry[name];
		const amount = plainDecimal(typeof given === 'number' ? (exactNumberText(given) ?? NaN) : given);
		if (amount === undefined)
			throw new PolicyError(
				`"${currency}".${name} must be a plain decimal amount such as "10000.00", as text from 10^13 up (got ${JSON.stringify(given) ?? 'nothing'})`,
			);
		const fraction = amount.split('.')[1] ?? '';
		if (places !== undefined && fraction.replace(/0+$/, '').length > places)
			throw new PolicyError(
				`"${currency}".${name} ${amount} has more places than ${currency} amounts have (${places})`,
			);
		limit[name] = amount;
	}
	return limit;
}

/** What `jsonOf` gives for text that is not JSON. */
export const NOT_JSON = Symbol('not JSON');

/** JSON text parsed, or NOT_JSON. */
export function jsonOf(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return NOT_JSON;
	}
}

/** Reads the policy: a JSON object (or its text) of `{ "ZAR": { oneApproverUpToTotal, oneApproverUpToRow }, "*": … }`. */
export function readPolicy(value: unknown): ApprovalPolicy {
	const parsed = typeof value === 'string' ? jsonOf(value) : value;
	if (parsed === NOT_JSON)
		throw new PolicyError(
			'is not JSON: write an object such as {"ZAR": {"oneApproverUpToTotal": "10000.00", "oneApproverUpToRow": "2500.00"}}',
		);
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
		throw new PolicyError('must be a JSON object keyed by currency');
	const repeated = typeof value === 'string' ? repeatedName(value) : undefined;
	if (repeated !== undefined)
		throw new PolicyError(`names "${repeated}" twice in one object: JSON would keep only the last, unseen`);
	const { [VALID_FOR]: validFor, ...currencies } = parsed as Record<string, unknown>;
	const entries = Object.entries(currencies);
	if (entries.length === 0) throw new PolicyError('names no currency: an empty policy would let anything through');
	const policy: Map<string, OneApproverLimit> & { validForHours?: number } = new Map();
	if (validFor !== undefined) policy.validForHours = validForHoursOf(validFor);
	for (const [key, limit] of entries) {
		if (key !== OTHERS && !(key === key.toUpperCase() && isPayoutCurrency(key)))
			throw new PolicyError(
				`"${key}" is not a payout currency code (upper case, such as "ZAR") nor "*" for the others`,
			);
		policy.set(key, limitOf(key, limit));
	}
	return policy;
}

/** What the policy asks of one currency's rows, and why. */
export interface CurrencyNeed {
	currency: string;
	rows: number;
	total: string;
	largestRow: string;
	approvalsRequired: 1 | 2;
	why: string;
	limit?: OneApproverLimit;
}

/** What the policy asks of the rows as a whole: the most any currency asks. */
export interface ApprovalNeed {
	approvalsRequired: 1 | 2;
	why: string;
	currencies: CurrencyNeed[];
}

function needOf(currency: string, amounts: string[], policy: ApprovalPolicy): CurrencyNeed {
	const total = new DecimalTotal(currencyDecimals(currency));
	let largestRow = '0';
	for (const amount of amounts) {
		total.add(amount);
		if (compareDecimal(amount, largestRow) > 0) largestRow = amount;
	}
	const own = { currency, rows: amounts.length, total: total.toString(), largestRow };
	const limit = policy.get(currency) ?? policy.get(OTHERS);
	if (limit === undefined)
		return {
			...own,
			approvalsRequired: 2,
			why: `${currency} is not in the approval policy, so two approvers are needed`,
		};
	const { oneApproverUpToTotal: upToTotal, oneApproverUpToRow: upToRow } = limit;
	const reasons = [
		...(compareDecimal(own.total, upToTotal) > 0
			? [`the ${currency} total ${own.total} is above ${upToTotal}, the most one approver may approve`]
			: []),
		...(compareDecimal(largestRow, upToRow) > 0
			? [`a ${currency} row of ${largestRow} is above ${upToRow}, the most one approver may approve in one row`]
			: []),
	];
	if (reasons.length > 0)
		return { ...own, limit, approvalsRequired: 2, why: `${reasons.join(', and ')}: two approvers` };
	return {
		...own,
		limit,
		approvalsRequired: 1,
		why: `${currency} ${own.total} in ${own.rows} row(s) is within one approver's limits (${upToTotal} in total, ${upToRow} in one row)`,
	};
}

/** What the policy asks of the rows to send; without a policy, one approver. */
export function approvalNeed(rows: readonly Prepared[], policy: ApprovalPolicy | undefined): ApprovalNeed {
	if (policy === undefined)
		return { approvalsRequired: 1, why: 'no approval policy is set: one approver', currencies: [] };
	const amounts = new Map<string, string[]>();
	for (const row of rows) {
		const list = amounts.get(row.currency) ?? [];
		list.push(String(row.body.amount));
		amounts.set(row.currency, list);
	}
	const currencies = [...amounts].map(([currency, list]) => needOf(currency, list, policy));
	const above = currencies.filter((need) => need.approvalsRequired === 2);
	if (above.length > 0) return { approvalsRequired: 2, why: above.map((need) => need.why).join('; '), currencies };
	return { approvalsRequired: 1, why: "every currency is within one approver's limits", currencies };
}
